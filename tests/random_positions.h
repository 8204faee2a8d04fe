// Positions for tests, reached by seeded random play from the start of every ruleset.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "position.h"

namespace dejarik::testing {

// Plays up to `maxEvents` uniformly random events from `start` and returns every position
// passed through at which `keep` holds, stopping at the game's end.
template <typename Keep>
std::vector<Position> randomWalk(const Position& start, int maxEvents, std::mt19937_64& rng,
                                 Keep keep) {
    std::vector<Position> out;
    Position pos = start;
    for (int i = 0; i < maxEvents && !pos.isOver(); ++i) {
        if (keep(pos)) out.push_back(pos);
        EventList list;
        pos.generate(list);
        std::uniform_int_distribution<int> pick(0, list.size() - 1);
        pos.apply(list[pick(rng)]);
    }
    return out;
}

// The position of a DFEN after the given events; a test that names a bad one fails here.
inline Position fromDfen(std::string_view dfen, const Rules& rules, std::string_view moves = "") {
    std::string error;
    auto pos = Position::fromDfen(dfen, rules, &error);
    REQUIRE_MESSAGE(pos, error);
    auto played = playTokens(*pos, moves, &error);
    REQUIRE_MESSAGE(played, error);
    return *played;
}

// Whether a search can start here: a decision or placement point of a game not over.
inline bool isSearchable(const Position& pos) {
    return !pos.isOver() && !pos.chanceDue();
}

// `count` searchable positions of a ruleset, each picked from a random game of up to 120
// events (so some come from late in a game).
inline std::vector<Position> samplePositions(const Rules& rules, int count, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<Position> out;
    while (static_cast<int>(out.size()) < count) {
        auto walk = randomWalk(Position::startpos(rules), 120, rng, isSearchable);
        if (walk.empty()) continue;
        out.push_back(walk[std::uniform_int_distribution<std::size_t>(0, walk.size() - 1)(rng)]);
    }
    return out;
}
// Positions point to their rules, which must outlive them.
std::vector<Position> samplePositions(const Rules&& rules, int count, std::uint64_t seed) = delete;

}  // namespace dejarik::testing
