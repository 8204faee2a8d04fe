// The attacks of a set's game as its solvers keep them (solver.h, policy.h): what comes of
// an attack, split into the outcomes that leave the set (a constant) and those that stay.
#pragma once

#include <cstdint>
#include <limits>

namespace dejarik::tables {

// One chance outcome of an attack that stays in the set: the states after its placement
// (children[first .. first + count) of the solver), or the single state after a blocked
// push that removes nothing. `maximiser` says how the placer chooses among them; `fixed` is
// what the placements that end the game are worth (NaN: none; how it combines with the
// states' values is the solver's).
struct OutcomeGroup {
    double probability = 0;
    double fixed = std::numeric_limits<double>::quiet_NaN();
    std::uint32_t first = 0;
    std::uint32_t count = 0;
    bool maximiser = true;
};

// An attack's outcomes: those that leave the set (kills and counter-kills to smaller sets,
// finished games) as one probability-weighted constant, and groups[firstGroup ..
// firstGroup + groups) for those that stay.
struct AttackOutcomes {
    double constant = 0;
    std::uint32_t firstGroup = 0;
    std::uint32_t groups = 0;
};

}  // namespace dejarik::tables
