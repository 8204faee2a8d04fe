// How well a player's small endings went against a baseline: each record replayed to the
// first position with at most four creatures (both sides present) and the quiet counter at
// 0 (after a kill, or after the first attack when the record starts there), that position valued
// exactly against the baseline with the quiet draw (tables/policy.h), and the points the
// player then scored set against that value (docs/arena.md, "Endings").
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "baselines.h"
#include "game.h"

namespace dejarik::arena {

struct EndingsOptions {
    std::string player;        // the engine whose games are read (required)
    search::Baseline against;  // the other side's player (required)
    int threads = 1;
};

// Games entering their small ending with one count of creatures ("3v1": the player's first).
struct EndingsRow {
    std::int64_t games = 0;
    double exact = 0;    // summed, then the mean: the score of perfect play from the entry
    double scored = 0;   // summed, then the mean: the points the player scored
    double squares = 0;  // summed squared gaps (scored - exact), then their sd
};

struct Endings {
    std::int64_t games = 0;  // finished games of the player read
    std::map<std::string, EndingsRow> byCount;
    EndingsRow all;
};

// Reads every finished record that `options.player` plays in. Error: a record that does not
// replay, rules the exact solution does not take (no quiet draw, CentreWin, Courtier), no
// game of the player.
[[nodiscard]] std::optional<Endings> analyseEndings(const std::vector<GameRecord>& records,
                                                    const EndingsOptions& options,
                                                    std::string& error);
[[nodiscard]] std::string formatEndings(const Endings& endings, const EndingsOptions& options);

}  // namespace dejarik::arena
