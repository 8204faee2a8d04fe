// The terms of the evaluation of one position (docs/eval.md, "The terms"), each in logits
// of a win chance and for each player, and what explain() prints beside them.
#pragma once

#include <array>

#include "eval.h"
#include "memo.h"
#include "position.h"
#include "tunables.h"

namespace dejarik::eval {

enum TermId : int {
    kMaterial,
    kPending,
    kThreats,
    kExposureTerm,
    kMobility,
    kCentreTerm,
    kSafeRingTerm,
    kHold,
    kDrawClock,
    kTermCount
};
inline constexpr std::array<const char*, kTermCount> kTermNames = {
    "material", "pending attack", "threats", "exposure",  "mobility",
    "centre",   "safe ring",      "hold",    "draw clock"};

// What explain() and wdl() read beside the terms.
struct Details {
    int n1 = 0, n2 = 0;
    double win = 0.5;  // attrition win chance of player 1
    std::array<int, 2> attacks{};
    std::array<int, 2> cells{};
    double quietScale = 1;
    int actionsToDraw = kQuietCap;
    bool holdWin = false;
    std::array<double, 2> hide{};
};

struct Scores {
    std::array<std::array<double, 2>, kTermCount> term{};  // by term, by player; uncalibrated
    double calibration = 1;  // what every term is worth in the value: 1 for a game over
    Details details;

    // A term as it counts in the value: calibrated.
    [[nodiscard]] double counted(int t, Player p) const { return calibration * term[t][index(p)]; }
    // Player 1's raw score: the sum of the counted terms' differences, in term order. The
    // one place the value's sum is made: explain() shows counted() and this, so that its
    // value is evaluate()'s to the bit, whatever the calibration. (Scaling the terms where
    // they are summed, not in a pass of their own, keeps the search's evaluations from
    // reloading what was just stored.)
    [[nodiscard]] double raw() const {
        double r = 0;
        for (int t = 0; t < kTermCount; ++t)
            r += counted(t, Player::One) - counted(t, Player::Two);
        return r;
    }
};

// The share of the value's room (1 - |value|) that escapes a draw by the quiet clock running
// out and by the side behind hiding on a safe outer ring: the first two of wdl()'s three
// ways to a draw, which the terms have already measured.
[[nodiscard]] inline double notQuietNorHidden(const Details& d, double value,
                                              const Tunables& tunables) {
    const double quiet = 1.0 - d.quietScale;
    const Player behind = value >= 0 ? Player::Two : Player::One;
    const double hide = tunables.drawByHiding * d.hide[index(behind)];
    return (1.0 - quiet) * (1.0 - hide);
}

// The scores of a position that is over, at a decision, or with an outcome due; a game not
// over has the tunables' calibration. A placement is scored here only for its draw share
// (wdl): as the decision after it.
void scoreAt(const Position& pos, Scores& s, const Tunables& tunables, Memo* memo = nullptr);

// The value of a position that is over, at a decision, or with an outcome due: tanh of the
// raw score of scoreAt()'s terms.
[[nodiscard]] double scoredValue(const Position& pos, const Tunables& tunables,
                                 Memo* memo = nullptr);

}  // namespace dejarik::eval
