#include "eval.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "courtier_eval.h"
#include "fastmath.h"
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

double evaluate(const Position& pos, Memo& memo, Contempt contempt) {
    if (pos.isOver()) return contemptOfOver(pos, contempt);
    // A placement is never a leaf of the search (outcomes and placements spend no depth).
    if (pos.phase() == Phase::Placement) return evaluate(pos, memo);
    Scores s;
    scoreAt(pos, s, memo.tunables(), &memo);
    const double value = squash(s.raw());
    const double draw = 1.0 - notQuietNorHidden(s.details, value, memo.tunables());
    const double sign = perspective(contempt.side);
    return value - sign * contempt.value * draw * (1.0 - std::abs(value));
}

double contemptOfOver(const Position& pos, Contempt contempt) {
    const double w1 = pos.winProbability(Player::One), w2 = pos.winProbability(Player::Two);
    const double sign = perspective(contempt.side);
    return w1 - w2 - sign * contempt.value * (1.0 - w1 - w2);
}

int actionsToDraw(const Position& pos) {
    const int drawTurns = pos.rules().drawTurns();
    if (drawTurns <= 0) return kQuietCap;
    const auto limit = 2 * static_cast<std::int64_t>(drawTurns);
    return static_cast<int>(
        std::clamp<std::int64_t>(limit - static_cast<std::int64_t>(pos.quiet()), 0, kQuietCap));
}

double withEdge(double value, const Position& pos, Edge edge, const Tunables& tunables) {
    if (edge.logit == 0 || pos.isOver() || std::abs(value) >= 1) return value;
    // Beyond +-kMaxLogit tanh rounds to +-1 in doubles, and the value must stay inside.
    constexpr double kMaxLogit = 15;
    const double shift =
        perspective(edge.side) * edge.logit * quietFade(actionsToDraw(pos), tunables.quietHorizon);
    return std::tanh(std::clamp(std::atanh(value) + shift, -kMaxLogit, kMaxLogit));
}

}  // namespace dejarik::eval
