// The handwritten evaluator: the one function through which search judges positions.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "position.h"

namespace dejarik::eval {

// The static value of a position that is not over, as the expected result for player 1:
// +1 a certain win, -1 a certain loss, 0 even or drawn. Always strictly inside (-1, 1), so
// that search can use [-1, 1] as the bounds of every value (Star1 needs them). Defined at
// every phase: decision, outcome due (the pending attack is valued by its odds) and
// placement due. Deterministic, no state, thread-safe.
[[nodiscard]] double evaluate(const Position& pos);

// What one thread's evaluations may remember between calls: the material model of custom
// armies (a creature on both sides, or twice on one side), which is otherwise solved afresh
// at every call, at a cost exponential in the pieces. evaluate(pos, memo) returns exactly
// evaluate(pos); the memo only saves the work. One memo per thread.
class Memo {
  public:
    Memo();
    ~Memo();
    Memo(const Memo&) = delete;
    Memo& operator=(const Memo&) = delete;

    struct Impl;
    [[nodiscard]] Impl& impl() { return *impl_; }

  private:
    std::unique_ptr<Impl> impl_;
};

[[nodiscard]] double evaluate(const Position& pos, Memo& memo);

// The evaluator depends on the quiet counter only through min(actions left before the
// quiet draw, kQuietCap): the search tells table entries apart by that distance up to here.
inline constexpr int kQuietCap = 100;

// Every term of a position not over is scaled by this. Arena games showed the terms about
// twice too confident (where the engine claimed +0.86 it scored +0.51), and halving them
// won +30 ± 21 Elo (SPRT H1 after 145 pairs, depth 3 against depth 3, kelly; docs/eval.md).
// Finished games keep their exact values.
inline constexpr double kCalibration = 0.5;

// One named term of the evaluation, as shown by the protocol's `eval` command.
struct Term {
    std::string name;
    double player1 = 0;  // the term's contribution for player 1, in the evaluator's raw units
    double player2 = 0;  // the same for player 2
    std::string note;    // optional detail ("3 threats", "hold 2/3")
};

// Every term, plus the final value; the terms explain exactly how evaluate() is made.
struct Breakdown {
    std::vector<Term> terms;
    double raw = 0;    // player 1's raw score (the sum of the terms' differences)
    double value = 0;  // evaluate(pos)
};
[[nodiscard]] Breakdown explain(const Position& pos);

// Win / draw / loss chances per mille for player 1 matching an expected result `value`
// (W - L = round(1000 * value), W + D + L = 1000), with the draw share estimated from the
// position (material, quiet counter near the draw).
[[nodiscard]] std::array<int, 3> wdl(const Position& pos, double value);

// The material model behind evaluate() (docs/eval.md): player 1's chance to win a war of
// attrition between the pieces on the board, from the exact combat and showdown odds,
// computed afresh (evaluate() reads it from a table). 1 or 0 when a side has no pieces.
[[nodiscard]] double attritionWin(const Position& pos);

}  // namespace dejarik::eval
