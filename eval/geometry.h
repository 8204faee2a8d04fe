// The board around the pieces, as the evaluator's mobility and attacks after a move read it:
// constexpr tables of where a piece can go, indexed by cell, movement and which of its
// neighbours are free.
#pragma once

#include <array>
#include <cstdint>

#include "board.h"
#include "rules.h"

namespace dejarik::eval {

// kBall[c][r]: the cells within r steps of c on the empty board.
inline constexpr std::array<std::array<Bitboard, 4>, Cell::kCount> kBall = [] {
    std::array<std::array<Bitboard, 4>, Cell::kCount> t{};
    for (int c = 0; c < Cell::kCount; ++c) {
        t[c][0] = Bitboard::of(Cell(c));
        for (int r = 1; r < 4; ++r)
            t[c][r] = t[c][r - 1] | board::neighbours(t[c][r - 1]);
    }
    return t;
}();

// The neighbours of a ring cell in a fixed order (ring before, ring after, the other ring,
// and for an inner cell the centre), so that which of them are free is a 3- or 4-bit index.
// An outer cell's fourth neighbour is bit 31, never set in a bitboard.
inline constexpr std::array<std::array<std::uint8_t, 4>, Cell::kCount> kNeighbourOrder = [] {
    std::array<std::array<std::uint8_t, 4>, Cell::kCount> t{};
    for (int i = 1; i < Cell::kCount; ++i) {
        const Cell c(i);
        const int ray = c.ray();
        const int before = (ray + 10) % 12 + 1, after = ray % 12 + 1;
        const bool inner = c.orbit() == Orbit::Inner;
        t[i][0] = static_cast<std::uint8_t>(inner ? Cell::inner(before).index()
                                                  : Cell::outer(before).index());
        t[i][1] = static_cast<std::uint8_t>(inner ? Cell::inner(after).index()
                                                  : Cell::outer(after).index());
        t[i][2] =
            static_cast<std::uint8_t>(inner ? Cell::outer(ray).index() : Cell::inner(ray).index());
        t[i][3] = inner ? 0 : 31;
    }
    return t;
}();

[[nodiscard]] constexpr int freePattern(int cell, std::uint32_t free) {
    const auto& n = kNeighbourOrder[cell];
    return static_cast<int>(((free >> n[0]) & 1u) | (((free >> n[1]) & 1u) << 1) |
                            (((free >> n[2]) & 1u) << 2) | (((free >> n[3]) & 1u) << 3));
}

// The same patterns for every cell at once: bit c of plane k is set when cell c's k-th
// neighbour (kNeighbourOrder) is empty. Made once per evaluation, read per piece by shifts
// alone.
struct FreePlanes {
    std::uint32_t before, after, across, centre;

    constexpr explicit FreePlanes(Bitboard empty) {
        const std::uint32_t e = empty.bits();
        before = board::ringNext(empty).bits();  // bit c: the cell before c is empty
        after = board::ringPrev(empty).bits();
        across =
            ((e & Bitboard::innerRing().bits()) << 12) | ((e & Bitboard::outerRing().bits()) >> 12);
        centre = (e & 1u) ? Bitboard::innerRing().bits() : 0u;
    }
    [[nodiscard]] constexpr int pattern(int cell) const {
        return static_cast<int>(((before >> cell) & 1u) | (((after >> cell) & 1u) << 1) |
                                (((across >> cell) & 1u) << 2) | (((centre >> cell) & 1u) << 3));
    }
};

// Patterns are ORs of single-cell patterns, so agreeing on every single empty cell is
// agreeing everywhere.
static_assert([] {
    for (int empty = 0; empty < Cell::kCount; ++empty) {
        const FreePlanes planes(Bitboard::of(Cell(empty)));
        for (int c = 1; c < Cell::kCount; ++c)
            if (planes.pattern(c) != freePattern(c, 1u << empty)) return false;
    }
    return true;
}());

// For a piece on a ring cell with movement m (1..3) and a pattern of free neighbours: the
// union of kBall[first][m - 1] (where one move can end, before removing occupied cells) and
// of kBall[first][m] (where an attack after that move can land) over the free first steps.
// The centre, with 12 neighbours, is done by hand.
struct MoveArea {
    Bitboard reach;
    Bitboard range;
};
inline constexpr auto kMoveArea = [] {
    std::array<std::array<std::array<MoveArea, 16>, 3>, Cell::kCount> t{};
    for (int c = 1; c < Cell::kCount; ++c)
        for (int m = 1; m <= 3; ++m)
            for (int pattern = 0; pattern < 16; ++pattern) {
                MoveArea area;
                for (int k = 0; k < 4; ++k) {
                    const int first = kNeighbourOrder[c][k];
                    if (first == 31 || !(pattern & (1 << k))) continue;
                    area.reach |= kBall[first][m - 1];
                    area.range |= kBall[first][m];
                }
                t[c][m - 1][pattern] = area;
            }
    return t;
}();

// Where a set of cells can attack under the rules' restrictions: the union of
// movegen::attackTargets over the set, for targets anywhere.
[[nodiscard]] inline Bitboard restrictedRange(Bitboard from, const Rules& rules) {
    if (rules.safeOuterOrbit()) from &= ~Bitboard::outerRing();
    Bitboard range = board::neighbours(from);
    if (rules.kingOfTheCentre())
        range = (range & Bitboard::centre()) |
                (from.has(Cell::centre()) ? Bitboard::innerRing() : Bitboard());
    if (rules.safeOuterOrbit()) range &= ~Bitboard::outerRing();
    return range;
}

}  // namespace dejarik::eval
