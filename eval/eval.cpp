#include "eval/eval.h"

#include "eval/placement.h"
#include "eval/terms.h"

namespace dejarik::eval {

namespace {

[[nodiscard]] double valueOf(const Position& pos, Memo* memo) {
    if (!pos.isOver() && pos.phase() == Phase::Placement) return bestPlacement(pos, memo).value;
    return scoredValue(pos, memo);
}

}  // namespace

double evaluate(const Position& pos) {
    return valueOf(pos, nullptr);
}

double evaluate(const Position& pos, Memo& memo) {
    return valueOf(pos, &memo);
}

}  // namespace dejarik::eval
