// The search with the endgame tables: exact root values where the tables answer under
// DrawTurns 0, the same search as without them where no node they know is reachable, and
// under DrawTurns N faded values, never exact, only where the draw does not come first.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <random>
#include <sstream>

#include "bench.h"
#include "generate.h"
#include "index.h"
#include "model_cap.h"
#include "search.h"
#include "symmetry.h"
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
    explicit SmallTables(const Rules& rules, std::initializer_list<const char*> names = {
                                                 "SG v h", "KL v s", "TN v m"}) {
        tb = std::make_shared<tables::Tablebase>(dir.path(), rules);
        std::vector<tables::Material> sets;
        for (const char* name : names) {
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

// The same position with another quiet counter (the fourth DFEN field).
Position quietAt(const Position& pos, int quiet) {
    std::vector<std::string> fields;
    std::string dfen = pos.dfen(), field;
    for (std::istringstream in(dfen); in >> field;)
        fields.push_back(field);
    REQUIRE(fields.size() >= 5);
    fields[3] = std::to_string(quiet);
    std::string joined;
    for (const auto& f : fields)
        joined += (joined.empty() ? "" : " ") + f;
    std::string error;
    const auto out = Position::fromDfen(joined, pos.rules(), &error);
    REQUIRE_MESSAGE(out, error);
    return *out;
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

    TEST_CASE("a set of five: the root of five creatures is the table's, exact") {
        // Creatures that move one cell: the cheapest set of five to make (seconds).
        const Rules rules = testing::rulesOf(Ruleset::Kelly, {"DrawTurns=0"});
        SmallTables st(rules, {"HHN v hn"});
        REQUIRE(st.tb->maxPieces() == 5);
        int checked = 0;
        for (const Position& pos : statesOf(*st.tb, "HHN v hn", rules, 8)) {
            if (pos.occupied().count() != 5) continue;
            CAPTURE(pos.dfen());
            const double want = *st.tb->probeForDecider(pos);
            Searcher with;
            with.setOptions({.hashMiB = 1});
            with.setTables(st.tb);
            const Report r = with.run(pos, {.depth = 2});
            REQUIRE(!r.lines.empty());
            CHECK(r.lines.front().exact);
            CHECK(std::abs(r.lines.front().value - want) <= tables::kVerifyTolerance);
            ++checked;
        }
        CHECK(checked >= 6);
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

    TEST_CASE(
        "under DrawTurns N a table value counts faded by its distance while its attack "
        "comes before the draw, never exact (kelly, and holochess where the loser's attacks "
        "once set the distance)") {
        for (const Ruleset ruleset : {Ruleset::Kelly, Ruleset::Holochess}) {
            CAPTURE(ruleset);
            const Rules rules = testing::rulesOf(ruleset, {"DrawTurns=40"});
            SmallTables st(rules);
            int reachable = 0, beyond = 0;
            for (const Position& start : statesOf(*st.tb, "KL v s", rules, 40)) {
                const auto t = st.tb->probeWithDistance(start);
                REQUIRE(t);
                if (t->value == 0) continue;
                // From a quiet counter of 0 the attack comes long before the draw: the root is
                // answered at once, the value faded by the distance.
                std::uint64_t nodes = 0;
                const double v = prunedValue(start, 3, nodes, st.tb.get());
                CHECK(nodes == 1);
                CHECK(v ==
                      doctest::Approx(t->value * std::pow(kTableFade, t->distance)).epsilon(1e-12));
                Searcher s;
                s.setOptions({.hashMiB = 1});
                s.setTables(st.tb);
                const Report r = s.run(start, {.depth = 2});
                CHECK_FALSE(r.lines.front().exact);
                ++reachable;
                // With the draw as near as the distance or nearer, the table does not answer
                // there: the search goes on below (where attacks reset the counter).
                if (t->distance == 0) continue;
                const auto late = quietAt(start, 80 - t->distance);
                nodes = 0;
                (void)prunedValue(late, 3, nodes, st.tb.get());
                CHECK(nodes > 1);
                // One action earlier it answers, faded by the quiet count at which the attack
                // comes (79), not by the distance alone.
                const auto early = quietAt(start, 79 - t->distance);
                nodes = 0;
                const double faded = prunedValue(early, 3, nodes, st.tb.get());
                CHECK(nodes == 1);
                CHECK(faded == doctest::Approx(t->value * std::pow(kTableFade, 79)).epsilon(1e-12));
                ++beyond;
            }
            CHECK(reachable > 10);
            CHECK(beyond > 5);
        }
    }

    TEST_CASE(
        "holochess, four creatures: the root is the probe's value under every symmetry, "
        "the colour swap and either action, and the best of its children's") {
        // What holochess alone has (split-d6, BlockedPush kill, CentreStraight, its ratings)
        // must not break an assumption of the tables or of their use: at random states of a
        // 2v2 and a 3v1 set, seen through a random symmetry and maybe with the colours
        // swapped, the probe is the same, the search's proven root value is the probe's, and
        // the probe is the best over the decider's choices of its children's probes (the
        // chance and placement nodes below derived, the value's sign at each kind of node).
        const Rules rules = testing::rulesOf(Ruleset::Holochess, {"DrawTurns=0"});
        SmallTables st(rules, {"SL v hk", "N v mht"});
        std::mt19937_64 rng(9);
        int checked = 0, secondActions = 0, decisive = 0;
        for (const char* set : {"SL v hk", "N v mht"}) {
            for (const Position& state : statesOf(*st.tb, set, rules, 30)) {
                const auto want = st.tb->probeForDecider(state);
                REQUIRE(want);
                const Transform t{Symmetry::fromIndex(static_cast<int>(rng() % 24)),
                                  (rng() & 1) != 0};
                const Position pos = transform(state, t);
                CAPTURE(pos.dfen());
                const auto seen = st.tb->probeForDecider(pos);
                REQUIRE(seen);
                CHECK(*seen == *want);

                Searcher s;
                s.setOptions({.hashMiB = 1});
                s.setTables(st.tb);
                const Report r = s.run(pos, {.depth = 2});
                REQUIRE(!r.lines.empty());
                CHECK(r.lines.front().exact);
                CHECK(std::abs(r.lines.front().value - *want) <= tables::kVerifyTolerance);

                CHECK(testing::bellmanGap(*st.tb, pos) <= tables::kVerifyTolerance);
                ++checked;
                secondActions += pos.actionsLeft() == 1 ? 1 : 0;
                decisive += std::abs(*want) > 0.3 ? 1 : 0;
            }
        }
        CHECK(checked > 40);
        CHECK(secondActions > 5);  // both actions of a turn are among them
        CHECK(decisive > 10);      // not a comparison of zeros
    }

    TEST_CASE("the race cap of an opponent model never falls below a table's exact value") {
        // Against a fixed player a side scores at least the game's minimax value, which the
        // tables hold; the cap bounds what it scores against the model from above. A cap
        // below a table value is a race that misses an attack the model may make.
        for (const Ruleset r : {Ruleset::Kelly, Ruleset::Dalsian}) {
            const Rules rules = testing::rulesOf(r, {"DrawTurns=0"});
            SmallTables st(rules);
            int checked = 0, below = 0;
            for (const Baseline model : {Baseline::Random, Baseline::Greedy, Baseline::Cautious})
                for (const Player modelled : {Player::One, Player::Two}) {
                    ModelCap cap(model, modelled);
                    const Player free = opponent(modelled);
                    for (const char* set : {"SG v h", "KL v s", "TN v m"}) {
                        for (const Position& pos : statesOf(*st.tb, set, rules, 20)) {
                            CAPTURE(pos.dfen());
                            const double forDecider = *st.tb->probeForDecider(pos);
                            const double forFree = pos.decider() == free ? forDecider : -forDecider;
                            CHECK(forFree <= cap.cap(pos) + tables::kVerifyTolerance);
                            ++checked;
                            if (cap.cap(pos) < 1) ++below;
                        }
                    }
                }
            CHECK(checked > 100);
            CHECK(below > 0);  // the cap bites somewhere, or the test shows nothing
        }
    }
    TEST_CASE("under an opponent model only decisive table values count") {
        // The tables assume optimal play by the modelled side; a value short of decisive is
        // searched below, so the root is no longer proven by the tables alone. (Dalsian:
        // a piece on its safe outer ring is never attacked, so many values there are 0;
        // kelly's small sets here are all decisive.)
        const Rules rules = testing::rulesOf(Ruleset::Dalsian, {"DrawTurns=0"});
        SmallTables st(rules);
        int open = 0, notExact = 0;
        for (const char* set : {"SG v h", "KL v s", "TN v m"}) {
            for (const Position& pos : statesOf(*st.tb, set, rules, 20)) {
                if (std::abs(*st.tb->probeForDecider(pos)) >= kModelledTableDecisive) continue;
                CAPTURE(pos.dfen());
                Searcher s;
                s.setOptions({.hashMiB = 1});
                s.setTables(st.tb);
                s.setPlay({.opponent = Baseline::Greedy});
                const Report r = s.run(pos, {.depth = 2});
                REQUIRE(!r.lines.empty());
                ++open;
                if (!r.lines.front().exact) ++notExact;
            }
        }
        // Were every table value used, each of these roots would be proven at depth 2.
        CHECK(open > 5);
        CHECK(notExact > open / 2);
    }
}
