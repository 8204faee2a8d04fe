// The search with the endgame tables: exact root values where the tables answer under
// DrawTurns 0, the same search as without them where no node they know is reachable, and
// under DrawTurns N, where they are not probed.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>

#include "bench.h"
#include "generate.h"
#include "index.h"
#include "search.h"
#include "tablebase.h"
#include "test_tables_support.h"

using namespace dejarik;
using namespace dejarik::search;

namespace {

// Small kelly sets (2v1 and one 3v1 set's worth of 2v1 captures), generated once per test
// into a temporary folder.
struct SmallTables {
    testing::TempDir dir;
    std::shared_ptr<tables::Tablebase> tb;
    explicit SmallTables(const Rules& rules) {
        tb = std::make_shared<tables::Tablebase>(dir.path(), rules);
        std::vector<tables::Material> sets;
        for (const char* name : {"SG v h", "KL v s", "TN v m"}) {
            std::string error;
            const auto m = tables::parseMaterial(name, &error);
            REQUIRE_MESSAGE(m, error);
            sets.push_back(m->canonical());
        }
        (void)tables::generate(*tb, sets, {}, {});
    }
};

// Decision states of a set spread over its index, as positions under `rules`.
std::vector<Position> statesOf(const tables::Tablebase& tb, const char* set, const Rules& rules,
                               int count) {
    std::string error;
    const auto m = tables::parseMaterial(set, &error)->canonical();
    const tables::Table* t = tb.table(m);
    REQUIRE(t);
    std::vector<Position> out;
    const std::uint32_t n = t->layout.size();
    for (std::uint32_t i = 0; static_cast<int>(out.size()) < count && i < n;
         i += n / static_cast<std::uint32_t>(count) + 1) {
        const auto pos = Position::fromDfen(tables::stateDfen(m, t->layout, i), rules, &error);
        REQUIRE_MESSAGE(pos, error);
        if (!pos->isOver() && pos->phase() != Phase::Outcome) out.push_back(*pos);
    }
    return out;
}

}  // namespace

TEST_SUITE("search-tables") {
    TEST_CASE("under DrawTurns 0 the root value is the table's, exact; without tables not") {
        const Rules rules = testing::rulesOf(Ruleset::Kelly, {"DrawTurns=0"});
        SmallTables st(rules);
        int notExactWithout = 0, total = 0;
        for (const char* set : {"SG v h", "KL v s", "TN v m"}) {
            for (const Position& pos : statesOf(*st.tb, set, rules, 12)) {
                CAPTURE(pos.dfen());
                const double want = *st.tb->probeForDecider(pos);
                for (const int depth : {2, 3}) {
                    Searcher with;
                    with.setOptions({.hashMiB = 1});
                    with.setTables(st.tb);
                    const Report r = with.run(pos, {.depth = depth});
                    REQUIRE(!r.lines.empty());
                    CHECK(r.lines.front().exact);
                    // The root is the best of its children's stored values: within the
                    // stored precision of the root's own value.
                    CHECK(std::abs(r.lines.front().value - want) <= tables::kVerifyTolerance);
                }
                Searcher without;
                without.setOptions({.hashMiB = 1});
                const Report r = without.run(pos, {.depth = 2});
                ++total;
                if (!r.lines.front().exact) ++notExactWithout;
            }
        }
        // Without the tables a depth-2 search proves a value only where every line ends the
        // game within it.
        CHECK(notExactWithout > total / 2);
    }

    TEST_CASE("more than four creatures: the same search with and without tables") {
        // Eight creatures: three actions capture at most three, so no node of depth 3 has
        // four creatures or fewer, and the tables are never asked.
        const Rules any = testing::rulesOf(Ruleset::Kelly, {"DrawTurns=0"});
        SmallTables st(any);
        int checked = 0;
        for (const BenchPosition& b : benchPositions()) {
            RuleOptions options = b.ruleOptions();
            REQUIRE_FALSE(options.setAssignment("DrawTurns=0"));  // where the tables are probed
            const Rules rules(options);
            std::string error;
            const auto pos = Position::fromDfen(std::string(b.dfen), rules, &error);
            REQUIRE_MESSAGE(pos, error);
            if (pos->occupied().count() < 8 || pos->phase() == Phase::Outcome) continue;
            // The tablebase of the position's own rules: empty unless they are st's.
            const tables::Tablebase own(st.dir.path(), rules);
            for (const int depth : {3, 4}) {
                if (depth == 4 && checked > 6) break;  // depth 4 on a few: CI time
                std::uint64_t nodesWith = 0, nodesWithout = 0;
                const double with = prunedValue(*pos, depth, nodesWith, &own);
                const double without = prunedValue(*pos, depth, nodesWithout);
                CHECK(nodesWith == nodesWithout);
                CHECK(with == without);
            }
            ++checked;
        }
        CHECK(checked > 3);
    }

    TEST_CASE("under DrawTurns N the tables are not probed: the same search as without") {
        const Rules rules = testing::rulesOf(Ruleset::Kelly, {"DrawTurns=40"});
        SmallTables st(rules);
        int checked = 0;
        for (const Position& pos : statesOf(*st.tb, "KL v s", rules, 20)) {
            REQUIRE(st.tb->probe(pos));  // the tables know it, the search must not ask
            std::uint64_t nodesWith = 0, nodesWithout = 0;
            const double with = prunedValue(pos, 3, nodesWith, st.tb.get());
            const double without = prunedValue(pos, 3, nodesWithout);
            CHECK(nodesWith == nodesWithout);
            CHECK(with == without);
            Searcher s;
            s.setOptions({.hashMiB = 1});
            s.setTables(st.tb);
            const Report r = s.run(pos, {.depth = 2});
            Searcher plain;
            plain.setOptions({.hashMiB = 1});
            const Report p = plain.run(pos, {.depth = 2});
            CHECK(r.nodes == p.nodes);
            CHECK(r.lines.front().value == p.lines.front().value);
            ++checked;
        }
        CHECK(checked > 10);
    }
}
