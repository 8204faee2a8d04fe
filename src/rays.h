// Rays of Death (docs/rules.md "Rays of Death"): the roll of the combat cell and the attack
// restriction it sets. Activation marks and rounds live in Position.
#pragma once

#include <cstdint>

#include "board.h"

namespace dejarik::rays {

// A D4 and a D12: 48 equally likely pairs. D4 1 or 4: the centre (the D12 does not matter),
// 2: b<D12>, 3: c<D12>.
inline constexpr int kRollPairs = 48;
// Every cell is a roll outcome.
inline constexpr int kRollOutcomes = Cell::kCount;

// The (D4, D12) pairs, out of kRollPairs, that roll `c`.
[[nodiscard]] constexpr int rollCount(Cell c) {
    return c.isCentre() ? 24 : 1;
}

// The cell a (D4, D12) pair rolls; d4 in 1..4, d12 in 1..12.
[[nodiscard]] constexpr Cell rollCell(int d4, int d12) {
    if (d4 == 2) return Cell::inner(d12);
    if (d4 == 3) return Cell::outer(d12);
    return Cell::centre();
}

[[nodiscard]] constexpr bool rollCountsSumToPairs() {
    int sum = 0;
    for (int i = 0; i < Cell::kCount; ++i)
        sum += rollCount(Cell(i));
    int pairs[Cell::kCount] = {};
    for (int d4 = 1; d4 <= 4; ++d4)
        for (int d12 = 1; d12 <= 12; ++d12)
            ++pairs[rollCell(d4, d12).index()];
    for (int i = 0; i < Cell::kCount; ++i)
        if (pairs[i] != rollCount(Cell(i))) return false;
    return sum == kRollPairs;
}
static_assert(rollCountsSumToPairs(), "the roll's counts are the dice's pairs");

[[nodiscard]] constexpr double rollProbability(Cell c) {
    return static_cast<double>(rollCount(c)) / kRollPairs;
}

// No combat cell: before the first roll.
inline constexpr std::uint8_t kNoCombat = 0xFF;

// The targets an attack from `from` may still take while `combat` is set: every one when
// the attacker stands on it, else the combat cell alone ("into or out of").
[[nodiscard]] constexpr Bitboard allowedTargets(Cell from, std::uint8_t combat) {
    if (combat == kNoCombat || from.index() == combat) return Bitboard::all();
    return Bitboard::of(Cell(combat));
}

}  // namespace dejarik::rays
