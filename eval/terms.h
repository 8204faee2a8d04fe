// The terms of the evaluation of one position (docs/eval.md, "The terms"), each in logits
// of a win chance and for each player, and what explain() prints beside them.
#pragma once

#include <array>

#include "eval/eval.h"
#include "eval/memo.h"
#include "eval/tunables.h"
#include "position.h"

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
    std::array<std::array<double, 2>, kTermCount> term{};  // by term, by player
    Details details;

    // Player 1's raw score: the sum of the terms' differences, in term order.
    [[nodiscard]] double raw() const {
        double r = 0;
        for (const auto& t : term)
            r += t[0] - t[1];
        return r;
    }
};

// The scores of a position that is over, at a decision, or with an outcome due, every term
// of a game not over scaled by the calibration. A placement is scored here only for its
// draw share (wdl): as the decision after it.
void scoreAt(const Position& pos, Scores& s, const Tunables& tunables, Memo* memo = nullptr);

// The value of a position that is over, at a decision, or with an outcome due: tanh of the
// raw score of scoreAt()'s terms. explain() shows those terms and this sum, so that its value
// is this one to the bit whatever the weights (the calibration scales each term, never the
// sum).
[[nodiscard]] double scoredValue(const Position& pos, const Tunables& tunables,
                                 Memo* memo = nullptr);

}  // namespace dejarik::eval
