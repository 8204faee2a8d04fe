// The bench: a fixed set of positions of every ruleset searched to a fixed depth with fixed
// settings. Its node count is the build's signature (Stockfish's habit): it changes only
// when search or eval change.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <stop_token>
#include <string>
#include <string_view>

#include "rules.h"

namespace dejarik::search {

struct BenchPosition {
    Ruleset ruleset;
    std::string_view options;  // "Name=Value" assignments, space-separated
    std::string_view dfen;

    [[nodiscard]] RuleOptions ruleOptions() const;
};

// The fixed positions of the bench: openings, middle games and endings of every ruleset.
[[nodiscard]] std::span<const BenchPosition> benchPositions();

inline constexpr int kBenchDepth = 6;

struct BenchResult {
    std::uint64_t nodes = 0;
    std::int64_t timeMs = 0;
    std::uint64_t nps = 0;
    std::size_t positions = 0;  // searched to the end
    bool stopped = false;       // by `stop`: the figures cover `positions` only
};

// Blocking. Searches every bench position with Hash 16, Threads 1, MultiPV 1, whatever the
// engine's options are; `progress` (optional) gets one human-readable line per position.
// A stop requested through `stop` (from another thread) ends the search under way at once
// and the bench with it.
[[nodiscard]] BenchResult runBench(int depth = kBenchDepth,
                                   const std::function<void(const std::string&)>& progress = {},
                                   const std::stop_token& stop = {});

}  // namespace dejarik::search
