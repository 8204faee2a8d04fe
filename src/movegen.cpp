#include "movegen.h"

namespace dejarik::movegen {

namespace {

// Every simple path of `stepsLeft` more steps from `here`; `visited` holds the start and the
// path's cells so far. Stops, returning true, as soon as `found(visited)` does at a path's end.
template <class Found>
bool walk(Cell start, Cell here, Cell previous, int stepsLeft, Bitboard visited, Bitboard empty,
          bool centreStraight, const Found& found) {
    if (stepsLeft == 0) return found(here, visited);
    Bitboard next = board::adjacent(here) & empty & ~visited;
    if (centreStraight && here.isCentre() && here != start)
        next &= Bitboard::of(board::opposite(previous));
    for (const Cell n : next)
        if (walk(start, n, here, stepsLeft - 1, visited | Bitboard::of(n), empty, centreStraight,
                 found))
            return true;
    return false;
}

}  // namespace

Bitboard destinationsReference(Cell from, int steps, Bitboard empty, bool centreStraight) {
    Bitboard out;
    if (steps <= 0) return out;
    walk(from, from, from, steps, Bitboard::of(from), empty, centreStraight,
         [&out](Cell end, Bitboard) {
             out |= Bitboard::of(end);
             return false;
         });
    return out;
}

std::optional<Bitboard> anyPath(Cell from, int steps, Bitboard empty, bool centreStraight) {
    std::optional<Bitboard> path;
    if (steps <= 0) return path;
    walk(from, from, from, steps, Bitboard::of(from), empty, centreStraight,
         [&](Cell, Bitboard visited) {
             path = visited & ~Bitboard::of(from);
             return true;
         });
    return path;
}

}  // namespace dejarik::movegen
