// A run: the schedule of deal pairs, the workers that play them, the results file, the
// SPRT that may end the run early, and resumption.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "engine.h"
#include "referee.h"
#include "results.h"
#include "stats.h"

namespace dejarik::arena {

// The rules of a run as --ruleset and --option give them: the options, and the assignments
// sent to every engine (Ruleset first).
struct RuleSettings {
    RuleOptions options;
    std::vector<std::pair<std::string, std::string>> assignments;
};
// Empty with `error` naming the bad ruleset or option.
[[nodiscard]] std::optional<RuleSettings> ruleSettings(const std::string& ruleset,
                                                       const std::vector<std::string>& items,
                                                       std::string& error);

struct RunConfig {
    std::vector<EngineSpec> engines;
    RuleOptions ruleOptions;
    // The rule options as given (Ruleset first), sent to every engine as setoption.
    std::vector<std::pair<std::string, std::string>> ruleAssignments;
    TournamentKind kind = TournamentKind::RoundRobin;
    std::uint64_t pairs = 1;  // deal pairs per encounter
    std::uint64_t seed = 1;
    DiceMode diceMode = DiceMode::Duplicate;
    std::vector<std::string> deals;  // from a deal file; empty: random deals
    int concurrency = 1;
    RefereeConfig referee;  // its interrupt is set by the run
    EngineTimeouts timeouts;
    std::optional<SprtConfig> sprt;
    int shardIndex = 0;  // 0-based: this run plays jobs j with j % shardCount == shardIndex
    int shardCount = 1;
    std::string resultsPath;  // empty: not written
    std::string recordsPath;  // empty: not written
    bool resume = false;
    bool keepRecords = false;  // keep every record in RunOutcome (tests)
    std::shared_ptr<spdlog::logger> log;
    std::ostream* progress = nullptr;
    std::chrono::milliseconds progressInterval{2000};
};

// Where an SPRT stopped a run. The pairs under way when it decided still finish, so the
// final table's LLR can fall back inside the bounds; this is the decision that counts.
struct SprtStop {
    SprtDecision decision = SprtDecision::Continue;
    double llr = 0;
    std::int64_t pairs = 0;  // complete pairs when it decided
};

struct RunOutcome {
    ResultsFile results;
    bool interrupted = false;
    std::optional<SprtStop> sprtStop;  // the run stopped early on this SPRT decision
    std::vector<GameRecord> records;   // with keepRecords
};

// The results header of a run: fingerprint, settings, engines, encounters.
[[nodiscard]] ResultsFile resultsHeader(const RunConfig& config);

// The deal of a round.
[[nodiscard]] std::string dealOf(const RunConfig& config, std::uint64_t round);

// Plays the run (or what is left of it, when resuming). `interrupt` ends it early: games
// in progress are abandoned, finished ones are kept. Empty with `error` on a setup error.
[[nodiscard]] std::optional<RunOutcome> runTournament(const RunConfig& config,
                                                      const std::atomic<bool>& interrupt,
                                                      std::string& error);

}  // namespace dejarik::arena
