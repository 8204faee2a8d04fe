// The evaluator of Courtier (RULES §14), which evaluate(), explain() and wdl() hand Courtier
// positions to (docs/eval.md, "Courtier"). Its terms, for each player, in logits of a win:
//   material     Guards on the board (the King counts in King safety)
//   king safety  lines through the King that an enemy could close, and closing steps in
//                reach; a King with a friend beside it on the outer orbit cannot be taken
//   centre       pieces on a and on orbit B, where they reach the most lines
//   threats      custodian captures in reach: the player on turn takes one of them now,
//                the other must parry
//   mobility     legal steps
// scaled down as the quiet draw comes near.
#pragma once

#include <array>

#include "explain.h"
#include "position.h"

namespace dejarik::eval::courtier {

// Player 1's expected result, strictly inside (-1, 1), of a Courtier position not over.
[[nodiscard]] double evaluate(const Position& pos);

// Its terms; `value` is evaluate(pos) to the bit.
[[nodiscard]] Breakdown explain(const Position& pos);

// Win / draw / loss per mille for player 1 of an expected result `value`.
[[nodiscard]] std::array<int, 3> wdl(const Position& pos, double value);

}  // namespace dejarik::eval::courtier
