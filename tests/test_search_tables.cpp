// The search with the endgame tables: exact root values where the tables answer under
// DrawTurns 0, the same search as without them where no node they know is reachable, and
// the quiet draw's scaling under DrawTurns N.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>

#include "search/bench.h"
#include "search/search.h"
#include "tables/generate.h"
#include "tables/index.h"
#include "tables/tablebase.h"
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
            const Rules rules(b.ruleOptions());
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

    TEST_CASE("under DrawTurns N the value counts as an evaluation, scaled near the draw") {
        const Rules rules = testing::rulesOf(Ruleset::Kelly, {"DrawTurns=40"});
        SmallTables st(rules);
        std::optional<Position> found;
        for (const Position& p : statesOf(*st.tb, "SG v h", rules, 20))
            if (!found && std::abs(*st.tb->probe(p)) > 0.1) found = p;
        REQUIRE(found);
        const Position base = *found;
        const double v = *st.tb->probe(base);
        for (const int quiet : {0, 40, 60, 70}) {
            std::string dfen = base.dfen();
            // The quiet counter is the DFEN's fourth field.
            std::vector<std::string> f;
            for (std::size_t at = 0; at != std::string::npos;) {
                const auto sp = dfen.find(' ', at);
                f.push_back(dfen.substr(at, sp == std::string::npos ? sp : sp - at));
                at = sp == std::string::npos ? sp : sp + 1;
            }
            f[3] = std::to_string(quiet);
            std::string joined;
            for (const auto& x : f)
                joined += (joined.empty() ? "" : " ") + x;
            std::string error;
            const auto pos = Position::fromDfen(joined, rules, &error);
            REQUIRE_MESSAGE(pos, error);
            std::uint64_t nodes = 0;
            const double got = prunedValue(*pos, 2, nodes, st.tb.get());
            const int left = 80 - quiet;
            const double scale = left >= kTableDrawMargin ? 1.0 : double(left) / kTableDrawMargin;
            CHECK(got == doctest::Approx(v * scale).epsilon(1e-12));
            CHECK(nodes == 1);  // the root itself answered
            Searcher s;
            s.setOptions({.hashMiB = 1});
            s.setTables(st.tb);
            CHECK_FALSE(s.run(*pos, {.depth = 2}).lines.front().exact);
        }
    }
}
