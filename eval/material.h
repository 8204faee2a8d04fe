// The attrition model (eval/attrition.h) applied to the pieces on the board: player 1's win
// chance and what each piece is worth to its owner, read from the attrition table for
// standard armies or solved for custom ones, through the memo when there is one.
#pragma once

#include <array>

#include "eval/memo.h"
#include "position.h"

namespace dejarik::eval {

// The pieces on the board as the evaluator gathered them.
struct Army {
    std::array<Bitboard, 2> pieces;                      // by player
    const std::array<Creature, Cell::kCount>& creature;  // by cell, for occupied cells
    int code = 0;        // the AttritionTable code (eval/attrition.h), when unique
    bool unique = true;  // each creature at most once on the board
};

struct Material {
    double win = 0.5;     // player 1's attrition win chance
    double logitWin = 0;  // its logit
    // The logit's slope at `win`, 1 / (2 W (1 - W)), at most 1 / (2 slopeFloor): gains of
    // the win chance become logits through it (W far from 1/2 is a decided game).
    double slope = 2;
    // What losing the piece costs its owner, in W; by cell, set for occupied cells only.
    std::array<double, Cell::kCount> worth;
};

// The material of `army` under `rules`; `slopeFloor` bounds W (1 - W) in the slope, and
// must be the memo's (Tunables::slopeFloor of memo->tunables()).
void readMaterial(const Rules& rules, const Army& army, double slopeFloor, Memo* memo,
                  Material& out);

}  // namespace dejarik::eval
