// Zobrist keys, generated at compile time from a fixed seed so keys are the same in every
// build and run.
#pragma once

#include <array>
#include <cstdint>

#include "board.h"
#include "rules.h"
#include "splitmix.h"

namespace dejarik::zobrist {

// Hold counters are hashed up to this value; a larger counter has already ended the game.
inline constexpr int kHoldLimit = 64;

struct Keys {
    std::array<std::array<std::uint64_t, Cell::kCount>, Piece::kPieceIndices> piece{};
    std::uint64_t sideTwo = 0;
    std::uint64_t oneActionLeft = 0;
    // An attack from -> to whose outcome is due.
    std::array<std::array<std::uint64_t, Cell::kCount>, Cell::kCount> pendingAttack{};
    // A pushed piece on the cell whose placement player p decides.
    std::array<std::array<std::uint64_t, Cell::kCount>, 2> pendingPlacement{};
    std::array<std::array<std::uint64_t, kHoldLimit>, 2> hold{};
    // A creature in a player's reserve slot (RULES §15.4), by player, slot, creature.
    std::array<std::array<std::array<std::uint64_t, kMaxCreatures>, 4>, 2> reserve{};
    // Rays of Death: a creature's activation mark on its cell, the combat cell, the players
    // that ended a cycle this round, a roll due.
    std::array<std::uint64_t, Cell::kCount> used{};
    std::array<std::uint64_t, Cell::kCount> combat{};
    std::array<std::uint64_t, 2> cycled{};
    std::uint64_t rollDue = 0;
};

// The keys' generator, also named from here by the search and the rules fingerprint.
using dejarik::splitmix64;

constexpr Keys makeKeys() {
    Keys k;
    std::uint64_t s = 0xDE1A41Cull;
    // The ruleset's own creatures' keys (piece indices 0..15) come first; those of larger
    // creature sets last, so that adding them changed no existing key.
    for (int i = 0; i < 16; ++i)
        for (auto& v : k.piece[i])
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
    for (int i = 16; i < Piece::kPieceIndices; ++i)
        for (auto& v : k.piece[i])
            v = splitmix64(s);
    for (auto& slots : k.reserve)
        for (auto& row : slots)
            for (auto& v : row)
                v = splitmix64(s);
    // Last, so that no earlier key changed.
    for (auto& v : k.used)
        v = splitmix64(s);
    for (auto& v : k.combat)
        v = splitmix64(s);
    for (auto& v : k.cycled)
        v = splitmix64(s);
    k.rollDue = splitmix64(s);
    // A zero hold counter contributes nothing, so positions without CentreWin hash alike.
    k.hold[0][0] = k.hold[1][0] = 0;
    return k;
}

inline constexpr Keys kKeys = makeKeys();

}  // namespace dejarik::zobrist
