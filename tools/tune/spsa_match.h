// The games of an SPSA iteration: the two weight sets of a trial, each in an engine process
// that loads it as its EvalFile, play duplicate pairs through the arena.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "tournament.h"
#include "tunables.h"

namespace dejarik::tune {

struct SpsaMatch {
    std::string engine;             // the engine's command
    std::vector<std::string> each;  // the arena's --each items for both: depth=4, tc=1+0.01, ...
    arena::RuleSettings rules;
    int pairs = 1;  // duplicate pairs an iteration
    int concurrency = 1;
    std::filesystem::path directory;  // where the two weight files are written
    std::uint64_t seed = 1;           // iteration k plays the deals and dice of seed + k
};

// Plays `match.pairs` duplicate pairs of `plus` against `minus`; the plus set's score minus
// the minus set's, in [-1, 1]. Empty with `error` when the files cannot be written, the
// arena cannot start, or a game is lost by a fault (a result that says nothing of the
// weights).
[[nodiscard]] std::optional<double> playTrial(const SpsaMatch& match, const eval::Tunables& plus,
                                              const eval::Tunables& minus, int iteration,
                                              std::string& error);

// The engine items of both sides (without the EvalFile), checked as the arena checks an
// --engine: empty, or the error.
[[nodiscard]] std::optional<std::string> checkSpsaMatch(const SpsaMatch& match);

}  // namespace dejarik::tune
