// Helpers the search suites share (single- and multi-threaded).
#pragma once

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

}  // namespace dejarik::testing
