// Baseline players for measuring the engine (issue: arena): no search at all.
#pragma once

#include <cstdint>

#include "position.h"

namespace dejarik::search {

// A uniformly random legal decision of the position (decision or placement point).
[[nodiscard]] Event randomDecision(const Position& pos, std::uint64_t& rngState);

// The decision with the best immediate expected material gain for the deciding player
// (attacks by their exact outcome odds, placements by what they expose; in Courtier the
// pieces a step captures, a King capture above all), no look-ahead; ties broken by
// rngState.
[[nodiscard]] Event greedyDecision(const Position& pos, std::uint64_t& rngState);

}  // namespace dejarik::search
