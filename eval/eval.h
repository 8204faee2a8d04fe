// The handwritten evaluator: the one function through which search judges positions
// (docs/eval.md). The files of eval/, one concern each:
//   courtier_eval.*  the evaluator of Courtier, a game of its own (RULES §14)
//   fastmath.h   logits, ln and e^-x by table, tanh
//   attrition.*  the material model, its recurrence and its table
//   material.*   the model applied to the pieces on the board, through the memo
//   memo.h       what one thread's evaluations remember, and the weights they use
//   tunables.*   every weight, by name: defaults, ranges, reading and writing them
//   geometry.h   tables of where pieces move and attack
//   attack.h     the gain of one attack (also the search's ordering and the greedy player)
//   terms.*      the terms of one position
//   placement.*  positions at a placement: their best placement
//   explain.*    the breakdown of the terms, win/draw/loss
#pragma once

#include "explain.h"
#include "memo.h"
#include "position.h"
#include "tunables.h"

namespace dejarik::eval {

// The static value of a position that is not over, as the expected result for player 1:
// +1 a certain win, -1 a certain loss, 0 even or drawn. Always strictly inside (-1, 1), so
// that search can use [-1, 1] as the bounds of every value (Star1 needs them). Defined at
// every phase: decision, outcome due (the pending attack is valued by its odds) and
// placement due. Deterministic, no state, thread-safe.
[[nodiscard]] double evaluate(const Position& pos);

// The same with other weights than the compiled-in defaults (eval/tunables.h).
[[nodiscard]] double evaluate(const Position& pos, const Tunables& tunables);

// The same with the memo's weights, remembering what one thread's evaluations share
// (eval/memo.h); exactly evaluate(pos, memo.tunables()). One memo per thread.
[[nodiscard]] double evaluate(const Position& pos, Memo& memo);

// Contempt (docs/eval.md, "Contempt"): a draw is worth -contempt to `side` (+contempt to
// the other), for an engine that must win against weaker play. The value of a position not
// over moves by contempt times its draw share (the quiet clock's and the safe ring's, as
// wdl() counts them) times what the value leaves, 1 - |v|; a finished game by contempt
// times its draw chance. contempt in [0, 1): the value stays strictly inside (-1, 1).
struct Contempt {
    Player side = Player::One;
    double value = 0;
};
[[nodiscard]] double evaluate(const Position& pos, Memo& memo, Contempt contempt);
[[nodiscard]] double contemptOfOver(const Position& pos, Contempt contempt);

// The evaluator depends on the quiet counter only through min(actions left before the
// quiet draw, kQuietCap): the search tells table entries apart by that distance up to here.
inline constexpr int kQuietCap = 100;

// Actions before the quiet draw, at most kQuietCap (kQuietCap without the draw).
[[nodiscard]] int actionsToDraw(const Position& pos);

// The share of what a position holds beyond a draw that is left `left` actions before the
// quiet draw: 1 until the last `horizon` actions, then 1 - (1 - left / horizon)^2, 0 at the
// draw. The evaluator's terms fade so, and so does an Edge.
[[nodiscard]] constexpr double quietFade(int left, int horizon) {
    if (left >= horizon) return 1;
    const double far = 1.0 - static_cast<double>(left) / horizon;
    return 1.0 - far * far;
}

// Edge (docs/search.md, "Edge"): against an opponent it outplays, an engine turns even
// material into more than an even result, so that a lottery at even odds costs it what its
// play would have won. A value short of certain, v, becomes tanh(atanh(v) + logit x fade)
// seen from `side` (fade: quietFade; the edge is worth nothing once the draw comes). Finished
// games and certain values are not moved: the edge is play still to come.
struct Edge {
    Player side = Player::One;
    double logit = 0;
};
[[nodiscard]] double withEdge(double value, const Position& pos, Edge edge,
                              const Tunables& tunables);

// The material model behind evaluate() (docs/eval.md): player 1's chance to win a war of
// attrition between the pieces on the board, from the exact combat and showdown odds,
// computed afresh (evaluate() reads it from a table). 1 or 0 when a side has no pieces.
// Defined in eval/attrition.cpp.
[[nodiscard]] double attritionWin(const Position& pos);

}  // namespace dejarik::eval
