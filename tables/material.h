// Material sets of the endgame tables: which creatures each side has, up to four in all.
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

// The most creatures a table holds, and the most on one side of a table.
inline constexpr int kMaxPieces = 4;
inline constexpr int kMaxSide = kMaxPieces - 1;

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
    // 0 for the empty army, then 1..164 for the sorted lists of 1..3 creatures, shorter
    // lists first and lexicographic among equals: a dense code for table slots.
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

// The number of Army codes: the empty army and the 164 non-empty ones of up to 3.
inline constexpr int kArmyCodes = 165;

namespace detail {
// codeOf[size][packed] for packed = sorted creatures c0 <= c1 <= c2 as c0 + 8 c1 + 64 c2.
struct ArmyCodes {
    std::array<std::array<std::int16_t, 512>, kMaxSide + 1> codeOf{};
};
inline constexpr ArmyCodes kArmyCodeTable = [] {
    ArmyCodes t{};
    int next = 1;
    // Shorter lists first; within a length, lexicographic in creature order.
    for (int c0 = 0; c0 < kCreatureCount; ++c0)
        t.codeOf[1][c0] = static_cast<std::int16_t>(next++);
    for (int c0 = 0; c0 < kCreatureCount; ++c0)
        for (int c1 = c0; c1 < kCreatureCount; ++c1)
            t.codeOf[2][c0 + 8 * c1] = static_cast<std::int16_t>(next++);
    for (int c0 = 0; c0 < kCreatureCount; ++c0)
        for (int c1 = c0; c1 < kCreatureCount; ++c1)
            for (int c2 = c1; c2 < kCreatureCount; ++c2)
                t.codeOf[3][c0 + 8 * c1 + 64 * c2] = static_cast<std::int16_t>(next++);
    return t;
}();
static_assert(kArmyCodeTable.codeOf[3][7 + 8 * 7 + 64 * 7] == kArmyCodes - 1);
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
    // A set a table can hold: both sides non-empty (a bare side has lost), more than one
    // piece each in total (one against one is the showdown), at most kMaxPieces.
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

// Every canonical table set of 3..maxPieces distinct creatures (the sets standard deals
// reach: no creature twice on the board), fewer pieces first.
[[nodiscard]] std::vector<Material> distinctSets(int maxPieces);

// The set itself and every table set it can lead to by captures, fewer pieces first.
[[nodiscard]] std::vector<Material> withCaptures(const Material& m);

}  // namespace dejarik::tables
