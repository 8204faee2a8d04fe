#include "movegen.h"

namespace dejarik::movegen {

namespace {

void extend(Cell start, Cell here, Cell previous, int stepsLeft, Bitboard visited, Bitboard empty,
            bool centreStraight, Bitboard& out) {
    if (stepsLeft == 0) {
        out |= Bitboard::of(here);
        return;
    }
    Bitboard next = board::adjacent(here) & empty & ~visited;
    if (centreStraight && here.isCentre() && here != start)
        next &= Bitboard::of(board::opposite(previous));
    for (const Cell n : next)
        extend(start, n, here, stepsLeft - 1, visited | Bitboard::of(n), empty, centreStraight,
               out);
}

}  // namespace

Bitboard destinationsReference(Cell from, int steps, Bitboard empty, bool centreStraight) {
    Bitboard out;
    if (steps <= 0) return out;
    extend(from, from, from, steps, Bitboard::of(from), empty, centreStraight, out);
    return out;
}

}  // namespace dejarik::movegen
