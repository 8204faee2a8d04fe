// The search on Courtier (RULES §14), a chance-free game of one move a turn: the pruned
// search equals plain minimax with and without the table, every node it can meet is a
// decision (no chance node, so Star1/Star2 never run), and the searcher's answers are legal
// tokens, capture choices included, that take a King when it can and keep its own.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "eval.h"
#include "random_positions.h"
#include "search.h"
#include "symmetry.h"
#include "test_search_support.h"

using namespace dejarik;
using namespace dejarik::search;
using testing::deciderView;
using testing::depthLimit;
using testing::samplePositions;

namespace {

const Rules& courtierRules() {
    static const Rules rules = Rules::preset(Ruleset::Courtier);
    return rules;
}

// Every node below `pos` to `depth` moves is a decision point of one move, never a chance
// node or a placement; returns the nodes seen.
std::uint64_t checkChanceFree(const Position& pos, int depth) {
    if (pos.isOver() || depth == 0) return 1;
    REQUIRE(pos.phase() == Phase::Decision);
    REQUIRE(pos.actionsLeft() == 1);
    EventList list;
    pos.generate(list);
    std::uint64_t n = 1;
    for (const Event e : list) {
        REQUIRE((e.kind() == EventKind::Move || e.kind() == EventKind::CaptureMove ||
                 e.kind() == EventKind::Pass));
        Position child = pos;
        child.apply(e);
        // One move is one turn: the other player decides next.
        if (!child.isOver()) REQUIRE(child.decider() == opponent(pos.decider()));
        n += checkChanceFree(child, depth - 1);
    }
    return n;
}

}  // namespace

TEST_CASE("courtier: the tree is chance-free, one decision a turn") {
    std::uint64_t nodes = 0;
    for (const Position& pos : samplePositions(courtierRules(), 20, 11))
        nodes += checkChanceFree(pos, 3);
    CHECK(nodes > 1000);
}

TEST_CASE("courtier: pruned search equals plain minimax (no table)") {
    testing::NodeCounts nodes;
    int compared = 0;
    int sample = 0;
    for (const Position& pos : samplePositions(courtierRules(), 60, 12)) {
        const int maxDepth = sample++ % 6 == 0 ? 5 : 4;
        for (int depth = 1; depth <= maxDepth; ++depth) {
            testing::checkPrunedEqualsPlain(pos, depth, nodes);
            ++compared;
        }
    }
    CHECK(nodes.pruned < nodes.plain);  // alpha-beta really cuts
    MESSAGE("compared " << compared << " searches; nodes plain " << nodes.plain << " pruned "
                        << nodes.pruned);
}

// With the table: a position comes back with the same player to move only after four moves
// (each side's step and its step back), a leaf at depth 4, so the table's values are the
// plain ones to the floats' rounding (as in test_search.cpp).
TEST_CASE("courtier: the searcher at depth 4 equals plain minimax") {
    constexpr int kDepth = 4;
    constexpr double kTolerance = kDepth * 0x1p-25;
    Searcher searcher;
    searcher.setOptions({.hashMiB = 4, .threads = 1, .multiPv = 1});
    for (const Position& pos : samplePositions(courtierRules(), 30, 13)) {
        std::uint64_t nodes = 0;
        const double plain = deciderView(pos, expectiminimax(pos, kDepth, nodes));
        searcher.clearHash();
        const Report report = searcher.run(pos, depthLimit(kDepth));
        CAPTURE(pos.dfen());
        REQUIRE(report.depth == kDepth);
        REQUIRE(pos.isLegal(report.best));
        CHECK(report.lines[0].pv.front() == report.best);
        CHECK(std::abs(report.lines[0].value - plain) <= kTolerance);
        const auto& wdl = report.lines[0].wdl;
        CHECK(wdl[0] + wdl[1] + wdl[2] == 1000);
    }
}

TEST_CASE("courtier: the searcher takes the King, with a capture choice when it must") {
    Searcher searcher;
    searcher.setOptions({.hashMiB = 4, .threads = 1, .multiPv = 1});
    SUBCASE("c7-b7 takes the King on b6 (PERFT.md 'king')") {
        const Position pos =
            testing::fromDfen("./..u.Uw..u..U/W....UU..u.. 1 1 0 1", courtierRules());
        const Report report = searcher.run(pos, depthLimit(3));
        Position after = pos;
        after.apply(report.best);
        CHECK(after.result() == Result::Player1Wins);
        CHECK(report.lines[0].value == 1.0);
        CHECK(report.lines[0].exact);
    }
    SUBCASE("the King among three candidates: b9-axb3") {
        const Position pos =
            testing::fromDfen("./u.w.u...U.../U.U.U...W.u. 1 1 0 1", courtierRules());
        const Report report = searcher.run(pos, depthLimit(2));
        CHECK(report.best.token() == "b9-axb3");
        CHECK(report.lines[0].value == 1.0);
    }
    SUBCASE("player 2 keeps its King out of a sandwich") {
        // Player 1 threatens c5-c6, closing c6 c7 c8 on the King; player 2 must parry.
        const Position pos =
            testing::fromDfen("./............/W...U.wU...u 2 1 0 1", courtierRules());
        std::uint64_t threat = 0;
        REQUIRE(expectiminimax(*playTokens(pos, "c12-c11"), 1, threat) == 1.0);
        const Report report = searcher.run(pos, depthLimit(4));
        Position after = pos;
        after.apply(report.best);
        std::uint64_t nodes = 0;
        CHECK(expectiminimax(after, 1, nodes) < 1.0);  // player 1 cannot take it next
        CHECK(report.lines[0].value > -1.0);
    }
}

TEST_CASE("courtier: the evaluator is colour-symmetric, board-symmetric and explains itself") {
    int compared = 0;
    for (const Position& pos : samplePositions(courtierRules(), 200, 14)) {
        const double v = eval::evaluate(pos);
        CAPTURE(pos.dfen());
        REQUIRE(std::abs(v) < 1.0);
        const eval::Breakdown b = eval::explain(pos);
        CHECK(b.value == v);
        REQUIRE(b.terms.size() == 5);
        const auto wdl = eval::wdl(pos, v);
        CHECK(wdl[0] + wdl[1] + wdl[2] == 1000);
        CHECK(wdl[0] - wdl[2] == std::lround(1000 * v));
        for (const Symmetry s : Symmetry::all()) {
            CHECK(eval::evaluate(transform(pos, Transform{s, false})) == v);
            CHECK(eval::evaluate(transform(pos, Transform{s, true})) == -v);
        }
        ++compared;
    }
    CHECK(compared == 200);
}
