// Star1's arithmetic at a chance node (Ballard's *-minimax), apart from the tree walk so
// that its rounding can be tested on numbers a search rarely meets.
//
// Each outcome's value lies in [lo, hi]; the node's value lies between the probability-
// weighted sums of the bounds. Outcome i is searched with the window that decides the
// node: at or below `a` the node fails low whatever the others turn out to be, at or above
// `b` it fails high.
#pragma once

#include <algorithm>

namespace dejarik::search::star {

struct Window {
    double othersLo;  // the other outcomes' weighted lower bounds, summed
    double othersHi;  // and their upper bounds
    double a;         // at or below: the node fails low
    double b;         // at or above: the node fails high
};

// The window of an outcome of probability p whose bounds are [lo, hi], in a node whose
// weighted bounds sum to [sumLo, sumHi], searched with (alpha, beta).
[[nodiscard]] constexpr Window window(double p, double lo, double hi, double sumLo, double sumHi,
                                      double alpha, double beta) {
    const double othersLo = sumLo - p * lo, othersHi = sumHi - p * hi;
    return Window{othersLo, othersHi, (alpha - othersHi) / p, (beta - othersLo) / p};
}

// The node's value when the outcome's value v failed low (v <= w.a): an upper bound, fail-
// soft, but never above alpha. With v on the edge, p * v + othersHi rounds above alpha in a
// few cases in a hundred; the parent would then take the bound for the node's value and
// the table would store it as exact. Held at alpha it stays what it is: the node's value is
// at most alpha (to the rounding of w.a itself), and the table stores an upper bound.
[[nodiscard]] constexpr double failLow(const Window& w, double p, double v, double alpha) {
    return std::min(p * v + w.othersHi, alpha);
}

// The node's value when the outcome's value v failed high (v >= w.b): a lower bound, never
// below beta, for the same reason.
[[nodiscard]] constexpr double failHigh(const Window& w, double p, double v, double beta) {
    return std::max(p * v + w.othersLo, beta);
}

}  // namespace dejarik::search::star
