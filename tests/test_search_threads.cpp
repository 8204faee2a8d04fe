// The search with helper threads (lazy SMP) at Threads 2 and 4, in-process: the cases the
// ThreadSanitizer build runs (ctest label `threads`, tools/run-tests). No check depends on
// how the threads interleave; under ThreadSanitizer the interleavings are the point.
#include <doctest/doctest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <thread>

#include "random_positions.h"
#include "search.h"
#include "test_search_support.h"

using namespace dejarik;
using namespace dejarik::search;
using testing::deciderView;
using testing::depthLimit;
using testing::samplePositions;

namespace {

constexpr std::array<int, 2> kThreadCounts = {2, 4};

void checkReport(const Position& pos, const Report& r) {
    CAPTURE(pos.dfen());
    REQUIRE(pos.isLegal(r.best));
    REQUIRE(!r.lines.empty());
    CHECK(r.lines[0].move == r.best);
    CHECK(std::abs(r.lines[0].value) <= 1.0);
    CHECK(r.nodes > 0);
}

// An infinite search of `pos`, stopped once it has reported an iteration (or at once),
// which must end with exactly one report.
Report stoppedSearch(Searcher& searcher, const Position& pos, bool afterFirstIteration) {
    Limits infinite;
    infinite.infinite = true;
    std::atomic<int> infos{0}, done{0};
    Report report;
    searcher.start(
        pos, infinite, [&](const Info&) { ++infos; },
        [&](const Report& r) {
            report = r;
            ++done;
        });
    if (afterFirstIteration) {
        while (infos.load() == 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        CHECK(searcher.searching());
    }
    searcher.stop();
    searcher.wait();
    CHECK(done.load() == 1);
    CHECK_FALSE(searcher.searching());
    return report;
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

TEST_CASE("deeper searches with helpers, MultiPV, the table kept from one search to the next") {
    const Rules rules;
    const auto positions = samplePositions(rules, 5, 77);
    for (const int threads : kThreadCounts) {
        CAPTURE(threads);
        Searcher searcher;
        searcher.setOptions({.hashMiB = 8, .threads = threads, .multiPv = 1});
        for (const Position& pos : positions) {
            const Report r = searcher.run(pos, depthLimit(4));
            checkReport(pos, r);
            CHECK(r.depth == 4);
        }
        searcher.setOptions({.hashMiB = 8, .threads = threads, .multiPv = 3});
        const Position start = Position::startpos(rules);
        const Report r = searcher.run(start, depthLimit(3));
        checkReport(start, r);
        REQUIRE(r.lines.size() == 3);
        for (std::size_t i = 1; i < r.lines.size(); ++i) {
            CHECK(start.isLegal(r.lines[i].move));
            CHECK(r.lines[i - 1].value >= r.lines[i].value);
            for (std::size_t j = 0; j < i; ++j)
                CHECK(r.lines[j].move != r.lines[i].move);
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
        for (const Position& pos : positions)
            checkReport(pos, stoppedSearch(searcher, pos, true));
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
            CHECK(pos.isLegal(stoppedSearch(searcher, pos, false).best));
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
