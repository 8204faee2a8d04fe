#include <doctest/doctest.h>

#include <random>

#include "bench.h"
#include "eval.h"
#include "model_cap.h"
#include "random_positions.h"
#include "sanitized.h"
#include "search.h"
#include "star.h"
#include "symmetry.h"
#include "test_search_support.h"
#include "thread_pool.h"

#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <new>
#include <optional>
#include <thread>

using namespace dejarik;
using namespace dejarik::search;
using testing::checkPrunedEqualsPlain;
using testing::deciderView;
using testing::depthLimit;
using testing::samplePositions;

namespace {

std::vector<Rules> allRules() {
    std::vector<Rules> rules;
    for (const Ruleset r : kRulesets)
        rules.push_back(Rules::preset(r));
    RuleOptions o;
    o.kingOfTheCentre = true;
    o.blockedPush = BlockedPush::KillOnPush;
    rules.emplace_back(o);
    return rules;
}

}  // namespace

TEST_CASE("Star1/Star2 search equals plain expectiminimax (no table)") {
    const auto rulesList = allRules();
    testing::NodeCounts nodes;
    int compared = 0;
    for (std::size_t r = 0; r < rulesList.size(); ++r) {
        int sample = 0;
        for (const Position& pos :
             samplePositions(rulesList[r], testing::sampleSize(60), 100 + r)) {
            const int maxDepth = sample++ % 3 == 0 ? 3 : 2;
            for (int depth = 1; depth <= maxDepth; ++depth) {
                checkPrunedEqualsPlain(pos, depth, nodes);
                ++compared;
            }
        }
    }
    MESSAGE("compared " << compared << " searches; nodes plain " << nodes.plain << " pruned "
                        << nodes.pruned);
}

TEST_CASE("Star1/Star2 search equals plain expectiminimax under RaysOfDeath (no table)") {
    // The roll is a chance node of 25 outcomes, 24 of them at 1/48: the pruning's windows
    // divide by those small probabilities.
    std::vector<Rules> rulesList;
    for (const Ruleset r : {Ruleset::Kelly, Ruleset::Dalsian}) {
        RuleOptions o;
        o.ruleset = r;
        REQUIRE_FALSE(o.set("RaysOfDeath", "true"));
        rulesList.emplace_back(o);
    }
    int compared = 0, rollRoots = 0;
    for (std::size_t r = 0; r < rulesList.size(); ++r) {
        std::vector<Position> positions = samplePositions(rulesList[r], 30, 300 + r);
        for (const char* field : {" rays:?/-/-", " rays:a/b1/-", " rays:b2/ac1/2"})
            positions.push_back(testing::fromDfen(
                std::string("S/Hk...mN....l/tG.........g 1 2 0 1") + field, rulesList[r]));
        // Positions a few actions before a roll: the roll lies inside the searched tree.
        positions.push_back(testing::fromDfen("./............/.GHSN..mltk. 1 2 0 1", rulesList[r],
                                              r == 0 ? "c2-a c3-b3 c8-b6 c9-b8 c4-b5 c5-c4" : ""));
        for (const Position& pos : positions) {
            rollRoots += pos.phase() == Phase::Roll;
            for (int depth = 1; depth <= 2; ++depth) {
                testing::NodeCounts nodes;
                checkPrunedEqualsPlain(pos, depth, nodes);
                ++compared;
            }
        }
    }
    CHECK(rollRoots == 2);
    MESSAGE("compared " << compared << " RaysOfDeath searches");
}

// Star1 on a fail-low or fail-high returns a bound, which the parent and the table read as
// a bound only when it lies on its side of the window. With v exactly at the window's edge,
// p * v + others can round to the wrong side; the bound must then be held at the edge.
TEST_CASE("Star1's bounds never cross the window through rounding") {
    SUBCASE("a case met in a search (kelly startpos, depth 8)") {
        const double p = 0x1.1d8e562950f23p-3, lo = 0x1.44b91c2369a07p-2, hi = 1;
        const double sumLo = 0x1.a8a5fc7108b9ap-7, sumHi = 0x1.bb161bbaf2fa4p-4;
        const double alpha = -1, beta = 0x1.a8a5fc7108b9ap-7;
        const double v = lo;  // the outcome's search confirmed its lower bound
        const star::Window w = star::window(p, lo, hi, sumLo, sumHi, alpha, beta);
        REQUIRE(v >= w.b);
        REQUIRE(p * v + w.othersLo < beta);  // the rounding this test is about
        CHECK(star::failHigh(w, p, v, beta) >= beta);
    }
    SUBCASE("random nodes, the outcome's value on the window's edge") {
        std::mt19937_64 rng(8);
        std::uniform_real_distribution<double> unit(0, 1);
        int crossings = 0;
        constexpr int kCases = 100000;
        for (int k = 0; k < kCases; ++k) {
            // Up to four outcomes with bounds inside [-1, 1]; the first one is searched.
            const int n = 2 + static_cast<int>(rng() % 3);
            std::array<double, 4> p{}, lo{}, hi{};
            double total = 0;
            for (int i = 0; i < n; ++i)
                total += p[i] = 0.01 + unit(rng);
            double sumLo = 0, sumHi = 0;
            for (int i = 0; i < n; ++i) {
                p[i] /= total;
                const double x = 2 * unit(rng) - 1, y = 2 * unit(rng) - 1;
                lo[i] = std::min(x, y);
                hi[i] = std::max(x, y);
                sumLo += p[i] * lo[i];
                sumHi += p[i] * hi[i];
            }
            // A window strictly inside the node's interval, so neither bound settles it.
            const double x = sumLo + (sumHi - sumLo) * unit(rng);
            const double y = sumLo + (sumHi - sumLo) * unit(rng);
            const double alpha = std::min(x, y), beta = std::max(x, y);
            if (!(sumLo < alpha && beta < sumHi)) continue;
            const star::Window w = star::window(p[0], lo[0], hi[0], sumLo, sumHi, alpha, beta);
            CAPTURE(k);
            if (w.a >= -1) {
                crossings += p[0] * w.a + w.othersHi > alpha;
                CHECK(star::failLow(w, p[0], w.a, alpha) <= alpha);
            }
            if (w.b <= 1) {
                crossings += p[0] * w.b + w.othersLo < beta;
                CHECK(star::failHigh(w, p[0], w.b, beta) >= beta);
            }
        }
        MESSAGE("edges on which p * v + others crosses the window: " << crossings << " of "
                                                                     << 2 * kCases);
        CHECK(crossings > 0);  // the rounding is really met here
    }
}

// With the table, the search to depth 4 must still give plain expectiminimax's value. Two
// actions a turn make transpositions common (the same two moves in either order), so
// entries are read under other windows than they were written with, which is where a bound
// stored as an exact value would show.
//
// Same depth, same value: each position gets an empty table, since entries of other
// searches may be deeper and rightly give other values. Within one search a position comes
// back with the same side on turn and the same actions left only after a multiple of four
// actions, which at depth 4 is a leaf (evaluated, never looked up); entries of the earlier
// iterations are shallower and never cut. From depth 5 on, an entry written four actions
// nearer the root is deeper than needed where the position comes back, and the values
// rightly differ from plain expectiminimax at that depth.
//
// Not within 1e-9: the table keeps values as floats. A value read back is within 2^-25 of
// the one stored (|v| <= 1), and maxima, minima and weighted means never enlarge an error,
// so the root is within 2^-25 per level of stored nodes on a path: a decision, a chance
// node and a placement per action at most. A bound taken for an exact value errs by the gap
// between the bound and the value, far beyond that.
TEST_CASE("Star1/Star2 search equals plain expectiminimax (with the table, depth 4)") {
    constexpr int kDepth = 4;
    constexpr double kTolerance = 3 * kDepth * 0x1p-25;
    const auto rulesList = allRules();
    Searcher searcher;
    searcher.setOptions({.hashMiB = 4, .threads = 1, .multiPv = 1});
    std::uint64_t plainNodes = 0, prunedNodes = 0, tableNodes = 0;
    double worst = 0;
    int compared = 0, beyondDouble = 0;
    for (std::size_t r = 0; r < rulesList.size(); ++r) {
        std::mt19937_64 rng(4000 + r);
        // Half the positions under the sanitizers (22 s of the ASan run's search tests).
        for (int found = 0; found < testing::sampleSize(8, 2);) {
            // Middle games: several pieces that can shuffle, few enough for plain search.
            auto walk = testing::randomWalk(
                Position::startpos(rulesList[r]), 120, rng, [](const Position& p) {
                    const int pieces =
                        p.pieces(Player::One).count() + p.pieces(Player::Two).count();
                    return testing::isSearchable(p) && pieces >= 4 && pieces <= 5;
                });
            if (walk.empty()) continue;
            const Position& pos =
                walk[std::uniform_int_distribution<std::size_t>(0, walk.size() - 1)(rng)];
            ++found;
            std::uint64_t a = 0, b = 0;
            const double plain = deciderView(pos, expectiminimax(pos, kDepth, a));
            const double pruned = deciderView(pos, prunedValue(pos, kDepth, b));
            searcher.clearHash();
            const Report report = searcher.run(pos, depthLimit(kDepth));
            CAPTURE(pos.dfen());
            CAPTURE(pos.phase() == Phase::Placement);
            REQUIRE(report.depth == kDepth);
            CHECK(std::abs(pruned - plain) <= 1e-9);
            CHECK(std::abs(report.lines[0].value - plain) <= kTolerance);
            worst = std::max(worst, std::abs(report.lines[0].value - plain));
            beyondDouble += std::abs(report.lines[0].value - plain) > 1e-9;
            plainNodes += a;
            prunedNodes += b;
            tableNodes += report.nodes;
            ++compared;
        }
    }
    MESSAGE("compared " << compared << " searches at depth " << kDepth << "; largest difference "
                        << worst << " (bound " << kTolerance << "), " << beyondDouble
                        << " beyond 1e-9; nodes plain " << plainNodes << ", pruned " << prunedNodes
                        << ", with the table " << tableNodes);
}

TEST_CASE("the searcher's best decision is legal and its value is the decider's") {
    const auto rulesList = allRules();
    Searcher searcher;
    searcher.setOptions({.hashMiB = 4, .threads = 1, .multiPv = 1});
    int placementsForOpponent = 0;
    for (std::size_t r = 0; r < rulesList.size(); ++r) {
        for (const Position& pos : samplePositions(rulesList[r], 40, 500 + r)) {
            searcher.clearHash();
            const Report report = searcher.run(pos, depthLimit(2));
            CAPTURE(pos.dfen());
            REQUIRE(pos.isLegal(report.best));
            REQUIRE(report.lines.size() == 1);
            CHECK(report.lines[0].pv.front() == report.best);
            std::uint64_t nodes = 0;
            const double plain = deciderView(pos, expectiminimax(pos, 2, nodes));
            CHECK(report.lines[0].value == doctest::Approx(plain).epsilon(1e-5));
            const auto& wdl = report.lines[0].wdl;
            CHECK(wdl[0] + wdl[1] + wdl[2] == 1000);
            placementsForOpponent +=
                pos.phase() == Phase::Placement && pos.decider() != pos.sideToMove();
        }
    }
    // Placements after a counter-push are decided by the player not on turn.
    Position pos = *Position::fromDfen("S/Hk...mN....l/tG.........g 1 2 0 1", rulesList[0]);
    pos = *playTokens(pos, "axb2 counterpush");
    REQUIRE(pos.decider() == Player::Two);
    const Report report = searcher.run(pos, depthLimit(3));
    CHECK(pos.isLegal(report.best));
    CHECK(report.best.kind() == EventKind::Place);
    std::uint64_t nodes = 0;
    CHECK(report.lines[0].value == doctest::Approx(-expectiminimax(pos, 3, nodes)).epsilon(1e-5));
    MESSAGE(
        "random positions with a placement for the player not on turn: " << placementsForOpponent);
}

TEST_CASE("MultiPV ranks distinct decisions with their own values") {
    const Rules rules;
    const Position pos = *Position::fromDfen("S/Hk...mN....l/tG.........g 1 2 0 1", rules);
    Searcher searcher;
    searcher.setOptions({.hashMiB = 4, .threads = 1, .multiPv = 5});
    const Report report = searcher.run(pos, depthLimit(2));
    REQUIRE(report.lines.size() == 5);
    for (std::size_t k = 0; k < report.lines.size(); ++k) {
        const Line& line = report.lines[k];
        CHECK(pos.isLegal(line.move));
        if (k > 0) CHECK(line.value <= report.lines[k - 1].value);
        for (std::size_t j = 0; j < k; ++j)
            CHECK(report.lines[j].move != line.move);
        Position child = pos;
        child.apply(line.move);
        std::uint64_t nodes = 0;
        CHECK(line.value == doctest::Approx(expectiminimax(child, 1, nodes)).epsilon(1e-5));
    }
}

TEST_CASE("values of lines that end the game are exact") {
    // One action before the quiet draw: every move draws at once; the attack does not.
    const Rules rules;
    const Position pos = *Position::fromDfen("./Sn........../.....H..t... 1 1 79 79", rules);
    Searcher searcher;
    searcher.setOptions({.hashMiB = 4, .threads = 1, .multiPv = 64});
    const Report report = searcher.run(pos, depthLimit(1));
    int exactMoves = 0, attacks = 0;
    for (const Line& line : report.lines) {
        if (line.move.kind() == EventKind::Move) {
            CHECK(line.exact);
            CHECK(line.value == 0.0);
            ++exactMoves;
        } else {
            CHECK(line.move.kind() == EventKind::Attack);
            CHECK_FALSE(line.exact);
            ++attacks;
        }
    }
    CHECK(exactMoves > 0);
    CHECK(attacks > 0);
}

TEST_CASE("the quiet counter near the draw never mixes in the transposition table") {
    const Rules rules;
    const std::string board = "./Sn........../.....H..t... 1 2 ";
    const Position far = *Position::fromDfen(board + "0 1", rules);
    const Position near = *Position::fromDfen(board + "76 77", rules);
    CHECK(far.key() == near.key());  // the position key leaves the counter out, by design
    std::uint64_t nodes = 0;
    const double nearPlain = expectiminimax(near, 4, nodes);
    const double farPlain = expectiminimax(far, 4, nodes);
    REQUIRE(std::abs(nearPlain - farPlain) > 1e-3);  // the draw is within reach of `near`

    Searcher warm;
    warm.setOptions({.hashMiB = 4, .threads = 1, .multiPv = 1});
    (void)warm.run(far, depthLimit(4));
    const Report afterFar = warm.run(near, depthLimit(4));
    Searcher cold;
    cold.setOptions({.hashMiB = 4, .threads = 1, .multiPv = 1});
    const Report fresh = cold.run(near, depthLimit(4));
    CHECK(afterFar.lines[0].value == doctest::Approx(fresh.lines[0].value).epsilon(1e-9));
    CHECK(afterFar.lines[0].value == doctest::Approx(nearPlain).epsilon(1e-5));
}

TEST_CASE("limits, stop and threads") {
    const Rules rules;
    const Position pos = Position::startpos(rules);
    Searcher searcher;
    searcher.setOptions({.hashMiB = 4, .threads = 1, .multiPv = 1});

    SUBCASE("a node limit stops the search promptly") {
        Limits l;
        l.nodes = 5000;
        const Report r = searcher.run(pos, l);
        CHECK(pos.isLegal(r.best));
        CHECK(r.nodes <= 5000 + 64);
    }
    SUBCASE("an infinite search ends only on stop, with one report") {
        Limits l;
        l.infinite = true;
        std::atomic<int> done{0};
        std::atomic<int> infos{0};
        Event best;
        searcher.start(
            pos, l, [&](const Info&) { ++infos; },
            [&](const Report& r) {
                best = r.best;
                ++done;
            });
        while (infos.load() == 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        CHECK(searcher.searching());
        searcher.stop();
        searcher.wait();
        CHECK(done.load() == 1);
        CHECK(pos.isLegal(best));
        CHECK_FALSE(searcher.searching());
    }
    SUBCASE("a failed allocation on the search's thread ends that search, not the process") {
        // Under an address-space limit the search's thread may get no memory at all; the
        // progress report stands in for the allocation that fails.
        std::atomic<int> done{0};
        Report report;
        searcher.start(
            pos, depthLimit(3), [](const Info&) { throw std::bad_alloc(); },
            [&](const Report& r) {
                report = r;
                ++done;
            });
        searcher.wait();
        CHECK(done.load() == 1);
        CHECK(report.outOfMemory);
        CHECK(report.best.isNone());
        CHECK_FALSE(searcher.searching());
        const Report next = searcher.run(pos, depthLimit(2));
        CHECK_FALSE(next.outOfMemory);
        CHECK(pos.isLegal(next.best));
    }
    SUBCASE("a movetime search returns by itself") {
        Limits l;
        l.movetimeMs = 50;
        const Report r = searcher.run(pos, l);
        CHECK(pos.isLegal(r.best));
        CHECK(r.depth >= 1);
    }
    SUBCASE("several threads share the table safely") {
        searcher.setOptions({.hashMiB = 4, .threads = 3, .multiPv = 1});
        for (const Position& p : samplePositions(rules, 10, 77)) {
            const Report r = searcher.run(p, depthLimit(4));
            CHECK(p.isLegal(r.best));
            CHECK(std::abs(r.lines[0].value) <= 1.0);
        }
    }
}

// A search stopped in the middle of an iteration still answers what that iteration has
// shown: a decision searched after the last iteration's best, and valued above it at the
// new depth, is played (with that value). Swept over node limits (exact on one thread) that
// stop the search inside its fourth iteration, on a kelly position whose best decision at
// depth 4 is not the one of depth 3.
TEST_CASE("a search stopped inside an iteration plays the decision it showed better") {
    const Rules rules;
    Searcher searcher;
    searcher.setOptions({.hashMiB = 4, .threads = 1, .multiPv = 1});
    std::optional<Position> found;
    Report three, four;
    for (const Position& p : samplePositions(rules, 40, 4242)) {
        searcher.clearHash();
        three = searcher.run(p, depthLimit(3));
        searcher.clearHash();
        four = searcher.run(p, depthLimit(4));
        if (three.best != four.best && four.nodes > 4 * three.nodes) {
            found = p;
            break;
        }
    }
    REQUIRE(found);
    const Position& pos = *found;
    CAPTURE(pos.dfen());

    Searcher ranked;  // every decision's exact value at depth 4
    ranked.setOptions({.hashMiB = 4, .threads = 1, .multiPv = 64});
    const Report all = ranked.run(pos, depthLimit(4));
    const auto valueAt4 = [&](Event e) {
        const auto line = std::ranges::find(all.lines, e, &Line::move);
        REQUIRE(line != all.lines.end());
        return line->value;
    };

    int stoppedInFour = 0, switched = 0;
    constexpr int kSteps = 24;
    for (int k = 0; k < kSteps; ++k) {
        Limits l;
        l.nodes = three.nodes + (four.nodes - three.nodes) * static_cast<std::uint64_t>(k) / kSteps;
        searcher.clearHash();
        const Report r = searcher.run(pos, l);
        CAPTURE(l.nodes);
        REQUIRE(pos.isLegal(r.best));
        if (r.depth != 3) continue;
        ++stoppedInFour;
        if (r.best == three.best) continue;
        ++switched;
        CHECK(valueAt4(r.best) > valueAt4(three.best));
        CHECK(r.lines[0].value == doctest::Approx(valueAt4(r.best)).epsilon(1e-6));
        CHECK(r.lines[0].pv.front() == r.best);
    }
    CHECK(stoppedInFour > kSteps / 2);
    CHECK(switched > 0);
    MESSAGE("node limits stopping the fourth iteration: "
            << stoppedInFour << ", of them " << switched << " played its better decision");
}

// A search stopped inside its first iteration has no finished depth to fall back on: once
// its first decision is searched, it answers with that decision's depth-1 value (before, it
// answered a static evaluation). Kelly positions where the two differ, each stopped at once
// (nothing searched: the static value) and one node before the first iteration ends.
TEST_CASE("a search stopped inside its first iteration answers a searched value") {
    const Rules rules;
    Searcher searcher, ranked;
    searcher.setOptions({.hashMiB = 4, .threads = 1, .multiPv = 1});
    ranked.setOptions({.hashMiB = 4, .threads = 1, .multiPv = 64});
    int found = 0;
    for (const Position& pos : samplePositions(rules, 40, 4343)) {
        CAPTURE(pos.dfen());
        searcher.clearHash();
        const Report one = searcher.run(pos, depthLimit(1));
        ranked.clearHash();
        const Report all = ranked.run(pos, depthLimit(1));
        if (all.lines.size() < 2) continue;
        const auto valueAt1 = [&](Event e) {
            const auto line = std::ranges::find(all.lines, e, &Line::move);
            REQUIRE(line != all.lines.end());
            return line->value;
        };
        Limits atOnce;
        atOnce.nodes = 1;
        searcher.clearHash();
        const Report none = searcher.run(pos, atOnce);
        REQUIRE(none.depth == 0);
        REQUIRE(pos.isLegal(none.best));
        if (none.lines[0].value == doctest::Approx(valueAt1(none.best)).epsilon(1e-9)) continue;
        Limits late;
        late.nodes = one.nodes - 1;
        searcher.clearHash();
        const Report r = searcher.run(pos, late);
        REQUIRE(r.depth == 0);
        CHECK(r.lines[0].value == doctest::Approx(valueAt1(r.best)).epsilon(1e-9));
        CHECK(r.lines[0].pv.front() == r.best);
        found += r.best == none.best;  // the first decision, unbeaten by those after it
    }
    CHECK(found > 0);
    MESSAGE("first decisions answered with their searched value: " << found);
}

// The searcher keeps its threads and their workers from search to search; what a search
// finds must not depend on the searches before it. Each ruleset's Rules is built in the
// same storage, so a worker that kept anything keyed by the Rules' address (its attack
// scores) would order moves for the last ruleset and count other nodes.
TEST_CASE("a search's result does not depend on the searches before it") {
    Searcher used;
    used.setOptions({.hashMiB = 4, .threads = 1, .multiPv = 1});
    std::optional<Rules> rules;
    int compared = 0;
    for (int round = 0; round < 2; ++round) {
        for (const Ruleset r : kRulesets) {
            rules.emplace(Rules::preset(r));
            for (const Position& pos : samplePositions(*rules, 3, 1300 + compared)) {
                used.clearHash();
                const Report again = used.run(pos, depthLimit(4));
                Searcher fresh;
                fresh.setOptions({.hashMiB = 4, .threads = 1, .multiPv = 1});
                const Report first = fresh.run(pos, depthLimit(4));
                CAPTURE(pos.dfen());
                CHECK(again.nodes == first.nodes);
                CHECK(again.best == first.best);
                CHECK(again.lines[0].value == first.lines[0].value);
                ++compared;
            }
        }
    }
    MESSAGE("searches compared with a fresh searcher's: " << compared);
}

TEST_CASE("the thread pool: one job at a time per thread, the same thread every time") {
    ThreadPool pool(3);
    std::array<int, 3> runs{};
    std::array<std::thread::id, 3> first{}, last{};
    for (int round = 0; round < 50; ++round) {
        for (int t = 0; t < 3; ++t)
            pool.launch(t, [&, t, round] {
                ++runs[t];  // only thread t writes these, one job after the other
                last[t] = std::this_thread::get_id();
                if (round == 0) first[t] = last[t];
            });
        if (round % 10 == 0)
            for (int t = 0; t < 3; ++t)
                pool.wait(t);
    }
    for (int t = 0; t < 3; ++t) {
        pool.wait(t);
        CHECK(runs[t] == 50);
        CHECK(first[t] == last[t]);
        CHECK(first[t] != std::this_thread::get_id());
    }
    CHECK(first[0] != first[1]);
    CHECK(first[1] != first[2]);
    // Shrinking joins the threads that go; those that stay keep their identity.
    pool.resize(1);
    CHECK(pool.size() == 1);
    std::thread::id again;
    pool.launch(0, [&] { again = std::this_thread::get_id(); });
    pool.wait(0);
    CHECK(again == first[0]);
    pool.resize(4);
    int ran = 0;
    pool.launch(3, [&] { ++ran; });
    pool.wait(3);
    CHECK(ran == 1);
}

// Helpers and their workers live in the searcher's pool; Threads resizes it between
// searches. The multi-threaded cases of the ThreadSanitizer run.
TEST_CASE("lazy SMP with Threads 2 and 4: the pool across searches, start and stop") {
    const Rules rules;
    const auto positions = samplePositions(rules, 4, 78);
    Searcher searcher;
    for (const int threads : {2, 4}) {
        CAPTURE(threads);
        searcher.setOptions({.hashMiB = 4, .threads = threads, .multiPv = 1});
        for (const Position& p : positions) {
            const Report r = searcher.run(p, depthLimit(4));
            CHECK(p.isLegal(r.best));
            CHECK(r.depth == 4);
            CHECK(std::abs(r.lines[0].value) <= 1.0);
        }
        // Searches started and stopped in turn, each answered exactly once.
        for (int k = 0; k < 6; ++k) {
            const Position& p = positions[static_cast<std::size_t>(k) % positions.size()];
            Limits l;
            l.infinite = k % 2 == 0;
            l.depth = l.infinite ? 0 : 3;
            std::atomic<int> done{0};
            Event best;
            searcher.start(
                p, l, [](const Info&) {},
                [&](const Report& r) {
                    best = r.best;
                    ++done;
                });
            if (l.infinite) {
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
                searcher.stop();
            }
            searcher.wait();
            CHECK(done.load() == 1);
            CHECK(p.isLegal(best));
            CHECK_FALSE(searcher.searching());
        }
    }
    // Down to one thread: the same nodes as a searcher that never had helpers.
    searcher.setOptions({.hashMiB = 4, .threads = 1, .multiPv = 1});
    searcher.clearHash();
    const Report alone = searcher.run(positions[0], depthLimit(4));
    Searcher single;
    single.setOptions({.hashMiB = 4, .threads = 1, .multiPv = 1});
    CHECK(single.run(positions[0], depthLimit(4)).nodes == alone.nodes);
}

TEST_CASE("bench is deterministic") {
    const auto first = runBench(3);
    const auto second = runBench(3);
    CHECK(first.nodes == second.nodes);
    CHECK(first.nodes > 0);
}

TEST_CASE("search values are unchanged under the board's symmetries and the player swap") {
    const auto rulesList = allRules();
    int checked = 0;
    for (std::size_t r = 0; r < rulesList.size(); ++r) {
        int sample = 0;
        for (const Position& pos : samplePositions(rulesList[r], 12, 900 + r)) {
            std::uint64_t nodes = 0;
            const double value = prunedValue(pos, 2, nodes);
            // A different symmetry (with and without the swap) for each sample keeps it quick.
            const Symmetry board = Symmetry::fromIndex(sample++ % Symmetry::kCount);
            for (const bool swap : {false, true}) {
                const Position image = transform(pos, Transform{board, swap});
                CAPTURE(pos.dfen());
                CAPTURE(board.index());
                CAPTURE(swap);
                const double imageValue = prunedValue(image, 2, nodes);
                CHECK(std::abs(imageValue - (swap ? -value : value)) <= 1e-9);
                ++checked;
            }
            // The protocol's view: the decider's value does not depend on who is player 1.
            Searcher searcher;
            searcher.setOptions({.hashMiB = 1, .threads = 1, .multiPv = 1});
            const double decider = searcher.run(pos, depthLimit(2)).lines[0].value;
            searcher.clearHash();
            const Position swapped = transform(pos, Transform{Symmetry(), true});
            CHECK(searcher.run(swapped, depthLimit(2)).lines[0].value ==
                  doctest::Approx(decider).epsilon(1e-5));
        }
    }
    MESSAGE("symmetric searches compared: " << checked);
}

TEST_CASE("a table that cannot be had is refused, and the searcher goes on as it was") {
#if defined(DEJARIK_SANITIZED)
    MESSAGE("skipped under AddressSanitizer and ThreadSanitizer");
#else
    Searcher searcher;
    searcher.setOptions({.hashMiB = 2, .threads = 1, .multiPv = 1});
    // 4 GiB of address space cannot hold an 8 GiB table, whatever memory the machine has.
    rlimit old{};
    REQUIRE(getrlimit(RLIMIT_AS, &old) == 0);
    rlimit tight = old;
    tight.rlim_cur = std::min<rlim_t>(old.rlim_cur, rlim_t{4} << 30);
    REQUIRE(setrlimit(RLIMIT_AS, &tight) == 0);
    bool refused = false;
    try {
        searcher.setOptions({.hashMiB = 8192, .threads = 1, .multiPv = 1});
    } catch (const std::bad_alloc&) {
        refused = true;
    }
    REQUIRE(setrlimit(RLIMIT_AS, &old) == 0);
    CHECK(refused);
    CHECK(searcher.options().hashMiB == 2);

    const Rules kelly;
    const auto pos = Position::startpos(kelly);
    const Report report = searcher.run(pos, depthLimit(3));
    CHECK(report.depth == 3);
    CHECK(pos.isLegal(report.best));
#endif
}

TEST_CASE("Contempt: a search facing a certain quiet draw values it at -contempt") {
    // dalsian, every piece on the safe outer ring, two actions before the quiet draw: no
    // attack can happen, whatever is played.
    const Rules rules = Rules::preset(Ruleset::Dalsian);
    for (const char* dfen :
         {"./............/.KGHS..mlnt. 1 2 78 40", "./............/.KGHS..mlnt. 2 2 78 40"}) {
        CAPTURE(dfen);
        const Position pos = *Position::fromDfen(dfen, rules);
        Searcher searcher;
        searcher.setOptions({.hashMiB = 4, .threads = 1, .multiPv = 1});
        CHECK(searcher.run(pos, depthLimit(3)).lines.at(0).value == 0);
        searcher.setPlay({.contempt = 0.25, .opponent = {}});
        const Report report = searcher.run(pos, depthLimit(3));
        CHECK(report.lines.at(0).value == doctest::Approx(-0.25));
        CHECK(report.lines.at(0).exact);
    }
}

TEST_CASE("Contempt: 0 is the search without it, node for node") {
    const Rules rules = Rules::preset(Ruleset::Kelly);
    for (const Position& pos : samplePositions(rules, 6, 99)) {
        Searcher plain, zero;
        plain.setOptions({.hashMiB = 4, .threads = 1, .multiPv = 1});
        zero.setOptions({.hashMiB = 4, .threads = 1, .multiPv = 1});
        zero.setPlay({.contempt = 0, .opponent = {}});
        const Report a = plain.run(pos, depthLimit(3)), b = zero.run(pos, depthLimit(3));
        CHECK(a.nodes == b.nodes);
        CHECK(a.lines.at(0).value == b.lines.at(0).value);
    }
}

TEST_CASE("Contempt: a draw worth less to the decider never raises its value") {
    // dalsian: hiding on the safe ring is a draw share almost everywhere.
    const Rules rules = Rules::preset(Ruleset::Dalsian);
    int lower = 0;
    for (const Position& pos : samplePositions(rules, 30, 5)) {
        Searcher plain, bold;
        plain.setOptions({.hashMiB = 4, .threads = 1, .multiPv = 1});
        bold.setOptions({.hashMiB = 4, .threads = 1, .multiPv = 1});
        bold.setPlay({.contempt = 0.5, .opponent = {}});
        const Report a = plain.run(pos, depthLimit(2)), b = bold.run(pos, depthLimit(2));
        CHECK(b.lines.at(0).value <= a.lines.at(0).value + 1e-6);
        if (b.lines.at(0).value < a.lines.at(0).value - 0.01) ++lower;
    }
    CHECK(lower > 10);
}

namespace {

// What the reference below plays: for `me`, against `model` (none: minimax), leaves held to
// `cap` (with a model), attacks kept by `attackShare` and leaves moved by `edge`.
struct Reference {
    Player me = Player::One;
    std::optional<Baseline> model;
    ModelCap* cap = nullptr;
    double attackShare = 0;
    double edge = 0;
};

// Expectiminimax with the opponent of `me` replaced by the model: its decisions are the mean
// over baselineChoices, mine the best (without a model, every decider's best), chance nodes
// the mean over the dice, leaves held to the race cap and then moved by the edge. Player 1's
// view.
double referenceValue(const Position& pos, int depth, const Reference& r) {
    if (pos.isOver()) return pos.winProbability(Player::One) - pos.winProbability(Player::Two);
    if (pos.phase() == Phase::Decision && depth <= 0) {
        const double v = eval::evaluate(pos);
        return eval::withEdge(r.cap ? r.cap->apply(pos, v) : v, pos, {r.me, r.edge},
                              eval::kDefaultTunables);
    }
    EventList list;
    if (pos.phase() == Phase::Outcome) {
        pos.generate(list);
        double sum = 0;
        for (const Event o : list) {
            Position child = pos;
            child.apply(o);
            sum += pos.probability(o) * referenceValue(child, depth, r);
        }
        return sum;
    }
    const int next = pos.phase() == Phase::Decision ? depth - 1 : depth;
    if (pos.decider() != r.me && r.model) {
        baselineChoices(*r.model, pos, list);
        double sum = 0;
        for (const Event e : list) {
            Position child = pos;
            child.apply(e);
            sum += referenceValue(child, next, r);
        }
        return sum / list.size();
    }
    pos.generate(list);
    if (pos.decider() == r.me && r.attackShare > 0) dropPoorAttacks(pos, list, r.attackShare);
    const bool maximizing = pos.decider() == Player::One;
    double best = maximizing ? -2 : 2;
    for (const Event e : list) {
        Position child = pos;
        child.apply(e);
        const double v = referenceValue(child, next, r);
        best = maximizing ? std::max(best, v) : std::min(best, v);
    }
    return best;
}

// The searcher's report at `pos` under `play`, the depth it searched, and the reference's
// value at that depth, decider's view, reported as the searcher reports it (without the
// edge at the root).
struct ModelledCheck {
    Report report;
    int searched = 0;
    double expected = 0;
};

ModelledCheck searchAgainstReference(const Position& pos, const Play& play) {
    const int depth = pos.actionsLeft() == 1 ? 2 : 3;
    Searcher searcher;
    searcher.setOptions({.hashMiB = 4, .threads = 1, .multiPv = 1});
    searcher.setPlay(play);
    ModelledCheck c{searcher.run(pos, depthLimit(depth))};
    race::WithoutMoveCache withoutMove;
    c.searched = depth + depthExtension(pos, play, withoutMove);
    std::optional<ModelCap> cap;
    if (play.opponent) cap.emplace(*play.opponent, opponent(pos.decider()));
    const Reference r{pos.decider(), play.opponent, cap ? &*cap : nullptr, play.attackShare,
                      play.edge};
    const double value = referenceValue(pos, c.searched, r);
    c.expected = deciderView(
        pos, c.report.lines.at(0).exact
                 ? value
                 : eval::withEdge(value, pos, {pos.decider(), -play.edge}, eval::kDefaultTunables));
    return c;
}

}  // namespace

TEST_CASE("Opponent model: the search equals expectiminimax with the model's mean") {
    for (const Ruleset r : {Ruleset::Kelly, Ruleset::Holochess}) {
        const Rules rules = Rules::preset(r);
        for (const Baseline model : {Baseline::Random, Baseline::Greedy, Baseline::Cautious}) {
            for (const Position& pos : samplePositions(rules, testing::sampleSize(12, 3), 41)) {
                CAPTURE(pos.dfen());
                const ModelledCheck c =
                    searchAgainstReference(pos, {.contempt = 0, .opponent = model});
                CHECK(c.report.depth == c.searched);
                CHECK(c.report.lines.at(0).value == doctest::Approx(c.expected).epsilon(1e-6));
            }
        }
    }
}

TEST_CASE("Attack share: the search equals expectiminimax over the attacks it keeps") {
    const Rules rules = Rules::preset(Ruleset::Holochess);
    constexpr double kShare = 0.6;
    int differ = 0;
    for (const Baseline model : {Baseline::Random, Baseline::Greedy}) {
        for (const Position& pos : samplePositions(rules, 12, 43)) {
            CAPTURE(pos.dfen());
            const ModelledCheck c = searchAgainstReference(
                pos, {.contempt = 0, .opponent = model, .attackShare = kShare});
            CHECK(c.report.lines.at(0).value == doctest::Approx(c.expected).epsilon(1e-6));
            ModelCap cap(model, opponent(pos.decider()));
            const double all =
                deciderView(pos, referenceValue(pos, c.searched, {pos.decider(), model, &cap}));
            if (std::abs(all - c.expected) > 1e-6) ++differ;
        }
    }
    CHECK(differ > 0);  // the share changed some values: the test can tell
}

TEST_CASE("Edge: the search equals expectiminimax with the edge at its leaves") {
    // Minimax and under a model, with and without the attack share; holochess (every attack a
    // lottery) and kelly.
    constexpr double kEdge = 0.8;
    int differ = 0, compared = 0;
    for (const Ruleset ruleset : {Ruleset::Holochess, Ruleset::Kelly}) {
        const Rules rules = Rules::preset(ruleset);
        for (const std::optional<Baseline> model :
             {std::optional<Baseline>{}, std::optional<Baseline>{Baseline::Random},
              std::optional<Baseline>{Baseline::Greedy}}) {
            for (const Position& pos : samplePositions(rules, testing::sampleSize(8, 3), 47)) {
                CAPTURE(pos.dfen());
                const Play play{.contempt = 0, .opponent = model, .edge = kEdge};
                const ModelledCheck c = searchAgainstReference(pos, play);
                CHECK(c.report.lines.at(0).value == doctest::Approx(c.expected).epsilon(1e-6));
                const ModelledCheck shared = searchAgainstReference(
                    pos, {.contempt = 0, .opponent = model, .attackShare = 0.6, .edge = kEdge});
                CHECK(shared.report.lines.at(0).value ==
                      doctest::Approx(shared.expected).epsilon(1e-6));
                const ModelledCheck without =
                    searchAgainstReference(pos, {.contempt = 0, .opponent = model});
                if (std::abs(c.expected - without.expected) > 1e-6) ++differ;
                ++compared;
            }
        }
    }
    CHECK(2 * differ > compared);  // the edge moved the reference's values: the test can tell
}

TEST_CASE("Edge: 0 is the search without it, node for node; on, a lottery at even odds costs") {
    const Rules rules = Rules::preset(Ruleset::Holochess);
    int lower = 0;
    for (const Position& pos : samplePositions(rules, 10, 61)) {
        // Far from the quiet draw, every leaf has the edge whole, as the root has.
        if (eval::actionsToDraw(pos) < eval::kDefaultTunables.quietHorizon + 3) continue;
        Searcher plain, zero, edged;
        for (Searcher* s : {&plain, &zero, &edged})
            s->setOptions({.hashMiB = 4, .threads = 1, .multiPv = 1});
        zero.setPlay({.contempt = 0, .opponent = {}, .edge = 0});
        edged.setPlay({.contempt = 0, .opponent = {}, .edge = 1});
        const Report a = plain.run(pos, depthLimit(3)), b = zero.run(pos, depthLimit(3));
        CHECK(a.nodes == b.nodes);
        CHECK(a.lines.at(0).value == b.lines.at(0).value);
        // Credited with an edge, the decider values a mean of outcomes below the outcomes'
        // values moved one by one: reported without the edge, its value is never above the
        // plain search's by more than the pruned search's rounding (as in the tests above).
        const Report e = edged.run(pos, depthLimit(3));
        CAPTURE(pos.dfen());
        CHECK(e.lines.at(0).value <= a.lines.at(0).value + 1e-6);
        if (e.lines.at(0).value < a.lines.at(0).value - 0.005) ++lower;
    }
    CHECK(lower > 0);
}

TEST_CASE("Attack share: only attacks below it are dropped, and only while there is a choice") {
    const Rules rules = Rules::preset(Ruleset::Holochess);
    const auto attacks = [](const EventList& list) {
        std::vector<std::string> out;
        for (const Event e : list)
            if (e.kind() == EventKind::Attack) out.push_back(e.token());
        std::sort(out.begin(), out.end());
        return out;
    };
    // The Strider t on c2 is boxed in by S, G and N: a push kills it. The K'lor'slug k on
    // b5 is free: against it, as against t from G and N, a roll of 6 and a roll of 1 are the
    // only ways a piece goes, an even share.
    const Position pos = testing::fromDfen("./.N.Lk......./StG......... 1 2 0 1", rules);
    EventList list;
    pos.generate(list);
    REQUIRE(attacks(list) == std::vector<std::string>{"b2xc2", "b4xb5", "c1xc2", "c3xc2"});
    const int moves = list.size() - 4;
    dropPoorAttacks(pos, list, 0.6);
    CHECK(attacks(list) == std::vector<std::string>{"c1xc2"});
    CHECK(list.size() == moves + 1);
    // 0.5: the even attacks stay.
    pos.generate(list);
    dropPoorAttacks(pos, list, 0.5);
    CHECK(attacks(list).size() == 4);
    // Within kAttackShareLate actions of the quiet draw every attack stays.
    const int late = 2 * rules.drawTurns() - kAttackShareLate;
    const Position near =
        testing::fromDfen("./.N.Lk......./StG......... 1 2 " + std::to_string(late) + " 30", rules);
    near.generate(list);
    dropPoorAttacks(near, list, 0.6);
    CHECK(attacks(list).size() == 4);
    const Position before = testing::fromDfen(
        "./.N.Lk......./StG......... 1 2 " + std::to_string(late - 1) + " 30", rules);
    before.generate(list);
    dropPoorAttacks(before, list, 0.6);
    CHECK(attacks(list).size() == 1);
    // A Ng'ok boxed in, attacks its only actions: they all stay.
    const Position boxed = testing::fromDfen("./h.........../Lt.........m 1 2 0 1", rules);
    boxed.generate(list);
    const int n = list.size();
    REQUIRE(n == static_cast<int>(attacks(list).size()));
    dropPoorAttacks(boxed, list, 0.9);
    CHECK(list.size() == n);

    // The searcher plays what the share allows: where it attacked, at a share of 1 (which
    // no attack under holochess's dice reaches) it moves.
    int attacked = 0;
    for (const Position& p : samplePositions(rules, 40, 47)) {
        CAPTURE(p.dfen());
        Searcher searcher;
        searcher.setOptions({.hashMiB = 4, .threads = 1, .multiPv = 1});
        searcher.setPlay({.contempt = 0, .opponent = Baseline::Random});
        if (searcher.run(p, depthLimit(2)).lines.at(0).move.kind() != EventKind::Attack) continue;
        p.generate(list);
        if (attacks(list).size() == static_cast<std::size_t>(list.size())) continue;
        ++attacked;
        searcher.setPlay({.contempt = 0, .opponent = Baseline::Random, .attackShare = 1.0});
        CHECK(searcher.run(p, depthLimit(2)).lines.at(0).move.kind() != EventKind::Attack);
    }
    CHECK(attacked > 0);
}

TEST_CASE("Opponent model: a depth limit is raised where the modelled side can be boxed in") {
    const Rules rules = Rules::preset(Ruleset::Kelly);
    const auto at = [&](std::string_view dfen) { return testing::fromDfen(dfen, rules); };
    const Play greedy{.contempt = 0, .opponent = Baseline::Greedy};
    race::WithoutMoveCache withoutMove;
    // One piece against three, two against four: on some board they have no move.
    const Position oneByThree = at("./............/.KHG...n.... 1 2 0 1");
    CHECK(depthExtension(oneByThree, greedy, withoutMove) == kBoxingExtension);
    CHECK(depthExtension(at("./............/.KHGM..nt... 1 2 0 1"), greedy, withoutMove) ==
          kBoxingExtension);
    // Never: two against three, the three modelled, no model, Courtier.
    CHECK(depthExtension(at("./............/.KHG...nt... 1 2 0 1"), greedy, withoutMove) == 0);
    CHECK(depthExtension(at("./............/.KHG...n.... 2 2 0 1"), greedy, withoutMove) == 0);
    CHECK(depthExtension(oneByThree, Play{}, withoutMove) == 0);
    const Rules courtier = Rules::preset(Ruleset::Courtier);
    CHECK(depthExtension(Position::startpos(courtier), greedy, withoutMove) == 0);

    Searcher searcher;
    searcher.setOptions({.hashMiB = 4, .threads = 1, .multiPv = 1});
    CHECK(searcher.run(oneByThree, depthLimit(2)).depth == 2);
    searcher.setPlay(greedy);
    CHECK(searcher.run(oneByThree, depthLimit(2)).depth == 2 + kBoxingExtension);
}

TEST_CASE("Opponent model: the cap without boxing in settles what it can, exactly") {
    // apply() skips the board search where the value is under the cap without boxing in;
    // it must give what min(value, cap with boxing in) gives everywhere.
    constexpr double kFloor = -0.999;
    int clipped = 0;
    for (const Ruleset r : {Ruleset::Kelly, Ruleset::Holochess, Ruleset::Dalsian}) {
        const Rules rules = Rules::preset(r);
        for (const Baseline model : {Baseline::Random, Baseline::Greedy, Baseline::Cautious})
            for (const Player modelled : {Player::One, Player::Two}) {
                ModelCap fast(model, modelled), full(model, modelled);
                const double sign = perspective(opponent(modelled));
                for (const Position& pos : samplePositions(rules, testing::sampleSize(30), 53)) {
                    if (pos.isOver()) continue;
                    CAPTURE(pos.dfen());
                    const double cap = full.cap(pos);
                    for (const double value : {-0.9, -0.3, 0.0, 0.3, 0.6, 0.9, 0.99}) {
                        const double expected =
                            sign * std::min(sign * value, std::max(cap, kFloor));
                        CHECK(fast.apply(pos, value) == expected);
                        if (expected != value) ++clipped;
                    }
                }
            }
    }
    CHECK(clipped > 0);  // some values were held: the test can tell
}

TEST_CASE("Opponent model: leaves are held to the race cap") {
    const Rules rules = Rules::preset(Ruleset::Kelly);
    const auto at = [&](std::string_view dfen) { return testing::fromDfen(dfen, rules); };
    // A Sabacc and a Strider against a Ng'ok that greedy never attacks with and that two
    // pieces cannot box in: a draw at best, which the evaluation does not know.
    const Position twoByOne = at("./............/S...T..n.... 1 2 0 1");
    REQUIRE(eval::evaluate(twoByOne) > 0.05);
    ModelCap greedyCap(Baseline::Greedy, Player::Two);
    CHECK(greedyCap.cap(twoByOne) == doctest::Approx(0.0));
    CHECK(greedyCap.apply(twoByOne, 0.3) == doctest::Approx(0.0));
    CHECK(greedyCap.apply(twoByOne, -0.3) == doctest::Approx(-0.3));
    // The cap is the race's (2 score - 1), for either side modelled.
    const std::array<Creature, 2> own = {twoByOne.at(*Cell::parse("c1")).creature(),
                                         twoByOne.at(*Cell::parse("c5")).creature()};
    const std::array<Creature, 1> other = {twoByOne.at(*Cell::parse("c8")).creature()};
    const race::Opponent random;  // every attack
    const auto bound = race::bound(rules, own, other, random);
    REQUIRE(bound);
    const Position mirrored = at("./............/s...t..N.... 2 2 0 1");
    ModelCap randomCap(Baseline::Random, Player::One);
    CHECK(randomCap.cap(mirrored) == doctest::Approx(2 * bound->score - 1));
    CHECK(randomCap.apply(mirrored, -0.9) == doctest::Approx(-0.9));
    CHECK(randomCap.apply(mirrored, -1 + 1e-9) == doctest::Approx(-(2 * bound->score - 1)));
    // Three against one: the Ng'ok can be boxed in and must then attack one of the three
    // around it, the one greedy values most: the cap is that race's, near a win.
    const std::array<Creature, 3> three = {Creature::Savrip, Creature::Strider, Creature::Houjix};
    const auto boxed = race::bound(rules, three, other, raceModel(Baseline::Greedy, rules));
    REQUIRE(boxed);
    CHECK(boxed->score > 0.95);
    CHECK(greedyCap.cap(at("./............/S...TH.n.... 1 2 0 1")) ==
          doctest::Approx(2 * boxed->score - 1));

    Searcher searcher;
    searcher.setOptions({.hashMiB = 4, .threads = 1, .multiPv = 1});
    CHECK(searcher.run(twoByOne, depthLimit(2)).lines.at(0).value > 0.05);
    searcher.setPlay({.contempt = 0, .opponent = Baseline::Greedy});
    CHECK(searcher.run(twoByOne, depthLimit(2)).lines.at(0).value <= 1e-9);
}
