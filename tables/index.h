// Where a decision state lives in its table: the board up to the 24 symmetries, the side
// to move, the actions left and the CentreWin hold counters.
//
// Placements. The pieces of a set are numbered side A first, each side in Creature order;
// a placement is the tuple of their cells. Orbits::of(n) numbers the placements of n
// pieces up to the board's 24 symmetries (RULES §1: 12 rotations and their reflections,
// src/symmetry.h): 265,680 orbits of 5 pieces (Burnside: (6,375,600 + 6 * 120) / 24; the six
// reflections through cells fix five cells each), 12,680 of 4 ((303,600 + 6 * 120) / 24) and
// 590 of 3, against 6,375,600, 303,600 and 13,800 tuples. The lookup is two small tables rather
// than one of 25^4 entries (781 KB, a cache miss per probe): the first two cells give their pair's
// class (30 classes) and a symmetry that takes them to the class's representative pair;
// the same symmetry maps the other cells, and a table per class (25^(n-2) entries) names
// the orbit. Only the centre is fixed by every symmetry, so how many orbits put a given
// piece on `a` does not depend on the piece: Orbits::perCentrePiece().
//
// Holds (RULES §8.3, CentreWin N > 0). At a decision point at most one counter is
// non-zero, and only below N: a counter above 0 means its player held `a` at the end of
// their last turn and was not attacked since; the other player cannot have held `a` then,
// and when one player's counter goes up the other's is 0 (an enemy on `a` at the start of
// a turn can only leave it by an attack, which resets its counter). A non-zero counter of
// the player not on turn also means that player's piece still stands on `a` (the mover has
// not attacked, or the counter would be 0), and so does the mover's at the start of their
// turn (two actions left); only after the mover's first action may the mover's piece have
// left `a` with the counter still up. The layout indexes exactly those states:
//
//   holds 0/0:                       every orbit x side x actions
//   mover's counter k (1..N-1):      actions 2: the orbits with a mover's piece on a
//   other player's counter k:        the orbits with that player's piece on a, both actions
//   mover's counter k, actions 1:    every orbit (numbered last)
//
// The last kind is most of the hold states (any board: the piece may have left `a`) and
// files leave it out: such a state's every decision ends the turn, so its value is the best
// of its decisions' values, all read from stored states when it is probed. Under CentreWin
// 3 this stores 1.24 times the states of a set without holds instead of 2.24 times.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "board.h"
#include "material.h"
#include "position.h"
#include "symmetry.h"

namespace dejarik::tables {

class Orbits {
  public:
    // The orbits of n = 2..kMaxPieces pieces, each built once per process when first asked
    // for (those of five take ~40 MB and a second to build, which a program that never
    // meets a set of five does not pay).
    [[nodiscard]] static const Orbits& of(int pieces);

    [[nodiscard]] int pieces() const { return pieces_; }
    [[nodiscard]] std::uint32_t count() const { return static_cast<std::uint32_t>(reps_.size()); }
    // The orbit of a placement (piece i on cells[i], all different).
    [[nodiscard]] std::uint32_t orbit(const std::array<Cell, kMaxPieces>& cells) const {
        const Pair& p = pairs_[cells[0].index() * Cell::kCount + cells[1].index()];
        const auto& image = kImages[p.symmetry];
        std::uint32_t tail = p.pairClass;
        for (int i = 2; i < pieces_; ++i)
            tail = tail * Cell::kCount + static_cast<std::uint32_t>(image[cells[i].index()]);
        return tails_[tail];
    }
    // The orbit's representative: its tuple with the smallest packed number.
    [[nodiscard]] const std::array<Cell, kMaxPieces>& representative(std::uint32_t orbit) const {
        return reps_[orbit];
    }
    // The piece on `a` in this orbit, -1 for none.
    [[nodiscard]] int centrePiece(std::uint32_t orbit) const { return centrePiece_[orbit]; }
    // The orbit's rank among the orbits with the same piece on `a`.
    [[nodiscard]] std::uint32_t centreRank(std::uint32_t orbit) const { return centreRank_[orbit]; }
    [[nodiscard]] std::uint32_t perCentrePiece() const { return perCentre_; }
    // The orbit with piece j on `a` of the given rank.
    [[nodiscard]] std::uint32_t withCentrePiece(int j, std::uint32_t rank) const {
        return byCentre_[static_cast<std::size_t>(j) * perCentre_ + rank];
    }

    // The image of every cell under every board symmetry (Symmetry::fromIndex order).
    static constexpr std::array<std::array<std::uint8_t, Cell::kCount>, Symmetry::kCount> kImages =
        [] {
            std::array<std::array<std::uint8_t, Cell::kCount>, Symmetry::kCount> t{};
            for (int g = 0; g < Symmetry::kCount; ++g)
                for (int c = 0; c < Cell::kCount; ++c)
                    t[g][c] = static_cast<std::uint8_t>(
                        transform(Cell(c), Symmetry::fromIndex(g)).index());
            return t;
        }();

  private:
    explicit Orbits(int pieces);

    struct Pair {
        std::uint8_t pairClass = 0;
        std::uint8_t symmetry = 0;
    };

    int pieces_;
    std::array<Pair, Cell::kCount * Cell::kCount> pairs_{};
    std::vector<std::uint32_t> tails_;  // pair class, then the other cells in base 25
    std::vector<std::array<Cell, kMaxPieces>> reps_;
    std::vector<std::int8_t> centrePiece_;
    std::vector<std::uint32_t> centreRank_;
    std::vector<std::uint32_t> byCentre_;
    std::uint32_t perCentre_ = 0;
};

// A decision state in a table's terms: side 0 is side A.
struct StateKey {
    std::uint32_t orbit = 0;
    int side = 0;
    int actions = 2;
    std::uint32_t holdMover = 0;  // the hold counter of the side to move
    std::uint32_t holdOther = 0;

    bool operator==(const StateKey&) const = default;
};

// The state numbering of one table (see the file comment).
class Layout {
  public:
    Layout(int sideA, int sideB, int centreWin);

    // Every state the solver computes.
    [[nodiscard]] std::uint32_t size() const { return size_; }
    // The states a file stores: those below this index. The others (the mover's counter
    // up with one action left) are derived when probed, from the stored states one
    // action on.
    [[nodiscard]] std::uint32_t storedSize() const { return stored_; }
    [[nodiscard]] bool isStored(std::uint32_t index) const { return index < stored_; }
    [[nodiscard]] const Orbits& orbits() const { return *orbits_; }
    [[nodiscard]] int centreWin() const { return centreWin_; }
    // The index of a state; nothing for a state no play reaches (both counters up, a
    // counter at N or more, a counter without the piece on `a` it needs).
    [[nodiscard]] std::optional<std::uint32_t> index(const StateKey& key) const;
    [[nodiscard]] StateKey decode(std::uint32_t index) const;

  private:
    // The rank of `orbit` among the orbits with a piece of `side` on `a`, or nothing.
    [[nodiscard]] std::optional<std::uint32_t> centreRank(int side, std::uint32_t orbit) const;
    [[nodiscard]] std::uint32_t orbitOfCentreRank(int side, std::uint32_t rank) const;

    const Orbits* orbits_;
    std::array<int, 2> counts_;
    int centreWin_;
    std::uint32_t base_;                      // 4 * orbits: the states with both counters 0
    std::array<std::uint32_t, 2> sideBlock_;  // per mover side, one counter value
    std::uint32_t levelBlock_;                // both sides, one counter value
    std::uint32_t stored_;
    std::uint32_t size_;
};

// A decision position as its table sees it.
struct Placement {
    int slot = 0;          // Material::slot() of the set, in the orientation asked for
    bool swapped = false;  // player 1 is side B
    StateKey key;
};

// Which side of a set a position's player 1 is.
enum class Orientation : std::uint8_t {
    Canonical,  // the stored one (Material's file comment): player 1 may be side B
    AsGiven,    // player 1 is side A, as the solvers against a fixed player need
};

// The table and state of a decision point with 3 to kMaxPieces pieces in a game not over (a quiet
// draw aside: the tables ignore the quiet counter); nothing for any other position. Holds
// count only under CentreWin. The probe's hot path: no
// allocation, no Material built.
[[nodiscard]] std::optional<Placement> place(const Position& pos,
                                             Orientation orientation = Orientation::Canonical);

// The canonical material set of a position's pieces, at any phase; nothing unless it is a
// table set (3 to kMaxPieces creatures, both sides present).
[[nodiscard]] std::optional<Material> materialOf(const Position& pos);

// The table sets of at most `maxPieces` creatures a position needs: its own set, or with
// one creature more the sets one capture leads to (what a background generator makes ready
// before play gets there). Empty otherwise. Canonical, without repeats.
[[nodiscard]] std::vector<Material> setsFor(const Position& pos, int maxPieces = kDefaultMaxPieces);

// The DFEN of a state of the set, side A as player 1 (quiet 0, turn 1).
[[nodiscard]] std::string stateDfen(const Material& material, const Layout& layout,
                                    std::uint32_t index);

}  // namespace dejarik::tables
