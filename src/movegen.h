// Move and attack sets of single pieces (RULES §5, §6).
#pragma once

#include <optional>

#include "board.h"
#include "rules.h"

namespace dejarik::movegen {

// The cell a path must leave the centre to after entering it from `from` under
// CentreStraight; any inner cell otherwise.
[[nodiscard]] constexpr Bitboard centreExits(Cell enteredFrom, bool centreStraight) {
    return centreStraight ? Bitboard::of(board::opposite(enteredFrom)) : Bitboard::innerRing();
}

// Neighbours of every cell in s, where each path reached the centre (if s holds it) from
// `enteredFrom`, an inner cell.
// Forced inline here and below: clang 14 left both out of line in move counting, which cost
// perft 10%.
[[nodiscard, gnu::always_inline]] constexpr Bitboard nextSteps(Bitboard s, Cell enteredFrom,
                                                               bool centreStraight) {
    if (!centreStraight || !s.has(Cell::centre())) return board::neighbours(s);
    return board::neighbours(s ^ Bitboard::centre()) | centreExits(enteredFrom, true);
}

// The destinations by depth-first search over every simple path, for any number of steps:
// the general case, and the reference that tests hold the fast path to.
[[nodiscard]] Bitboard destinationsReference(Cell from, int steps, Bitboard empty,
                                             bool centreStraight);

// The cells of one simple path of exactly `steps` steps from `from` over `empty` cells (the
// start excluded), if there is one: a piece is left without that move only when one of them
// is taken.
[[nodiscard]] std::optional<Bitboard> anyPath(Cell from, int steps, Bitboard empty,
                                              bool centreStraight);

// Destinations of the simple paths of exactly `steps` steps from `from` over `empty` cells
// (`from` itself must not be in `empty`). Bit-parallel for up to 3 steps, the most any
// creature moves: loops only over the first step so that the third step can exclude it.
[[nodiscard, gnu::always_inline]] inline Bitboard destinations(Cell from, int steps, Bitboard empty,
                                                               bool centreStraight) {
    if (steps <= 0) return Bitboard();
    if (steps > 3) return destinationsReference(from, steps, empty, centreStraight);
    const Bitboard first = board::adjacent(from) & empty;
    if (steps == 1) return first;
    if (steps == 2) return nextSteps(first, from, centreStraight) & empty;
    Bitboard result;
    for (const Cell x : first) {
        // x -> y: leaving the centre is restricted when the path entered it from `from`.
        const Bitboard second = (x.isCentre() && centreStraight && !from.isCentre())
                                    ? centreExits(from, true) & empty
                                    : board::adjacent(x) & empty;
        // y -> z: z may not be x again; a y on the centre was entered from x.
        result |= nextSteps(second, x, centreStraight) & empty & ~Bitboard::of(x);
    }
    return result;
}

// Enemy cells the piece on `from` may attack, with the attack restrictions of `rules`.
[[nodiscard]] inline Bitboard attackTargets(Cell from, Bitboard enemies, const Rules& rules) {
    Bitboard targets = board::adjacent(from) & enemies;
    if (rules.safeOuterOrbit()) {
        if (from.isOuter()) return Bitboard();
        targets &= ~Bitboard::outerRing();
    }
    if (rules.kingOfTheCentre() && !from.isCentre()) targets &= Bitboard::centre();
    return targets;
}

}  // namespace dejarik::movegen
