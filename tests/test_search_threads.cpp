// The search with helper threads (lazy SMP) at Threads 2 and 4, in-process: the cases the
// ThreadSanitizer build runs (ctest label `threads`, tools/run-tests). No check depends on
// how the threads interleave; under ThreadSanitizer the interleavings are the point.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <random>
#include <thread>

#include "random_positions.h"
#include "search/search.h"

using namespace dejarik;
using namespace dejarik::search;

namespace {

constexpr std::array<int, 2> kThreadCounts = {2, 4};

// Searchable positions of a ruleset, from random games (some late in them).
std::vector<Position> samplePositions(const Rules& rules, int count, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<Position> out;
    while (static_cast<int>(out.size()) < count) {
        auto walk = testing::randomWalk(Position::startpos(rules), 120, rng, testing::isSearchable);
        if (walk.empty()) continue;
        out.push_back(walk[std::uniform_int_distribution<std::size_t>(0, walk.size() - 1)(rng)]);
    }
    return out;
}

Limits depthLimit(int depth) {
    Limits l;
    l.depth = depth;
    return l;
}

Limits infinite() {
    Limits l;
    l.infinite = true;
    return l;
}

double deciderView(const Position& pos, double player1Value) {
    return pos.decider() == Player::One ? player1Value : -player1Value;
}

void checkReport(const Position& pos, const Report& r) {
    CAPTURE(pos.dfen());
    REQUIRE(pos.isLegal(r.best));
    REQUIRE(!r.lines.empty());
    CHECK(r.lines[0].move == r.best);
    CHECK(std::abs(r.lines[0].value) <= 1.0);
    CHECK(r.nodes > 0);
}

}  // namespace

TEST_CASE("lazy SMP at a fixed depth finds the value of plain expectiminimax") {
    // Helpers never search past the depth limit, so every table entry they leave is as good
    // as the main thread's own: the root value must be exact whatever they did.
    for (const int threads : kThreadCounts) {
        CAPTURE(threads);
        Searcher searcher;
        searcher.setOptions({.hashMiB = 4, .threads = threads, .multiPv = 1});
        for (const Ruleset ruleset : kRulesets) {
            const Rules rules = Rules::preset(ruleset);
            for (const Position& pos :
                 samplePositions(rules, 6, 900 + static_cast<std::uint64_t>(ruleset))) {
                searcher.clearHash();
                const Report r = searcher.run(pos, depthLimit(2));
                checkReport(pos, r);
                CHECK(r.depth == 2);
                std::uint64_t nodes = 0;
                const double plain = deciderView(pos, expectiminimax(pos, 2, nodes));
                CHECK(r.lines[0].value == doctest::Approx(plain).epsilon(1e-5));
            }
        }
    }
}

TEST_CASE("deeper searches with helpers, the table kept from one search to the next") {
    for (const int threads : kThreadCounts) {
        CAPTURE(threads);
        Searcher searcher;
        searcher.setOptions({.hashMiB = 8, .threads = threads, .multiPv = 1});
        const Rules rules;
        for (const Position& pos : samplePositions(rules, 5, 77)) {
            const Report r = searcher.run(pos, depthLimit(4));
            checkReport(pos, r);
            CHECK(r.depth == 4);
        }
    }
}

TEST_CASE("MultiPV with helpers: distinct decisions, ranked") {
    const Rules rules;
    const Position pos = Position::startpos(rules);
    for (const int threads : kThreadCounts) {
        CAPTURE(threads);
        Searcher searcher;
        searcher.setOptions({.hashMiB = 4, .threads = threads, .multiPv = 3});
        const Report r = searcher.run(pos, depthLimit(3));
        checkReport(pos, r);
        REQUIRE(r.lines.size() == 3);
        for (std::size_t i = 0; i < r.lines.size(); ++i) {
            CHECK(pos.isLegal(r.lines[i].move));
            for (std::size_t j = 0; j < i; ++j) {
                CHECK(r.lines[j].move != r.lines[i].move);
                CHECK(r.lines[j].value >= r.lines[i].value);
            }
        }
    }
}

TEST_CASE("stop mid-search ends the main thread and its helpers with one report") {
    const Rules rules;
    const auto positions = samplePositions(rules, 4, 31);
    Searcher searcher;
    for (const int threads : kThreadCounts) {
        CAPTURE(threads);
        // The thread count changes between searches of one searcher.
        searcher.setOptions({.hashMiB = 4, .threads = threads, .multiPv = 1});
        for (const Position& pos : positions) {
            std::atomic<int> infos{0}, done{0};
            Report report;
            searcher.start(
                pos, infinite(), [&](const Info&) { ++infos; },
                [&](const Report& r) {
                    report = r;
                    ++done;
                });
            while (infos.load() == 0)
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            CHECK(searcher.searching());
            searcher.stop();
            searcher.wait();
            CHECK(done.load() == 1);
            CHECK_FALSE(searcher.searching());
            checkReport(pos, report);
        }
    }
}

TEST_CASE("stop at once, before the first iteration ends, and searches back to back") {
    const Rules rules = Rules::preset(Ruleset::Holochess);
    const auto positions = samplePositions(rules, 6, 5);
    Searcher searcher;
    for (const int threads : kThreadCounts) {
        CAPTURE(threads);
        searcher.setOptions({.hashMiB = 2, .threads = threads, .multiPv = 2});
        for (const Position& pos : positions) {
            std::atomic<int> done{0};
            Event best;
            searcher.start(pos, infinite(), {}, [&](const Report& r) {
                best = r.best;
                ++done;
            });
            searcher.stop();
            searcher.wait();
            CHECK(done.load() == 1);
            CHECK(pos.isLegal(best));
            // At once another search, limited by nodes, then one by time.
            Limits nodes;
            nodes.nodes = 20000;
            checkReport(pos, searcher.run(pos, nodes));
            Limits time;
            time.movetimeMs = 20;
            checkReport(pos, searcher.run(pos, time));
        }
        searcher.clearHash();
    }
}
