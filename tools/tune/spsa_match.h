// The games of an SPSA iteration: the two weight sets of a trial, each in an engine process
// that loads it as its EvalFile, play duplicate pairs through the arena.
#pragma once

#include <array>
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

// What a trial's games say: the plus set's score minus the minus set's, in [-1, 1], and the
// plus set's luck in them (the mean over the pairs, arena::PairSample's units).
struct TrialResult {
    double result = 0;
    double attackLuck = 0;
    double showdownLuck = 0;
};

// The results of the trials so far with their luck as control variates: the luck has
// expectation zero whatever the weights, so result - b . luck keeps the result's expectation
// and sheds the variance the luck explains (b fitted by least squares, arena::luckAdjusted).
// The fit uses only earlier trials, so a trial's own noise does not shape its correction;
// until arena::kMinimumLuckPairs trials are in, results go through unchanged.
class LuckControl {
  public:
    // The adjusted result of `trial`, which then joins the fit.
    double adjust(const TrialResult& trial);
    [[nodiscard]] std::array<double, 2> coefficients() const { return coefficients_; }
    // The variance of the adjusted results over that of the plain ones, so far.
    [[nodiscard]] double varianceRatio() const { return varianceRatio_; }

  private:
    std::vector<arena::PairSample> history_;
    std::array<double, 2> coefficients_{};
    double varianceRatio_ = 1;
};

// Plays `match.pairs` duplicate pairs of `plus` against `minus`. Empty with `error` when the files
// cannot be written, the arena cannot start, or a game is lost by a fault (a result that says
// nothing of the weights).
[[nodiscard]] std::optional<TrialResult> playTrial(const SpsaMatch& match,
                                                   const eval::Tunables& plus,
                                                   const eval::Tunables& minus, int iteration,
                                                   std::string& error);

// The engine items of both sides (without the EvalFile), checked as the arena checks an
// --engine: empty, or the error.
[[nodiscard]] std::optional<std::string> checkSpsaMatch(const SpsaMatch& match);

}  // namespace dejarik::tune
