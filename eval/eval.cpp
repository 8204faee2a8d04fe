#include "eval.h"

#include "courtier_eval.h"
#include "placement.h"
#include "terms.h"

namespace dejarik::eval {

namespace {

[[nodiscard]] double valueOf(const Position& pos, const Tunables& tunables, Memo* memo) {
    if (pos.rules().courtier()) return courtier::evaluate(pos);
    if (!pos.isOver() && pos.phase() == Phase::Placement)
        return bestPlacement(pos, tunables, memo).value;
    return scoredValue(pos, tunables, memo);
}

}  // namespace

double evaluate(const Position& pos) {
    return valueOf(pos, kDefaultTunables, nullptr);
}

double evaluate(const Position& pos, const Tunables& tunables) {
    return valueOf(pos, tunables, nullptr);
}

double evaluate(const Position& pos, Memo& memo) {
    return valueOf(pos, memo.tunables(), &memo);
}

}  // namespace dejarik::eval
