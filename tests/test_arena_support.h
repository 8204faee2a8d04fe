// Helpers shared by the arena's test suites.
#pragma once

#include <doctest/doctest.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tournament.h"

namespace dejarik::arena::testing {

// A finished kelly record of x (player 1) against y from `deal`, with `events` and the
// outcome given (a draw by the quiet clock, else an elimination).
inline GameRecord kellyRecord(std::string deal, std::vector<RecordedEvent> events,
                              GameOutcome outcome = GameOutcome::Draw) {
    GameRecord r;
    r.rules = Rules::preset(Ruleset::Kelly).describe();
    r.deal = std::move(deal);
    r.players = {"x", "y"};
    r.outcome = outcome;
    r.termination =
        outcome == GameOutcome::Draw ? Termination::QuietDraw : Termination::Elimination;
    r.events = std::move(events);
    return r;
}

// A kelly game of four creatures: player 1 (x) has a Molator on b1 next to player 2's (y)
// lone Ng'ok on c1, a K'lor'slug and a Savrip elsewhere; the Molator attacks and is
// counter-killed: 3 v 1 becomes 2 v 1. The outcome is the record's, as given.
inline GameRecord lostMolator(GameOutcome outcome) {
    return kellyRecord("./L.........../n...K.S..... 1 2 0 1",
                       {{"b1xc1", "", 1, true}, {"counterkill", "", 1, false}}, outcome);
}

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
