// Two runs of the same deals and dice side by side, pair by pair (docs/arena.md, "Compare"):
// what a change of one engine did to its score against the same opponent, with the dice's
// luck of each pair as control variates. Two runs that differ only in the engine's settings
// see the same deals and, under duplicate dice, the same attack numbers, so most pairs end
// alike and the difference of the two runs' pair scores is far less noisy than either score.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "game.h"
#include "stats.h"

namespace dejarik::arena {

struct CompareOptions {
    std::string player;   // the engine compared, as run A names it
    std::string playerB;  // as run B names it (empty: the same name)
};

// A difference of mean per-game scores and the half width of its 95% interval.
struct Difference {
    double mean = 0;
    double halfWidth = 0;
};

struct Comparison {
    std::int64_t pairs = 0;              // complete in both runs, compared
    std::int64_t differing = 0;          // of those, pairs whose two scores differ
    std::int64_t playedDifferently = 0;  // pairs whose scores or luck differ
    std::int64_t leftOut = 0;            // pairs complete in one run only (a fault, or not played)
    std::array<Wdl, 2> wdl{};  // the player's games of the compared pairs, run A and run B
    Difference plain;          // A - B per game
    // The same with each pair's luck difference as control variates; only from
    // kMinimumLuckPairs pairs played differently on (a pair played alike in both runs adds
    // a zero to the fit).
    std::optional<Difference> luckAdjusted;
    double varianceRatio = 1;  // adjusted variance / plain variance
};

// Error: a record of the player twice in one run; a pair whose deal, seed, dice or rules
// differ between the runs; fewer than two pairs complete in both.
[[nodiscard]] std::optional<Comparison> compareRuns(const std::vector<GameRecord>& a,
                                                    const std::vector<GameRecord>& b,
                                                    const CompareOptions& options,
                                                    std::string& error);
// `nameA` and `nameB` say where each run came from (its file).
[[nodiscard]] std::string formatComparison(const Comparison& c, const CompareOptions& options,
                                           const std::string& nameA, const std::string& nameB);

}  // namespace dejarik::arena
