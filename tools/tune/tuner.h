// The tuner (docs/tuning.md): fits the evaluation weights (eval/tunables.h) to positions
// labelled by the exact endgame tables, Texel-style: the mean squared difference between
// evaluate() and the tables' value, both the expected result for player 1, minimised by a
// coordinate search over the weights named, each kept in its range.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "game.h"
#include "position.h"
#include "tablebase.h"
#include "tunables.h"

namespace dejarik::tune {

// Why neither the fit nor SPSA takes Courtier: its evaluation (eval/courtier_eval.h) reads
// none of the tunable weights.
inline constexpr std::string_view kCourtierHasNoWeights = "Courtier has no weights to fit";

// The longest fit the tuner takes: over eleven days, and within what a nanosecond clock can
// add to now.
inline constexpr double kMaxFitSeconds = 1e6;

// A position and its label: the tables' value for player 1 (the game without the quiet
// draw, which the positions' rules leave out too).
struct Sample {
    Position pos;
    double label = 0;
    std::uint64_t game = 0;  // the game it comes from: positions of one game are held out together
};

// `count` decision points with at most four creatures, each from a game played from a random
// deal of `ruleset` (seeded by `seed`) under the tables' rules (DrawTurns 0) by a mix of the
// greedy and random baselines, at most `perGame` of them from one game, and labelled by
// `tables`. Positions the tables do not answer (a set missing) are skipped. The positions
// point to tables.rules(), which must outlive them. Fewer than `count` only when 50 times
// `count` games gave no more.
[[nodiscard]] std::vector<Sample> tableSamples(const tables::Tablebase& tables, Ruleset ruleset,
                                               int count, int perGame, std::uint64_t seed);

// Decision points of exactly five creatures where the player to decide can attack: one
// capture from the tables, where the evaluator meets them in the engine's search. Each is
// labelled by a search of `depth` actions with the tables (DrawTurns 0): every capture in
// its reach lands on a table value, so the label is mostly the tables' and the start
// weights count only at the leaves no capture reaches.
struct CaptureOptions {
    int count = 0;
    int perGame = 4;
    int depth = 4;
    int threads = 1;
    std::uint64_t seed = 1;
};
[[nodiscard]] std::vector<Sample> captureSamples(
    const std::shared_ptr<const tables::Tablebase>& tables, Ruleset ruleset,
    const eval::Tunables& start, const CaptureOptions& options);

// Positions from arena game records (docs/arena.md, "Records"), each labelled by its game's
// result for player 1 (+1, 0, -1): Texel's original labels, for positions with any number
// of creatures and the quiet draw in play. The positions point to `rules`, one per record.
struct RecordSamples {
    std::vector<std::unique_ptr<Rules>> rules;
    std::vector<Sample> samples;
};
// Every `stride`-th decision point of every game not ended by a fault; an error names the
// record that does not replay.
[[nodiscard]] std::optional<std::string> recordSamples(
    const std::vector<arena::GameRecord>& records, int stride, RecordSamples& out);

// Mean of (evaluate(pos, weights) - label)^2, the samples split over `threads` threads.
[[nodiscard]] double meanSquaredError(std::span<const Sample> samples,
                                      const eval::Tunables& weights, int threads);

struct FitOptions {
    std::vector<std::string> params;  // the weights to fit, by name (eval::findTunable)
    double seconds = 60;              // wall time; the pass under way is finished
    int threads = 1;
    double firstStep = 0.1;  // of each weight's range (an integer weight moves at least 1)
    double lastStep = 1e-3;  // the search ends once the step falls below this
};

// The coordinate search from `start`: each weight in turn tries one step up, then one down,
// and keeps a move that lowers the loss on `samples`; after a pass without a move the step is
// halved. `progress` gets one line per pass. Returns the best weights found.
[[nodiscard]] eval::Tunables fit(std::span<const Sample> samples, const eval::Tunables& start,
                                 const FitOptions& options,
                                 const std::function<void(const std::string&)>& progress);

// The weights a fit changes by default for a rule mix: its ruleset's own evaluation weights
// (eval::evalWeightName), and those its positions can move (the
// CentreWin, KingOfTheCentre and safe-ring weights only where the rules have them), without
// the wdl-only draw shares and the quiet horizon (the tables' positions have no quiet draw).
[[nodiscard]] std::vector<std::string> defaultParams(const Rules& rules);

// The names of a comma-separated list (--params), empty items left out.
[[nodiscard]] std::vector<std::string> splitNames(const std::string& list);

}  // namespace dejarik::tune
