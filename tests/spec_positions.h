// Positions of ../shared/spec/PERFT.md that many tests start from.
#pragma once

namespace dejarik::test {

// PERFT.md's "melee" (kelly): attacks, pushes, counter-pushes decided by player 2, pieces boxed in.
inline constexpr const char* kMelee = "S/Hk...mN....l/tG.........g 1 2 0 1";

}  // namespace dejarik::test
