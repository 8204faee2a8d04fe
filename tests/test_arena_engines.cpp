// The arena against real processes: a correct test engine, and the same engine told to
// crash, hang, answer illegally, talk garbage or start slowly. Every run must finish with
// the right terminations and intact results. No assertion depends on timing: the faults
// are deterministic (a hang never ends, a slow answer is far past its limit).
#include <doctest/doctest.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <filesystem>
#include <thread>

#include "analysis.h"
#include "engine.h"
#include "test_arena_support.h"
#include "tournament.h"

#ifndef ARENA_TEST_ENGINE
#error "ARENA_TEST_ENGINE must name the test engine's path"
#endif

using namespace dejarik;
using namespace dejarik::arena;

namespace {

using testing::quietLog;
using testing::run;

EngineSpec testEngine(const std::string& name, const std::vector<std::string>& args,
                      const std::string& limit = "depth=1") {
    std::vector<std::string> items{"name=" + name, "cmd=" ARENA_TEST_ENGINE, limit};
    for (const auto& a : args)
        items.push_back("arg=" + a);
    return testing::engineSpec(items);
}

RunConfig gauntlet(std::vector<EngineSpec> engines, std::uint64_t pairs) {
    RunConfig c;
    c.engines = std::move(engines);
    c.ruleAssignments = {{"Ruleset", "kelly"}};
    c.kind = TournamentKind::Gauntlet;
    c.pairs = pairs;
    c.seed = 5;
    c.log = quietLog();
    c.keepRecords = true;
    c.referee.stallTimeout = std::chrono::milliseconds(400);
    c.referee.timeMargin = std::chrono::milliseconds(50);
    c.timeouts.start = std::chrono::milliseconds(5000);
    c.timeouts.stopGrace = std::chrono::milliseconds(300);
    c.timeouts.quitGrace = std::chrono::milliseconds(300);
    return c;
}

// Every game of engine `engine` against the first engine: lost, by `expected`.
void checkForfeits(const RunOutcome& out, int engine, Termination expected) {
    int games = 0;
    for (const auto& g : out.results.games) {
        if (g.player1 != engine && g.player2 != engine) continue;
        ++games;
        CAPTURE(g.job);
        CAPTURE(g.game);
        CHECK(g.termination == expected);
        CHECK(g.outcome ==
              (g.player1 == engine ? GameOutcome::Player2Wins : GameOutcome::Player1Wins));
    }
    CHECK(games == 2 * static_cast<int>(out.results.pairs));
}

void checkRecordsReplay(const RunOutcome& out) {
    std::string error;
    for (const auto& r : out.records) {
        INFO(error);
        CHECK(replayRecord(r, error));
    }
}

}  // namespace

TEST_SUITE("arena-engines") {
    TEST_CASE("well-behaved engines play to real results, also when they talk garbage") {
        auto config = gauntlet({testEngine("greedy", {"--player", "greedy"}),
                                testEngine("random", {}), testEngine("noisy", {"--noise"})},
                               3);
        const RunOutcome out = run(config);
        CHECK_FALSE(out.interrupted);
        REQUIRE(out.results.games.size() == 12);
        for (const auto& g : out.results.games)
            CHECK_FALSE(isFault(g.termination));
        checkRecordsReplay(out);
        // The engine's info lines reach the record.
        CHECK(out.records[0].events[0].comment.find("ev ") == 0);
        CHECK(out.records[0].events[0].comment.find("wdl 300/400/300") != std::string::npos);
    }

    TEST_CASE("crashes, hangs and illegal answers lose with their termination") {
        auto config = gauntlet(
            {testEngine("good", {}), testEngine("crash", {"--fault", "crash", "--after", "5"}),
             testEngine("hang", {"--fault", "hang", "--after", "4"}),
             testEngine("illegal", {"--fault", "illegal", "--after", "3"}),
             testEngine("badtoken", {"--fault", "badtoken", "--after", "6"}),
             testEngine("none", {"--fault", "nobestmove", "--after", "2"}),
             testEngine("exit", {"--fault", "exit"})},
            2);
        config.concurrency = 2;
        const std::string path = (std::filesystem::temp_directory_path() /
                                  ("dejarik-arena-faults-" + std::to_string(::getpid())))
                                     .string();
        std::filesystem::remove(path);
        config.resultsPath = path;
        const RunOutcome out = run(config);
        CHECK(out.results.games.size() == 6 * 2 * 2);
        checkForfeits(out, 1, Termination::Crash);
        checkForfeits(out, 2, Termination::Stall);
        checkForfeits(out, 3, Termination::Illegal);
        checkForfeits(out, 4, Termination::Illegal);
        checkForfeits(out, 5, Termination::Illegal);
        checkForfeits(out, 6, Termination::Crash);
        checkRecordsReplay(out);

        // The results file on disk holds the same, intact.
        std::string error;
        const auto onDisk = readResultsFile(path, error);
        INFO(error);
        REQUIRE(onDisk);
        CHECK(mergeResults({*onDisk}, error)->games.size() == out.results.games.size());
        const auto stats = tally(*onDisk);
        for (std::size_t e = 0; e < stats.size(); ++e) {
            CHECK(stats[e].wdl.wins == 4);  // the good engine wins every game
            CHECK(stats[e].faults.at(static_cast<int>(e) + 1) == 4);
        }
        std::filesystem::remove(path);
    }

    TEST_CASE("go carries every clock a player has, one overstepped within the margin too") {
        const Rules rules(RuleOptions{});
        const Position pos = Position::startpos(rules);
        const std::string deal = pos.dfen();
        const std::vector<std::string> moves;
        TimeControl clocked;
        clocked.baseMs = 1000;
        // Player 1 is 20 ms over: a bare `go` would mean a search until stopped.
        const DecisionRequest over{deal,
                                   moves,
                                   pos,
                                   {std::int64_t{-20}, std::int64_t{5000}},
                                   {0, 10},
                                   clocked,
                                   std::chrono::milliseconds(100)};
        CHECK(goCommand(over) == "go time1 1 time2 5000 inc2 10");
        TimeControl depth;
        depth.depth = 3;
        const DecisionRequest unclocked{
            deal, moves, pos, {}, {0, 0}, depth, std::chrono::milliseconds(100)};
        CHECK(goCommand(unclocked) == "go depth 3");
    }

    TEST_CASE("time limits: too slow is a loss on time, and a slow start a stall") {
        auto config =
            gauntlet({testEngine("good", {}, "movetime=1000"),
                      testEngine("slow", {"--fault", "slow", "--after", "2", "--delay-ms", "4000"},
                                 "movetime=50"),
                      testEngine("late", {"--slow-start-ms", "4000"}),
                      testEngine("sleepy", {"--slow-start-ms", "300"})},
                     1);
        config.timeouts.start = std::chrono::milliseconds(1500);
        const RunOutcome out = run(config);
        checkForfeits(out, 1, Termination::Time);
        checkForfeits(out, 2, Termination::Stall);
        for (const auto& g : out.results.games)
            if (g.player1 == 3 || g.player2 == 3) CHECK_FALSE(isFault(g.termination));
    }

    TEST_CASE("an interrupted run stops its engines and keeps its finished games") {
        auto config = gauntlet({testEngine("good", {}), testEngine("good2", {}),
                                testEngine("hang", {"--fault", "hang", "--after", "3"})},
                               1);
        config.kind = TournamentKind::RoundRobin;
        config.referee.stallTimeout = std::chrono::hours(1);  // only the interrupt ends it
        const std::string path = (std::filesystem::temp_directory_path() /
                                  ("dejarik-arena-interrupt-" + std::to_string(::getpid())))
                                     .string();
        std::filesystem::remove(path);
        config.resultsPath = path;
        std::atomic<bool> interrupt{false};
        std::optional<RunOutcome> out;
        std::string error;
        std::thread runner([&] { out = runTournament(config, interrupt, error); });
        // Job 0 (good against good2) finishes; job 1 (good against hang) hangs.
        for (int i = 0; i < 6000 && !interrupt.load(); ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
            std::string e;
            if (const auto r = readResultsFile(path, e); r && r->games.size() >= 2) {
                std::this_thread::sleep_for(std::chrono::milliseconds(200));
                interrupt = true;
            }
        }
        interrupt = true;
        runner.join();
        INFO(error);
        REQUIRE(out);
        CHECK(out->interrupted);
        CHECK(out->results.games.size() == 2);
        const auto onDisk = readResultsFile(path, error);
        REQUIRE(onDisk);
        CHECK(onDisk->games == out->results.games);
        std::filesystem::remove(path);
    }

    TEST_CASE("records replay through an engine's position ... moves") {
        auto config =
            gauntlet({testEngine("greedy", {"--player", "greedy"}), testEngine("random", {})}, 2);
        config.ruleAssignments = {{"Ruleset", "dalsian"}};
        config.ruleOptions.ruleset = Ruleset::Dalsian;
        const RunOutcome out = run(config);
        std::vector<std::string> engines{ARENA_TEST_ENGINE};
#ifdef DEJARIK_ENGINE
        engines.emplace_back(DEJARIK_ENGINE);
#endif
        for (const auto& path : engines) {
            CAPTURE(path);
            for (const auto& r : out.records) {
                REQUIRE_FALSE(r.finalDfen.empty());
                EngineSpec spec;
                spec.cmd = path;
                REQUIRE_FALSE(spec.finish(false));
                std::atomic<bool> interrupt{false};
                EngineSeat seat(spec, {{"Ruleset", "dalsian"}}, {}, quietLog(), &interrupt);
                const auto lines =
                    seat.converse({"position dfen " + r.deal + " moves " + r.moves(), "d"},
                                  std::chrono::seconds(10));
                REQUIRE(lines);
                bool found = false;
                for (const auto& l : *lines) {
                    CHECK(l.find("error") == std::string::npos);
                    found = found || l.find(r.finalDfen) != std::string::npos;
                }
                CHECK(found);
            }
        }
    }
}
