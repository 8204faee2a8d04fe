// Material sets of the endgame tables: which creatures each side has, up to five in all.
//
// A table holds one material set in its canonical orientation: side A is the side with
// more pieces, or of two equal counts the one whose sorted creature list comes first. The
// colour swap of a set ("N v sg" of "SG v n") is the same table, probed with the players
// exchanged, so only canonical sets are ever generated or stored.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules.h"

namespace dejarik::tables {

// The most creatures a table holds, and the most on one side of a set (in either
// orientation: a solution against a fixed player keeps player 1 as side A, 1 v 4 too).
inline constexpr int kMaxPieces = 5;
inline constexpr int kMaxSide = kMaxPieces - 1;
// The sets the engine makes and relies on by itself: TableGen's background generation and the
// exact endings against a baseline (EndingsAgainst, dejarik odds --exact, dejarik-arena
// endings). A set of five has 21 times the placements of a set of four (265,680 orbits
// against 12,680): seconds to solve where four take a tenth, and a solution against a baseline
// with its 80 quiet counters would take minutes and 340 MB. Sets of five serve where they have
// been generated (Tablebase::maxPieces).
inline constexpr int kDefaultMaxPieces = 4;

// A multiset of creatures of one side, sorted in Creature order (S M G H T N K L).
class Army {
  public:
    constexpr Army() = default;
    [[nodiscard]] static Army of(std::vector<Creature> creatures);
    // From creatures already in Creature order (at most kMaxPieces).
    [[nodiscard]] static constexpr Army fromSorted(const Creature* creatures, int n) {
        Army a;
        for (int i = 0; i < n; ++i)
            a.creatures_[i] = creatures[i];
        a.size_ = n;
        return a;
    }

    [[nodiscard]] constexpr int size() const { return size_; }
    [[nodiscard]] constexpr bool empty() const { return size_ == 0; }
    [[nodiscard]] constexpr Creature operator[](int i) const { return creatures_[i]; }
    // 0 for the empty army, then 1..494 for the sorted lists of 1..4 creatures, shorter
    // lists first and lexicographic among equals: a dense code for table slots (the codes
    // of up to three creatures are those of the tables of four, whose canonical orientation
    // they decide).
    [[nodiscard]] constexpr int code() const;
    // Upper-case letters ("SG"); "-" for the empty army.
    [[nodiscard]] std::string letters() const;
    [[nodiscard]] Army without(int i) const;
    [[nodiscard]] bool hasDuplicates() const;

    constexpr bool operator==(const Army&) const = default;

  private:
    std::array<Creature, kMaxPieces> creatures_{};
    int size_ = 0;
};

// The number of Army codes: the empty army and the 494 non-empty ones of up to 4.
inline constexpr int kArmyCodes = 495;

namespace detail {
// codeOf[size][packed] for packed = sorted creatures c0 <= c1 <= ... as c0 + 8 c1 + 64 c2 + ...
struct ArmyCodes {
    static constexpr int kPacked = 1 << (3 * kMaxSide);
    std::array<std::array<std::int16_t, kPacked>, kMaxSide + 1> codeOf{};
};
inline constexpr ArmyCodes kArmyCodeTable = [] {
    ArmyCodes t{};
    int next = 1;
    // Shorter lists first; within a length, lexicographic in creature order (c0 first),
    // that is in increasing order of the list read as c0 c1 c2 ... in base 8.
    for (int size = 1; size <= kMaxSide; ++size) {
        int lists = 1;
        for (int i = 0; i < size; ++i)
            lists *= kCreatureCount;
        for (int number = 0; number < lists; ++number) {
            std::array<int, kMaxSide> c{};
            int rest = number;
            for (int i = size - 1; i >= 0; --i, rest /= kCreatureCount)
                c[static_cast<std::size_t>(i)] = rest % kCreatureCount;
            bool sorted = true;
            for (int i = 1; i < size; ++i)
                sorted =
                    sorted && c[static_cast<std::size_t>(i - 1)] <= c[static_cast<std::size_t>(i)];
            if (!sorted) continue;
            int packed = 0;
            for (int i = size - 1; i >= 0; --i)
                packed = packed * 8 + c[static_cast<std::size_t>(i)];
            t.codeOf[static_cast<std::size_t>(size)][static_cast<std::size_t>(packed)] =
                static_cast<std::int16_t>(next++);
        }
    }
    return t;
}();
static_assert(kArmyCodeTable.codeOf[kMaxSide][ArmyCodes::kPacked - 1] == kArmyCodes - 1);
// The codes of the tables of four, unchanged: S is 1, L 8, SS 9, LLL 164.
static_assert(kArmyCodeTable.codeOf[1][0] == 1 && kArmyCodeTable.codeOf[1][7] == 8 &&
              kArmyCodeTable.codeOf[2][0] == 9 && kArmyCodeTable.codeOf[3][511] == 164);
}  // namespace detail

constexpr int Army::code() const {
    if (size_ == 0 || size_ > kMaxSide) return 0;
    int packed = 0;
    for (int i = size_ - 1; i >= 0; --i)
        packed = packed * 8 + static_cast<int>(creatures_[i]);
    return detail::kArmyCodeTable.codeOf[size_][packed];
}

// A material set: player 1's army against player 2's, or, in a table, side A against B.
struct Material {
    Army a;
    Army b;

    [[nodiscard]] int pieces() const { return a.size() + b.size(); }
    // Whether this orientation is the stored one (see the file comment).
    [[nodiscard]] bool isCanonical() const;
    // The stored orientation of this set, and whether the sides had to be swapped for it.
    [[nodiscard]] Material canonical() const;
    [[nodiscard]] Material swapped() const { return {b, a}; }
    // A set a table can hold: both sides non-empty (a bare side has lost), more than two
    // pieces in total (one against one is the showdown), at most kMaxPieces.
    [[nodiscard]] bool isTableSet() const;
    // Dense slot of a canonical table set in [0, kSlotCount).
    [[nodiscard]] int slot() const { return a.code() * kArmyCodes + b.code(); }
    static constexpr int kSlotCount = kArmyCodes * kArmyCodes;

    // "SG v n": player 1 / side A upper case, player 2 / side B lower case.
    [[nodiscard]] std::string name() const;
    // "SGvn": the name as a file name (unique per canonical set on case-insensitive file
    // systems too: two canonical sets never differ in case only).
    [[nodiscard]] std::string fileStem() const;

    // The table sets one piece fewer that a capture in this set can lead to (both sides
    // still non-empty, at least 3 pieces), each canonical, without repeats.
    [[nodiscard]] std::vector<Material> captures() const;

    bool operator==(const Material&) const = default;
};

// Parses "SG v n" (any letter case; side 1 before the "v"). The error names what is wrong.
[[nodiscard]] std::optional<Material> parseMaterial(std::string_view text, std::string* error);

// Every canonical table set of 3..maxPieces (at most kMaxPieces) distinct creatures (the
// sets standard deals reach: no creature twice on the board), fewer pieces first.
[[nodiscard]] std::vector<Material> distinctSets(int maxPieces);

// The set itself and every table set it can lead to by captures, fewer pieces first.
[[nodiscard]] std::vector<Material> withCaptures(const Material& m);

}  // namespace dejarik::tables
