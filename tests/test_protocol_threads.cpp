// DEI sessions with the real engine at Threads 2 and 4: searches, isready and stop
// mid-search, quit and end of input mid-search, and option changes between searches. The
// cases the ThreadSanitizer build runs (ctest label `threads`, tools/run-tests): the engine
// built with it reports a race on stderr, which fails the test (test_protocol_support.h).
#include <array>
#include <string>
#include <vector>

#include "position.h"
#include "random_positions.h"
#include "rules.h"
#include "test_protocol_support.h"

using namespace dejarik;
using namespace dejarik::test;

namespace {

constexpr const char* kMelee = "S/Hk...mN....l/tG.........g 1 2 0 1";

// Runs `session` once for each thread count, with a fresh engine set to it.
template <typename Session>
void atThreads2And4(Session session) {
    for (const int threads : {2, 4}) {
        CAPTURE(threads);
        Engine e;
        REQUIRE(e.command("setoption name Threads value " + std::to_string(threads)).empty());
        session(e);
    }
}

// Checks the lines of a finished search: one bestmove, last, not none, no error line.
void checkAnswer(const std::vector<std::string>& lines) {
    REQUIRE(!lines.empty());
    CHECK(countIf(lines, "bestmove") == 1);
    CHECK(!bestmoveOf(lines.back()).empty());
    CHECK(bestmoveOf(lines.back()) != "none");
    for (const auto& l : lines)
        CHECK_MESSAGE(!isError(l), l);
}

// The same, and the bestmove is legal in `pos`.
void checkSearch(const std::vector<std::string>& lines, const Position& pos) {
    checkAnswer(lines);
    const std::string best = bestmoveOf(lines.back());
    CHECK_MESSAGE(pos.parseEvent(best), "illegal bestmove '" << best << "'");
}

// Waits for the first progress line of the running search.
void awaitProgress(Engine& e) {
    const auto lines = e.until("info depth");
    CHECK(countIf(lines, "bestmove") == 0);
}

}  // namespace

TEST_SUITE("threads") {
    TEST_CASE("depth-limited searches with helpers end with one legal bestmove") {
        const Rules kelly;
        const Position start = Position::startpos(kelly);
        const Position melee = testing::fromDfen(kMelee, kelly);
        atThreads2And4([&](Engine& e) {
            CHECK(e.command("position startpos").empty());
            checkSearch(e.go("go depth 4"), start);
            CHECK(e.command(std::string("position dfen ") + kMelee).empty());
            checkSearch(e.go("go depth 4"), melee);
            CHECK(e.sync().empty());  // no second bestmove
            e.send("quit");
            CHECK(e.exitStatus() == 0);
        });
    }

    TEST_CASE("isready mid-search is answered; stop ends the search with one bestmove") {
        const Rules kelly;
        const Position start = Position::startpos(kelly);
        atThreads2And4([&](Engine& e) {
            for (int round = 0; round < 3; ++round) {
                CHECK(e.command("position startpos").empty());
                e.send("go infinite");
                awaitProgress(e);
                CHECK(countIf(e.sync(), "bestmove") == 0);
                CHECK(countIf(e.sync(), "bestmove") == 0);
                e.send("stop");
                checkSearch(withoutProgress(e.until("bestmove")), start);
                CHECK(e.sync().empty());
            }
            // stop right after go, before any progress.
            e.send("go infinite");
            e.send("stop");
            checkSearch(withoutProgress(e.until("bestmove")), start);
            CHECK(e.sync().empty());
        });
    }

    TEST_CASE("searches that end by themselves: movetime, nodes, a placement") {
        const Rules kelly;
        const Position placement = testing::fromDfen(kMelee, kelly, "axb2 counterpush");
        const Position start = Position::startpos(kelly);
        atThreads2And4([&](Engine& e) {
            CHECK(e.command("position startpos").empty());
            checkSearch(e.go("go movetime 100"), start);
            checkSearch(e.go("go nodes 20000"), start);
            CHECK(e.command(std::string("position dfen ") + kMelee + " moves axb2 counterpush")
                      .empty());
            const auto lines = e.go("go depth 3");
            checkSearch(lines, placement);
            CHECK(startsWith(bestmoveOf(lines.back()), "a-"));
        });
    }

    TEST_CASE("options between searches: Threads, MultiPV, Hash, Clear Hash, rules, newgame") {
        Engine e;
        for (const char* setting :
             {"setoption name Threads value 4", "setoption name MultiPV value 3",
              "setoption name Threads value 2", "setoption name Hash value 2",
              "setoption name Clear Hash", "setoption name Ruleset value holochess",
              "setoption name Threads value 4", "newgame", "setoption name Ruleset value dalsian",
              "setoption name MultiPV value 1"}) {
            INFO(setting);
            CHECK(e.command(setting).empty());
            CHECK(e.command("position startpos").empty());
            checkAnswer(e.go("go depth 3"));
        }
    }

    TEST_CASE("quit mid-search ends the engine with its helpers") {
        atThreads2And4([](Engine& e) {
            e.send("go infinite");
            awaitProgress(e);
            e.send("quit");
            CHECK(e.exitStatus() == 0);
        });
    }

    TEST_CASE("end of input mid-search ends the engine with its helpers") {
        atThreads2And4([](Engine& e) {
            e.send("go infinite");
            awaitProgress(e);
            e.process().closeInput();
            CHECK(e.exitStatus() == 0);
        });
    }
}
