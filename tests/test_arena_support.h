// Helpers shared by the arena's test suites.
#pragma once

#include <doctest/doctest.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "tournament.h"

namespace dejarik::arena::testing {

// A logger that drops everything: tests read results, not logs.
inline std::shared_ptr<spdlog::logger> quietLog() {
    return std::make_shared<spdlog::logger>("test",
                                            std::make_shared<spdlog::sinks::null_sink_mt>());
}

// An engine from its --engine items, which must be valid.
inline EngineSpec engineSpec(const std::vector<std::string>& items) {
    EngineSpec s;
    REQUIRE_FALSE(s.apply(items));
    REQUIRE_FALSE(s.finish(true));
    return s;
}

// A whole tournament, which must not fail to run.
inline RunOutcome run(const RunConfig& config) {
    std::atomic<bool> interrupt{false};
    std::string error;
    auto out = runTournament(config, interrupt, error);
    INFO(error);
    REQUIRE(out);
    return std::move(*out);
}

}  // namespace dejarik::arena::testing
