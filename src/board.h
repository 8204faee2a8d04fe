// Board geometry: cells, the 32-bit bitboard and the adjacency of the 25 cells.
//
// Bit layout (RULES §1): a = 0, b1..b12 = 1..12, c1..c12 = 13..24. Keeping each ring in
// a contiguous 12-bit field lets neighbour sets of whole bitboards be computed with a few
// shifts instead of table loops, which is what makes move generation cheap.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dejarik {

enum class Orbit : std::uint8_t { Centre, Inner, Outer };

class Cell {
  public:
    static constexpr int kCount = 25;

    constexpr Cell() = default;
    explicit constexpr Cell(int index) : index_(static_cast<std::uint8_t>(index)) {}

    [[nodiscard]] static constexpr Cell centre() { return Cell(0); }
    // ray is 1..12, as in the cell names.
    [[nodiscard]] static constexpr Cell inner(int ray) { return Cell(ray); }
    [[nodiscard]] static constexpr Cell outer(int ray) { return Cell(12 + ray); }

    [[nodiscard]] constexpr int index() const { return index_; }
    [[nodiscard]] constexpr Orbit orbit() const {
        return index_ == 0 ? Orbit::Centre : index_ <= 12 ? Orbit::Inner : Orbit::Outer;
    }
    // 1..12 for ring cells, 0 for the centre.
    [[nodiscard]] constexpr int ray() const { return index_ <= 12 ? index_ : index_ - 12; }
    [[nodiscard]] constexpr bool isCentre() const { return index_ == 0; }
    [[nodiscard]] constexpr bool isOuter() const { return index_ > 12; }

    constexpr bool operator==(const Cell&) const = default;

    [[nodiscard]] std::string name() const;
    // Case-insensitive: "a", "b1".."b12", "c1".."c12".
    [[nodiscard]] static std::optional<Cell> parse(std::string_view text);

  private:
    std::uint8_t index_ = 0;
};

class Bitboard {
  public:
    static constexpr std::uint32_t kAllBits = (1u << Cell::kCount) - 1;

    constexpr Bitboard() = default;
    explicit constexpr Bitboard(std::uint32_t bits) : bits_(bits) {}
    [[nodiscard]] static constexpr Bitboard of(Cell c) { return Bitboard(1u << c.index()); }
    [[nodiscard]] static constexpr Bitboard all() { return Bitboard(kAllBits); }
    [[nodiscard]] static constexpr Bitboard centre() { return Bitboard(1u); }
    [[nodiscard]] static constexpr Bitboard innerRing() { return Bitboard(0xFFFu << 1); }
    [[nodiscard]] static constexpr Bitboard outerRing() { return Bitboard(0xFFFu << 13); }

    [[nodiscard]] constexpr std::uint32_t bits() const { return bits_; }
    [[nodiscard]] constexpr bool empty() const { return bits_ == 0; }
    [[nodiscard]] constexpr bool any() const { return bits_ != 0; }
    [[nodiscard]] constexpr int count() const { return std::popcount(bits_); }
    [[nodiscard]] constexpr bool has(Cell c) const { return (bits_ >> c.index()) & 1u; }
    [[nodiscard]] constexpr Cell first() const { return Cell(std::countr_zero(bits_)); }
    constexpr Cell popFirst() {
        const Cell c = first();
        bits_ &= bits_ - 1;
        return c;
    }

    constexpr Bitboard operator|(Bitboard o) const { return Bitboard(bits_ | o.bits_); }
    constexpr Bitboard operator&(Bitboard o) const { return Bitboard(bits_ & o.bits_); }
    constexpr Bitboard operator^(Bitboard o) const { return Bitboard(bits_ ^ o.bits_); }
    constexpr Bitboard operator~() const { return Bitboard(~bits_ & kAllBits); }
    constexpr Bitboard& operator|=(Bitboard o) { return bits_ |= o.bits_, *this; }
    constexpr Bitboard& operator&=(Bitboard o) { return bits_ &= o.bits_, *this; }
    constexpr Bitboard& operator^=(Bitboard o) { return bits_ ^= o.bits_, *this; }
    constexpr bool operator==(const Bitboard&) const = default;

    // Iteration over the set cells, lowest index first.
    class Iterator {
      public:
        explicit constexpr Iterator(std::uint32_t bits) : bits_(bits) {}
        constexpr Cell operator*() const { return Cell(std::countr_zero(bits_)); }
        constexpr Iterator& operator++() { return bits_ &= bits_ - 1, *this; }
        constexpr bool operator!=(const Iterator& o) const { return bits_ != o.bits_; }

      private:
        std::uint32_t bits_;
    };
    [[nodiscard]] constexpr Iterator begin() const { return Iterator(bits_); }
    [[nodiscard]] constexpr Iterator end() const { return Iterator(0); }

  private:
    std::uint32_t bits_ = 0;
};

namespace board {

// Each ring's cell i+1 (clockwise in ray numbering), for all cells of a set at once.
[[nodiscard]] constexpr Bitboard ringNext(Bitboard s) {
    constexpr std::uint32_t kB = 0xFFFu << 1, kC = 0xFFFu << 13;
    constexpr std::uint32_t kB12 = 1u << 12, kC12 = 1u << 24;
    const std::uint32_t b = s.bits() & kB, c = s.bits() & kC;
    return Bitboard((((b & ~kB12) << 1) | ((b & kB12) >> 11)) |
                    (((c & ~kC12) << 1) | ((c & kC12) >> 11)));
}

[[nodiscard]] constexpr Bitboard ringPrev(Bitboard s) {
    constexpr std::uint32_t kB = 0xFFFu << 1, kC = 0xFFFu << 13;
    constexpr std::uint32_t kB1 = 1u << 1, kC1 = 1u << 13;
    const std::uint32_t b = s.bits() & kB, c = s.bits() & kC;
    return Bitboard((((b & ~kB1) >> 1) | ((b & kB1) << 11)) |
                    (((c & ~kC1) >> 1) | ((c & kC1) << 11)));
}

// The union of the neighbours of every cell in s (RULES §1 adjacency).
[[nodiscard]] constexpr Bitboard neighbours(Bitboard s) {
    const std::uint32_t bits = s.bits();
    const std::uint32_t inner = bits & Bitboard::innerRing().bits();
    const std::uint32_t outer = bits & Bitboard::outerRing().bits();
    std::uint32_t n = (ringNext(s) | ringPrev(s)).bits();
    n |= inner << 12;                                      // b_i -> c_i
    n |= outer >> 12;                                      // c_i -> b_i
    n |= inner != 0 ? 1u : 0u;                             // b_i -> a
    n |= (bits & 1u) ? Bitboard::innerRing().bits() : 0u;  // a -> every b
    return Bitboard(n);
}

inline constexpr std::array<Bitboard, Cell::kCount> kAdjacent = [] {
    std::array<Bitboard, Cell::kCount> t{};
    for (int i = 0; i < Cell::kCount; ++i)
        t[i] = neighbours(Bitboard::of(Cell(i)));
    return t;
}();

[[nodiscard]] constexpr Bitboard adjacent(Cell c) {
    return kAdjacent[c.index()];
}

// b_i -> b_{i+6}: where a path that entered the centre from b_i must leave it under
// CentreStraight.
[[nodiscard]] constexpr Cell opposite(Cell innerCell) {
    return Cell::inner((innerCell.ray() + 5) % 12 + 1);
}

}  // namespace board

}  // namespace dejarik
