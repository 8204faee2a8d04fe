// Interim material-only evaluator; the full evaluator replaces it.
#include "eval/eval.h"

#include <cmath>

namespace dejarik::eval {

namespace {

double material(const Position& pos, Player p) {
    double m = 0;
    for (const Cell c : pos.pieces(p)) {
        const Ratings& r = pos.rules().ratings(pos.at(c).creature());
        m += 1.0 + 0.1 * (r.attack + r.defence) + 0.05 * r.movement;
    }
    return m;
}

}  // namespace

double evaluate(const Position& pos) {
    return 0.98 * std::tanh(0.5 * (material(pos, Player::One) - material(pos, Player::Two)));
}

Breakdown explain(const Position& pos) {
    Breakdown b;
    b.terms.push_back({"material", material(pos, Player::One), material(pos, Player::Two), ""});
    b.raw = b.terms[0].player1 - b.terms[0].player2;
    b.value = evaluate(pos);
    return b;
}

std::array<int, 3> wdl(const Position&, double value) {
    const int v = static_cast<int>(std::lround(1000 * value));
    const int draw = 0;
    const int win = (1000 - draw + v) / 2;
    return {win, draw, 1000 - draw - win};
}

}  // namespace dejarik::eval
