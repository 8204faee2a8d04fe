// Zobrist keys, generated at compile time from a fixed seed so keys are the same in every
// build and run.
#pragma once

#include <array>
#include <cstdint>

#include "board.h"

namespace dejarik::zobrist {

// Hold counters are hashed up to this value; a larger counter has already ended the game.
inline constexpr int kHoldLimit = 64;

struct Keys {
    std::array<std::array<std::uint64_t, Cell::kCount>, 16> piece{};
    std::uint64_t sideTwo = 0;
    std::uint64_t oneActionLeft = 0;
    // An attack from -> to whose outcome is due.
    std::array<std::array<std::uint64_t, Cell::kCount>, Cell::kCount> pendingAttack{};
    // A pushed piece on the cell whose placement player p decides.
    std::array<std::array<std::uint64_t, Cell::kCount>, 2> pendingPlacement{};
    std::array<std::array<std::uint64_t, kHoldLimit>, 2> hold{};
};

constexpr std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

constexpr Keys makeKeys() {
    Keys k;
    std::uint64_t s = 0xDE1A41Cull;
    for (auto& row : k.piece)
        for (auto& v : row)
            v = splitmix64(s);
    k.sideTwo = splitmix64(s);
    k.oneActionLeft = splitmix64(s);
    for (auto& row : k.pendingAttack)
        for (auto& v : row)
            v = splitmix64(s);
    for (auto& row : k.pendingPlacement)
        for (auto& v : row)
            v = splitmix64(s);
    for (auto& row : k.hold)
        for (auto& v : row)
            v = splitmix64(s);
    // A zero hold counter contributes nothing, so positions without CentreWin hash alike.
    k.hold[0][0] = k.hold[1][0] = 0;
    return k;
}

inline constexpr Keys kKeys = makeKeys();

}  // namespace dejarik::zobrist
