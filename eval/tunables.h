// Every weight of the evaluation in one struct (docs/eval.md, "Weights"), so that a tuner
// can read and set each one by name, from the command line or a file. The evaluator reads
// its weights from the Tunables it is given (evaluate(pos, tunables), or the memo's); the
// member initialisers below are the compiled-in defaults, the only place they are written.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "rules.h"

namespace dejarik::eval {

// The weights of the evaluation's terms that each ruleset has of its own
// (Tunables::evalWeights): Tunables::base serves kelly, dalsian and Courtier; holochess and
// dalsian-classic have theirs, named with a prefix ("holochessCalibration").
struct EvalWeights {
    // Every term of a position not over is scaled by this before the final tanh.
    double calibration = 0;
    // Attacks (threats, exposure): a second attack in the same turn is worth less than the
    // first (the position has changed), an attack after a move less than one in place (it
    // spends the turn, and the move is only roughly known), and the waiting side's attacks
    // come only after the side to move has used its actions, which it can spend fleeing or
    // striking first.
    double secondAttack = 0, reachAttack = 0;
    double laterAfterTwoActions = 0, laterAfterOneAction = 0;
    double exposure = 0;
    // Attack gains are changes of the attrition win chance W, turned into logits with the
    // slope 1 / (2 W (1 - W)), W (1 - W) at least this.
    double slopeFloor = 0;
    // Positional terms, in logits: a cell in one move's reach, up to a cap of cells a piece.
    double mobilityPerCell = 0;
    int mobilityCap = 0;

    bool operator==(const EvalWeights&) const = default;
};
// The names of those weights as Tunables::base's (and TunableSpec) call them.
inline constexpr std::array<std::string_view, 9> kEvalWeightNames = {
    "calibration", "secondAttack", "reachAttack",     "laterAfterTwoActions", "laterAfterOneAction",
    "exposure",    "slopeFloor",   "mobilityPerCell", "mobilityCap"};

struct Tunables {
    // kelly's, dalsian's and Courtier's. calibration: arena games showed the terms about twice
    // too confident (where the engine claimed +0.86 it scored +0.51), and halving them won
    // +30 ± 21 Elo (SPRT H1 after 145 pairs, depth 3 against depth 3, kelly; docs/eval.md,
    // "Calibration"); finished games keep their exact values. slopeFloor 0.125: W outside
    // [0.15, 0.85] is a decided game, the slope at most 4.
    EvalWeights base{.calibration = 0.5,
                     .secondAttack = 0.5,
                     .reachAttack = 0.75,
                     .laterAfterTwoActions = 0.35,
                     .laterAfterOneAction = 0.5,
                     .exposure = 0.15,
                     .slopeFloor = 0.125,
                     .mobilityPerCell = 0.004,
                     .mobilityCap = 8};

    // holochess', fitted to 1,200 depth-4 self-play games' results (dejarik-tune --records,
    // docs/tuning.md): where every attack is a split-d6 lottery the terms are surer than
    // kelly's (its draws are few), the waiting side's attacks count when the mover has one
    // action left, and every profitable attack suffered weighs. SPRT against the kelly
    // weights at depth 4: H1, +21.2 ± 11.7 Elo (luck-adjusted +16.9 ± 5.8), 566 pairs.
    EvalWeights holochess{.calibration = 0.963125,
                          .secondAttack = 1,
                          .reachAttack = 0.4,
                          .laterAfterTwoActions = 0.078125,
                          .laterAfterOneAction = 0.9171875,
                          .exposure = 0.634375,
                          .slopeFloor = 0.18575,
                          .mobilityPerCell = 0.00040625,
                          .mobilityCap = 6};
    // dalsian-classic's, fitted the same way, twice: to self-play of the kelly weights (SPRT
    // at depth 4: H1, +22.7 ± 12.8 Elo, luck-adjusted +20.1 ± 4.4, 597 pairs), then to 1,200
    // self-play games of that fit (session 14). The second fit counts the waiting side's
    // attacks while the mover has both actions (a d20 kill or a CentreWin hold lets it
    // strike first), every profitable attack suffered and every attack after a move in
    // full, and mobility not at all. Luck-adjusted SPRTs against the first fit: depth 4 H1
    // after 1,085 pairs (+4.6 ± 3.4 Elo luck-adjusted), 10 ms H1 after 336 (+8.0 ± 6.5).
    EvalWeights classic{.calibration = 1.07296875,
                        .secondAttack = 0.0046875,
                        .reachAttack = 1,
                        .laterAfterTwoActions = 0.9546875,
                        .laterAfterOneAction = 0.39375,
                        .exposure = 1,
                        .slopeFloor = 0.25,
                        .mobilityPerCell = 0,
                        .mobilityCap = 17};
    // With KingOfTheCentre every attack goes through `a`: a piece there is worth
    // centreKing * (1 + centreWorth * its attrition worth). Without it the centre earns
    // nothing of its own (1-ply games lost with a bonus for standing there).
    double centreKing = 0.25;
    double centreWorth = 2.0;

    // Ruleset terms.
    double safeRing = 0.5;  // SafeOuterOrbit: share of the lead the hider can void
    // CentreWin: a hold counter about to reach N (fitted with dalsian-classic's weights
    // above: the counter alone is worth almost nothing, a hold the other side can attack a
    // full step), a hold the other side can attack.
    double holdStep = 0.0375;
    double holdContested = 1;
    double holdWin = 6.0;       // a hold win nothing can stop: tanh(6 * 0.5) = 0.995, plus
    double holdWinRest = 0.05;  // this share of the rest, so material still counts
    int quietHorizon = 30;      // actions before the quiet draw where the value shrinks

    // The reported value (docs/eval.md, "Reported value"): what the protocol's `ev` and
    // `wdl` say a searched value v means, per ruleset, fitted to the results of depth-4
    // self-play games (`dejarik-arena calibrate --fit`). The expected result at |v| = 0.25,
    // 0.5 and 0.75 (0 at 0, 1 at 1, linear between, odd in v), and the chance of a draw at
    // |v| = 0, 0.25, 0.5 and 0.75 (0 at 1). The search keeps its own scale; only what it
    // reports goes through this.
    double kellyReport25 = 0.1458, kellyReport50 = 0.3962, kellyReport75 = 0.6499;
    double kellyDraw0 = 0.9663, kellyDraw25 = 0.7661, kellyDraw50 = 0.5594, kellyDraw75 = 0.2078;
    double holochessReport25 = 0.2164, holochessReport50 = 0.4959, holochessReport75 = 0.7332;
    double holochessDraw0 = 0.1551, holochessDraw25 = 0.0238, holochessDraw50 = 0.0198,
           holochessDraw75 = 0.0011;
    double dalsianReport25 = 0, dalsianReport50 = 0, dalsianReport75 = 0.75;
    double dalsianDraw0 = 1, dalsianDraw25 = 1, dalsianDraw50 = 1, dalsianDraw75 = 0;
    double classicReport25 = 0.2492, classicReport50 = 0.5171, classicReport75 = 0.7056;
    double classicDraw0 = 0, classicDraw25 = 0, classicDraw50 = 0, classicDraw75 = 0;

    // Draw shares (wdl only).
    double drawByHiding = 0.6;
    double drawByStalemate = 0.5;
    double decisive = 0.25;  // exchanges that kill less often than this tend to draws

    bool operator==(const Tunables&) const = default;

    // The reported value's weights of a ruleset (Courtier reports its own way; dalsian-classic
    // is `classic`).
    struct ReportModel {
        std::array<double, 3> value;  // at |v| = 0.25, 0.5, 0.75
        std::array<double, 4> draw;   // at |v| = 0, 0.25, 0.5, 0.75
    };
    [[nodiscard]] ReportModel reportModel(Ruleset ruleset) const;

    // The evaluation weights of a ruleset (EvalWeights).
    [[nodiscard]] EvalWeights evalWeights(Ruleset ruleset) const;

    // The weight called `name` (TunableSpec::name), if there is one.
    [[nodiscard]] std::optional<double> get(std::string_view name) const;
    // Sets the weight called `name` from its text; on a bad name or value (not a number, not
    // an integer where one is wanted, outside the spec's range) nothing is set and the
    // error says which.
    [[nodiscard]] std::optional<std::string> set(std::string_view name, std::string_view value);
    // The same from a number (a tuner's step).
    [[nodiscard]] std::optional<std::string> set(std::string_view name, double value);
};

inline constexpr Tunables kDefaultTunables{};

// One row of the table of weights: its name, where it is, its range and meaning.
struct TunableSpec {
    std::string_view name;
    // A member of Tunables (real or whole), or a member (groupReal or groupWhole) of one of
    // its EvalWeights (group): exactly one place is set.
    double Tunables::*real = nullptr;
    int Tunables::*whole = nullptr;
    EvalWeights Tunables::*group = nullptr;
    double EvalWeights::*groupReal = nullptr;
    int EvalWeights::*groupWhole = nullptr;
    double min = 0, max = 0;  // the sensible range, both ends allowed
    std::string_view what;

    [[nodiscard]] bool integral() const { return whole != nullptr || groupWhole != nullptr; }
    [[nodiscard]] double get(const Tunables& t) const;
    [[nodiscard]] double defaultValue() const { return get(kDefaultTunables); }
    // Sets a value already checked against the range (Tunables::set checks it).
    void set(Tunables& t, double value) const;
};

// Every weight, in the order formatTunables() writes them.
[[nodiscard]] std::span<const TunableSpec> tunableSpecs();
[[nodiscard]] const TunableSpec* findTunable(std::string_view name);

// Reads `name value` lines (`#` starts a comment, blank lines are skipped) on top of `into`;
// a weight may be given once. On an error `into` is left as it was and the one-line error
// names `source`, the line, and the bad name or value.
[[nodiscard]] std::optional<std::string> parseTunables(std::string_view text,
                                                       std::string_view source, Tunables& into);

// The same from a file of at most kMaxTunablesBytes (the defaults for what it does not
// name; a file of every weight with its comment is about 7 KiB).
inline constexpr std::size_t kMaxTunablesBytes = 256 * 1024;
[[nodiscard]] std::optional<std::string> loadTunables(const std::string& path, Tunables& into);

// Every weight of `t` as `name value` lines, each with its meaning, range and default in a
// comment: what parseTunables() reads back to the same values.
[[nodiscard]] std::string formatTunables(const Tunables& t);

// Writes `header` (comment lines, each ending in a newline) and formatTunables(t) to the file
// at `path`, replacing it; the one-line error when it cannot.
[[nodiscard]] std::optional<std::string> saveTunables(const std::string& path, const Tunables& t,
                                                      std::string_view header = {});

// The name of a ruleset's evaluation weight `base` (one of kEvalWeightNames): `base` itself
// where Tunables::base serves, else prefixed, "holochessCalibration",
// "classicExposure", ...
[[nodiscard]] std::string evalWeightName(std::string_view base, Ruleset ruleset);

}  // namespace dejarik::eval
