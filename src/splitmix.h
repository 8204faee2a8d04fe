// splitmix64 (Steele, Lea and Flood, 2014): the generator behind the Zobrist keys, the rules
// fingerprint and the baseline players' choices. constexpr, so the keys are made at compile
// time.
#pragma once

#include <cstdint>

namespace dejarik {

// Advances `state` and returns the next 64 random bits.
constexpr std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

}  // namespace dejarik
