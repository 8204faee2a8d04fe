// Courtier (RULES §14): the second game on the Dejarik board. Guards and Kings step one cell
// a turn and capture by custodian sandwiches along the 42 lines of three cells. Its events
// and DFEN go through Position (rules().courtier() selects them); this header holds the
// geometry of the lines as precomputed bitboard masks and the capture rules, which the
// position, the evaluator and the tests share.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "board.h"
#include "rules.h"

namespace dejarik::courtier {

// The two kinds of piece take the first two creature slots, so that Piece, the board arrays
// and the Zobrist keys serve both games; Rules::letter() names them U and W.
inline constexpr Creature kGuard = Creature::Savrip;
inline constexpr Creature kKing = Creature::Monnok;

// RULES §14.3.
inline constexpr std::string_view kStartDfen = "./............/UUUWUUuuuwuu 1 1 0 1";

// A line of three cells (RULES §14.4); the middle is adjacent to both ends.
struct Line {
    Cell end1;
    Cell middle;
    Cell end2;
};

inline constexpr int kLineCount = 42;

inline constexpr std::array<Line, kLineCount> kLines = [] {
    std::array<Line, kLineCount> lines{};
    int n = 0;
    auto prev = [](int ray) { return (ray + 10) % 12 + 1; };
    auto next = [](int ray) { return ray % 12 + 1; };
    for (int i = 1; i <= 12; ++i)
        lines[n++] = {Cell::inner(prev(i)), Cell::inner(i), Cell::inner(next(i))};
    for (int i = 1; i <= 12; ++i)
        lines[n++] = {Cell::outer(prev(i)), Cell::outer(i), Cell::outer(next(i))};
    for (int i = 1; i <= 12; ++i)
        lines[n++] = {Cell::outer(i), Cell::inner(i), Cell::centre()};
    for (int i = 1; i <= 6; ++i)
        lines[n++] = {Cell::inner(i), Cell::centre(), Cell::inner(i + 6)};
    return lines;
}();

// For every cell t, the lines t ends: the middles as one mask, and for each middle the far
// end (a capture by a step onto t takes an enemy middle whose far end is a friend), plus
// the lines t is the middle of as masks of their two ends (a flank).
struct CellLines {
    Bitboard middles;
    std::array<Cell, Cell::kCount> farEnd{};  // indexed by the middle's cell
    std::array<Bitboard, 6> flanks{};         // the end pairs of the lines through t
    int flankCount = 0;
};

inline constexpr std::array<CellLines, Cell::kCount> kCellLines = [] {
    // Built in plain integers: g++ 12 rejects Bitboard's compound assignment in this
    // constant expression.
    std::array<std::uint32_t, Cell::kCount> middles{};
    std::array<CellLines, Cell::kCount> t{};
    for (const Line& l : kLines) {
        middles[l.end1.index()] |= 1u << l.middle.index();
        t[l.end1.index()].farEnd[l.middle.index()] = l.end2;
        middles[l.end2.index()] |= 1u << l.middle.index();
        t[l.end2.index()].farEnd[l.middle.index()] = l.end1;
        CellLines& m = t[l.middle.index()];
        m.flanks[m.flankCount++] = Bitboard((1u << l.end1.index()) | (1u << l.end2.index()));
    }
    for (int i = 0; i < Cell::kCount; ++i)
        t[i].middles = Bitboard(middles[i]);
    return t;
}();

// The enemies a piece stepping onto `to` sandwiches (RULES §14.6.1): `own` and `enemies` are
// the two sides' cells after the step (the mover on `to`, its start cell empty).
[[nodiscard]] constexpr Bitboard captureCandidates(Cell to, Bitboard own, Bitboard enemies) {
    const CellLines& lines = kCellLines[to.index()];
    Bitboard candidates;
    for (const Cell m : lines.middles& enemies)
        if (own.has(lines.farEnd[m.index()])) candidates |= Bitboard::of(m);
    return candidates;
}

// Whether the piece on `at` stands between two enemies on one line (RULES §14.7).
[[nodiscard]] constexpr bool flanked(Cell at, Bitboard enemies) {
    const CellLines& lines = kCellLines[at.index()];
    for (int i = 0; i < lines.flankCount; ++i)
        if ((lines.flanks[i] & enemies) == lines.flanks[i]) return true;
    return false;
}

}  // namespace dejarik::courtier
