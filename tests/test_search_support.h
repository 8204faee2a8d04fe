// Helpers the search suites share (single- and multi-threaded).
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>

#include "position.h"
#include "search.h"

namespace dejarik::testing {

inline search::Limits depthLimit(int depth) {
    search::Limits l;
    l.depth = depth;
    return l;
}

// A value of player 1's view seen by the player who decides in `pos`.
inline double deciderView(const Position& pos, double player1Value) {
    return pos.decider() == Player::One ? player1Value : -player1Value;
}

struct NodeCounts {
    std::uint64_t plain = 0, pruned = 0;
};

// The pruned search's value at `depth` must be plain expectiminimax's; both searches' nodes
// are added to `nodes`.
inline void checkPrunedEqualsPlain(const Position& pos, int depth, NodeCounts& nodes) {
    std::uint64_t a = 0, b = 0;
    const double plain = search::expectiminimax(pos, depth, a);
    const double pruned = search::prunedValue(pos, depth, b);
    CAPTURE(pos.dfen());
    CAPTURE(depth);
    CHECK(std::abs(pruned - plain) <= 1e-9);
    nodes.plain += a;
    nodes.pruned += b;
}

}  // namespace dejarik::testing
