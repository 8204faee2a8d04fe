// The attrition model (eval/attrition.h) applied to the pieces on the board: player 1's win
// chance and what each piece is worth to its owner, read from the attrition table for
// standard armies or solved for custom ones, through the memo when there is one.
#pragma once

#include <array>

#include "attrition.h"
#include "memo.h"
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

// The material of `army` under `rules`, solved or read from the tables, and remembered in
// the memo when there is one; `slopeFloor` bounds W (1 - W) in the slope, and must be the
// memo's (the ruleset's EvalWeights::slopeFloor of memo->tunables()).
void readMaterialAfresh(const Rules& rules, const Army& army, double slopeFloor, Memo* memo,
                        Material& out);

// The same, first from what the memo remembers of a standard army: what nearly every call of
// a search finds there, inline.
inline void readMaterial(const Rules& rules, const Army& army, double slopeFloor, Memo* memo,
                         Material& out) {
    if (memo && army.unique) {
        const ArmyMaterial& a = memo->army(army.code);
        if (a.code == army.code && a.table == &AttritionTable::of(rules) &&
            a.slopeFloor == slopeFloor) {
            out.win = a.win;
            out.logitWin = a.logitWin;
            out.slope = a.slope;
            for (const Player p : {Player::One, Player::Two})
                for (const Cell c : army.pieces[index(p)])
                    out.worth[c.index()] = a.worth[index(p) * kCreatureCount +
                                                   static_cast<int>(army.creature[c.index()])];
            return;
        }
    }
    readMaterialAfresh(rules, army, slopeFloor, memo, out);
}

}  // namespace dejarik::eval
