// The endgame tables' values: against an independent full-depth expectiminimax, the
// Bellman equations at every kind of node, the board symmetries and the colour swap, the
// showdown odds, verify, and perft with probes.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "file.h"
#include "perft.h"
#include "random_positions.h"
#include "symmetry.h"
#include "test_tables_support.h"

namespace dejarik::testing {

using tables::kVerifyTolerance;
using tables::Material;
using tables::Tablebase;

namespace {

// The kelly sets of four the suites use besides every mix's sets of three: one 2v2 and
// one 3v1 (with their captures).
const Tablebase& kellyFours() {
    return sharedRoot().with(Rules(), {"SL v hk", "l v GHK"});
}

// A decision position of a set: a random state, seen through a random symmetry and maybe
// with the colours swapped.
Position randomPosition(const Tablebase& tb, const Material& m, std::mt19937_64& rng) {
    const tables::Table* t = tb.table(m);
    REQUIRE(t);
    const auto state = static_cast<std::uint32_t>(rng() % t->layout.size());
    const auto pos = Position::fromDfen(tables::stateDfen(m, t->layout, state), tb.rules());
    REQUIRE(pos);
    return transform(*pos, {Symmetry::fromIndex(static_cast<int>(rng() % 24)), (rng() & 1) != 0});
}

std::vector<const Tablebase*> everyTestBase() {
    std::vector<const Tablebase*> out;
    for (const Mix& mix : testMixes())
        out.push_back(&tablesOf(mix));
    out.push_back(&kellyFours());
    return out;
}

}  // namespace

TEST_SUITE("tables") {
    TEST_CASE("tables agree with full-depth expectiminimax under a quiet draw of 40 actions") {
        // The reference is the real game with DrawTurns 20, solved to the end by backward
        // induction over (state, quiet counter, attacks left); once no forced line needs more
        // than 40 quiet actions it has the tables' value, which leaves endless play at 0.
        int nonTrivial = 0;
        for (const Mix& mix : testMixes()) {
            const Tablebase& tb = tablesOf(mix);
            for (const auto& name : mix.sets) {
                const Material m = material(name).canonical();
                const ReferenceGame game(m, tb);
                const auto reference = game.quietDrawValues(40, 1000);
                double worst = 0;
                for (std::uint32_t i = 0; i < game.size(); ++i) {
                    const auto v = tb.stateValue(m, i);  // stored, or derived from stored states
                    REQUIRE(v);
                    worst = std::max(worst, std::abs(reference[i] - *v));
                    nonTrivial += std::abs(*v) > 0.05 ? 1 : 0;
                }
                INFO(mix.name << " " << m.name());
                CHECK(worst <= kVerifyTolerance);
            }
        }
        CHECK(nonTrivial > 10000);  // not a comparison of zeros
    }

    TEST_CASE(
        "plain value iteration: right from 0, a wrong fixed point from 1 that verify rejects") {
        const Rules rules;
        const Tablebase& tb = tablesOf(testMixes()[0]);
        const Material m = material("KL v s");
        const ReferenceGame game(m, tb);
        const tables::Table* t = tb.table(m);
        const auto fromZero = game.naiveValues(3000, 0.0);
        const auto fromOne = game.naiveValues(3000, 1.0);
        const auto fromOneMore = game.naiveValues(3001, 1.0);
        double zeroGap = 0, oneGap = 0, oneStep = 0;
        for (std::uint32_t i = 0; i < game.size(); ++i) {
            zeroGap = std::max(zeroGap, std::abs(fromZero[i] - t->value(i)));
            oneGap = std::max(oneGap, std::abs(fromOne[i] - t->value(i)));
            oneStep = std::max(oneStep, std::abs(fromOneMore[i] - fromOne[i]));
        }
        CHECK(zeroGap <= kVerifyTolerance);
        // From 1 the iteration settles (a fixed point of the Bellman equations) elsewhere: a
        // side that can stall is credited with the attack it never has to face.
        CHECK(oneStep < 1e-12);
        CHECK(oneGap > 1e-3);

        // Stored as a table, that fixed point passes every Bellman check, but not verify.
        TempDir root;
        Tablebase wrong(root.path(), rules);
        REQUIRE(t->layout.storedSize() == fromOne.size());  // kelly: no holds, all stored
        std::vector<std::int16_t> stored;
        for (const double v : fromOne)
            stored.push_back(tables::encodeValue(v));
        tables::writeTable(wrong.fileOf(m), t->file->header(), stored,
                           std::vector<std::uint8_t>(stored.size()));
        REQUIRE(wrong.load(m));
        std::mt19937_64 rng(3);
        for (int i = 0; i < 300; ++i)
            CHECK(bellmanGap(wrong, randomPosition(wrong, m, rng)) <= kVerifyTolerance);
        const auto result = tables::verify(wrong, m);
        CHECK_FALSE(result.ok);
        CHECK(result.deviation > 1e-3);
        CHECK(tables::verify(tb, m).ok);
    }

    TEST_CASE("Bellman equations hold at random states of every set, through any symmetry") {
        std::mt19937_64 rng(17);
        for (const Tablebase* tb : everyTestBase()) {
            for (const Material& m : tb->sets()) {
                INFO(tables::ruleAssignments(tb->rules()) << " " << m.name());
                double worst = 0;
                for (int i = 0; i < 150; ++i)
                    worst = std::max(worst, bellmanGap(*tb, randomPosition(*tb, m, rng)));
                CHECK(worst <= kVerifyTolerance);
            }
        }
    }

    TEST_CASE("symmetric positions get identical values, the colour swap negated") {
        std::mt19937_64 rng(23);
        int positions = 0, phases[3] = {0, 0, 0};
        for (const Tablebase* tb : everyTestBase()) {
            for (const Material& m : tb->sets()) {
                for (int i = 0; i < 20; ++i) {
                    // A few random events on, to reach chance and placement nodes too.
                    const auto walk = randomWalk(randomPosition(*tb, m, rng), 6, rng,
                                                 [](const Position& p) { return !p.isOver(); });
                    for (const Position& pos : walk) {
                        if (pos.occupied().count() < 3) continue;
                        const auto v = tb->probe(pos);
                        REQUIRE(v);
                        ++positions;
                        ++phases[static_cast<int>(pos.phase())];
                        for (const Symmetry g : Symmetry::all()) {
                            for (const bool swap : {false, true}) {
                                const auto w = tb->probe(transform(pos, {g, swap}));
                                REQUIRE(w);
                                REQUIRE_MESSAGE(*w == (swap ? -*v : *v), pos.dfen() << " under "
                                                                                    << g.index()
                                                                                    << " " << swap);
                            }
                        }
                    }
                }
            }
        }
        CHECK(positions > 1000);
        CHECK(phases[static_cast<int>(Phase::Outcome)] > 50);
        CHECK(phases[static_cast<int>(Phase::Placement)] > 20);
    }

    TEST_CASE("showdowns are worth 2p - 1 of the exact odds, in every ruleset") {
        TempDir empty;
        for (const Ruleset r : kRulesets) {
            const Rules rules = Rules::preset(r);
            const Tablebase tb(empty.path(), rules);
            for (int a = 0; a < kCreatureCount; ++a) {
                for (int d = 0; d < kCreatureCount; ++d) {
                    std::string dfen = "./............/............ 1 2 0 1";
                    dfen[2] = Piece(Player::One, static_cast<Creature>(a)).letter();
                    dfen[8] = Piece(Player::Two, static_cast<Creature>(d)).letter();
                    const Position pos = fromDfen(dfen, rules);
                    REQUIRE(pos.result() == Result::Showdown);
                    const auto odds =
                        rules.showdown(static_cast<Creature>(a), static_cast<Creature>(d));
                    const Fraction p = odds.exact.p1Wins();
                    const double expected =
                        odds.exact.drawn()
                            ? 0.0
                            : static_cast<double>(2 * static_cast<long double>(p.num) /
                                                      static_cast<long double>(p.den) -
                                                  1);
                    const auto v = tb.probe(pos);
                    REQUIRE(v);
                    CHECK(*v == doctest::Approx(expected).epsilon(1e-15));
                }
            }
        }
        // Inside a table: a lone defender's last piece killed leaves a showdown, whose value the
        // chance node adds exactly (kelly KL v s: K on b1 attacks s on b2, L far away).
        const Tablebase& tb = tablesOf(testMixes()[0]);
        const Position attack =
            fromDfen("./Ks........../.....L...... 1 2 0 1", tb.rules(), "b1xb2");
        double expected = 0;
        EventList outcomes;
        attack.generate(outcomes);
        for (const Event o : outcomes) {
            Position after = attack;
            after.apply(o);
            expected += attack.probability(o) * *tb.probe(after);
            if (o.outcome() == Outcome::CounterKill) {
                const auto odds = tb.rules().showdown(Creature::Molator, Creature::Savrip).exact;
                CHECK(*tb.probe(after) ==
                      doctest::Approx(2 * odds.p1Wins().value() - 1).epsilon(1e-15));
            }
        }
        CHECK(*tb.probe(attack) == doctest::Approx(expected).epsilon(1e-12));
    }

    TEST_CASE("every generated set verifies and certified its residual") {
        int sets = 0;
        for (const Tablebase* tb : everyTestBase()) {
            CHECK(tb->problems().empty());
            for (const Material& m : tb->sets()) {
                const auto r = tables::verify(*tb, m);
                INFO(tables::ruleAssignments(tb->rules()) << " " << m.name() << ": " << r.problem);
                CHECK(r.ok);
                const auto& h = tb->table(m)->file->header();
                CHECK(h.converged);
                CHECK(h.residual < 1e-9);
                CHECK(h.storedResidual <= kVerifyTolerance);
                CHECK(h.contraction > 0);
                CHECK(h.contraction <= 1);
                ++sets;
            }
        }
        CHECK(sets >= 25);
    }

    namespace {

    // Perft with a probe at every node; probes of positions with more creatures than the
    // tables hold must answer nothing.
    std::uint64_t probedPerft(const Tablebase& tb, const Position& pos, int depth, int& answered) {
        const auto v = tb.probe(pos);
        if (pos.occupied().count() > tb.maxPieces()) CHECK_FALSE(v);
        answered += v ? 1 : 0;
        if (depth == 0) return 1;
        EventList events;
        pos.generate(events);
        std::uint64_t n = 0;
        for (const Event e : events) {
            Position child = pos;
            child.apply(e);
            n += probedPerft(tb, child, depth - 1, answered);
        }
        return n;
    }

    }  // namespace

    TEST_CASE("probing never changes perft") {
        const Tablebase& tb = kellyFours();
        int answered = 0;
        const Position start = Position::startpos(tb.rules());
        CHECK(probedPerft(tb, start, 4, answered) == perft(start, 4));
        CHECK(answered == 0);
        const Position four = fromDfen("S/.h..L......./..k......... 1 2 0 1", tb.rules());
        CHECK(probedPerft(tb, four, 3, answered) == perft(four, 3));
        CHECK(answered > 1000);
        // A 5-creature position: nothing, though its captures lead into the tables.
        const Position five = fromDfen("S/.hG.L......./..k......... 1 2 0 1", tb.rules());
        CHECK_FALSE(tb.probe(five));
    }

    TEST_CASE("a set of five: generated, verified, probed through the symmetries, where loaded") {
        // 4 v 1 (side A's fourth creature has a header byte of its own), of creatures that
        // move one cell: the cheapest set of five to make.
        TempDir root;
        const Rules rules;
        Tablebase tb(root.path(), rules);
        // Without a set of five the tables look at four creatures at most.
        CHECK(tb.maxPieces() == tables::kDefaultMaxPieces);
        const Position five = fromDfen("./HNH........./.....hN..... 1 2 0 1", rules);
        CHECK_FALSE(tb.probe(five));
        const Material m = material("HHNN v h");
        tables::GenerateOptions options;
        options.threads = 2;
        const auto results = tables::generate(tb, {m}, options, nullptr);
        CHECK(results.size() == 1 + 2 + 3);  // the set, HHN v h and HNN v h, and 2v1
        CHECK(tb.maxPieces() == 5);
        const tables::Table* t = tb.table(m);
        REQUIRE(t);
        CHECK(t->layout.storedSize() == 4 * 265680);
        const auto& h = t->file->header();
        CHECK(h.converged);
        CHECK(h.residual < 1e-9);
        const auto verified = tables::verify(tb, m);
        INFO(verified.problem);
        CHECK(verified.ok);
        // Values satisfy their equations wherever the position is seen from.
        std::mt19937_64 rng(5);
        double worst = 0;
        for (int i = 0; i < 200; ++i)
            worst = std::max(worst, bellmanGap(tb, randomPosition(tb, m, rng)));
        CHECK(worst <= kVerifyTolerance);
        const auto v = tb.probe(five);
        REQUIRE(v);
        CHECK(*tb.probe(transform(five, {Symmetry::fromIndex(7), true})) == doctest::Approx(-*v));
        // A table base opened on the directory finds the set of five and reads its bytes.
        const Tablebase reopened(root.path(), rules);
        CHECK(reopened.problems().empty());
        CHECK(reopened.maxPieces() == 5);
        CHECK(reopened.probe(five) == v);
        CHECK(reopened.table(m)->file->header().material == m);
        // Another set of five is missing; six creatures are never probed.
        CHECK_FALSE(tb.probe(fromDfen("./HNH........./.....hS..... 1 2 0 1", rules)));
        CHECK_FALSE(tb.probe(fromDfen("./HNH........./.....hNk.... 1 2 0 1", rules)));
    }

    TEST_CASE("generation is deterministic: threads and order change no byte") {
        TempDir root;
        const Rules rules = Rules::preset(Ruleset::Holochess);
        Tablebase tb(root.path(), rules);
        tables::GenerateOptions options;
        options.threads = 2;
        const auto results =
            tables::generate(tb, {material("SG v h"), material("m v TN")}, options, nullptr);
        CHECK(results.size() == 2);
        const Tablebase& reference = tablesOf(testMixes()[6]);
        for (const char* name : {"SG v h", "m v TN"}) {
            const Material m = material(name).canonical();
            const auto* a = tb.table(m);
            const auto* b = reference.table(m);
            REQUIRE(a);
            REQUIRE(b);
            REQUIRE(a->layout.storedSize() == b->layout.storedSize());
            for (std::uint32_t i = 0; i < a->layout.storedSize(); ++i)
                REQUIRE(a->file->raw(i) == b->file->raw(i));
        }
    }

}  // TEST_SUITE

}  // namespace dejarik::testing
