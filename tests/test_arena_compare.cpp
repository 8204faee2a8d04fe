// `dejarik-arena compare` (tools/arena/compare.h): two runs of the same deals and dice, pair by
// pair.
#include <doctest/doctest.h>

#include <cmath>
#include <numeric>

#include "compare.h"
#include "test_arena_support.h"

using namespace dejarik;
using namespace dejarik::arena;
using dejarik::arena::testing::kellyRecord;

namespace {

// The options that name the player compared, the same in both runs.
CompareOptions playerOnly(const std::string& player) {
    CompareOptions o;
    o.player = player;
    return o;
}

constexpr const char* kDeal = "./............/.GLNT..khms. 1 2 0 1";

// Game `game` (0 or 1) of pair `round`: the engine `me` is player 1 in game 0 and player 2 in
// game 1, as the arena seats the first engine; `points` are its points, `attackLuck` its luck.
GameRecord game(std::uint64_t round, int gameInPair, double points, double attackLuck = 0,
                const std::string& me = "e", const std::string& other = "random") {
    const bool first = gameInPair == 0;
    const double p1Points = first ? points : 1 - points;
    GameRecord r = kellyRecord(kDeal, {},
                               p1Points == 1   ? GameOutcome::Player1Wins
                               : p1Points == 0 ? GameOutcome::Player2Wins
                                               : GameOutcome::Draw);
    r.players =
        first ? std::array<std::string, 2>{me, other} : std::array<std::string, 2>{other, me};
    r.round = round;
    r.gameInPair = gameInPair;
    r.seed = 7;
    r.luck.attacks = Luck::units(first ? attackLuck : -attackLuck);
    return r;
}

// A run of pairs, each given by the engine's points in its two games and its luck in each.
std::vector<GameRecord> run(const std::vector<std::array<double, 3>>& pairs,
                            const std::string& me = "e") {
    std::vector<GameRecord> records;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        records.push_back(game(i, 0, pairs[i][0], pairs[i][2], me));
        records.push_back(game(i, 1, pairs[i][1], pairs[i][2], me));
    }
    return records;
}

}  // namespace

TEST_SUITE("arena-unit") {
    TEST_CASE("compare: the difference of two runs pair by pair, and its interval") {
        const auto a = run({{1, 1, 0}, {0.5, 0.5, 0}, {1, 0, 0}});
        const auto b = run({{1, 0, 0}, {0.5, 0.5, 0}, {1, 0, 0}});
        std::string error;
        const auto c = compareRuns(a, b, playerOnly("e"), error);
        INFO(error);
        REQUIRE(c);
        CHECK(c->pairs == 3);
        CHECK(c->differing == 1);
        CHECK(c->playedDifferently == 1);
        CHECK(c->leftOut == 0);
        CHECK(c->wdl[0].wins == 3);
        CHECK(c->wdl[0].draws == 2);
        CHECK(c->wdl[0].losses == 1);
        CHECK(c->wdl[1].wins == 2);
        CHECK(c->wdl[1].losses == 2);
        // Pair differences 0.5, 0, 0: mean 1/6, sample deviation sqrt(1/12).
        CHECK(c->plain.mean == doctest::Approx(1.0 / 6));
        CHECK(c->plain.halfWidth == doctest::Approx(kZ95 * std::sqrt(1.0 / 12) / std::sqrt(3.0)));
        CHECK_FALSE(c->luckAdjusted);  // three pairs fit nothing
        // A against itself: no difference at all.
        const auto same = compareRuns(a, a, playerOnly("e"), error);
        REQUIRE(same);
        CHECK(same->differing == 0);
        CHECK(same->plain.mean == 0);
        CHECK(same->plain.halfWidth == 0);
        const std::string text = formatComparison(*c, playerOnly("e"), "a.dgn", "b.dgn");
        CHECK(text.find("e, pair by pair: 3 pairs of the same deals and dice in both runs, 1 "
                        "ended differently (1 played differently)") == 0);
        CHECK(text.find("A        6      3      2      1   0.667  a.dgn") != std::string::npos);
        CHECK(text.find("A - B per game:  +0.167 ± 0.327 (95%)") != std::string::npos);
        CHECK(text.find("luck-adjusted:   needs 30 pairs played differently") != std::string::npos);
        CHECK(text.find("(only 1 pairs were played differently: the interval rests on them") !=
              std::string::npos);
    }

    TEST_CASE("compare: the luck each pair had is taken out") {
        // Run A's pairs score 0.1 + 0.02 x above run B's, x the luck of A's pair: where A was
        // lucky by 20 it scored 0.5 more, unlucky by 17.5 0.25 less. The luck's expectation
        // is zero, so what A gained without luck is 0.1, though it scored 0.125 more.
        std::vector<std::array<double, 3>> pairsA, pairsB;
        for (int i = 0; i < 40; ++i) {
            const bool lucky = i % 2 == 0;
            pairsA.push_back({lucky ? 1.0 : 0.5, lucky ? 1.0 : 0.0, lucky ? 20.0 : -17.5});
            pairsB.push_back({0.5, 0.5, 0});
        }
        std::string error;
        const auto c = compareRuns(run(pairsA), run(pairsB, "base"),
                                   {.player = "e", .playerB = "base"}, error);
        INFO(error);
        REQUIRE(c);
        CHECK(c->pairs == 40);
        CHECK(c->differing == 40);
        CHECK(c->plain.mean == doctest::Approx(0.125));
        REQUIRE(c->luckAdjusted);
        CHECK(c->luckAdjusted->mean == doctest::Approx(0.1).epsilon(1e-9));
        CHECK(c->luckAdjusted->halfWidth == doctest::Approx(0).epsilon(1e-9));
        CHECK(c->varianceRatio == doctest::Approx(0).epsilon(1e-9));
    }

    TEST_CASE("compare: the luck is fitted only on pairs played differently") {
        // 40 pairs, 29 of them alike in both runs: the luck of the 11 that differ is too
        // little to fit two coefficients on.
        std::vector<std::array<double, 3>> pairsA, pairsB;
        for (int i = 0; i < 40; ++i) {
            pairsA.push_back({1, i < 11 ? 1.0 : 0.0, i < 11 ? 3.0 * i : 0.0});
            pairsB.push_back({1, 0, 0});
        }
        std::string error;
        const auto c = compareRuns(run(pairsA), run(pairsB), playerOnly("e"), error);
        INFO(error);
        REQUIRE(c);
        CHECK(c->pairs == 40);
        CHECK(c->differing == 11);
        CHECK(c->playedDifferently == 11);
        CHECK(c->plain.mean == doctest::Approx(11.0 / 80));
        CHECK_FALSE(c->luckAdjusted);
        // The same scores with other luck: played differently, though they ended alike.
        for (int i = 11; i < 40; ++i)
            pairsA[static_cast<std::size_t>(i)][2] = 1;
        const auto luckier = compareRuns(run(pairsA), run(pairsB), playerOnly("e"), error);
        REQUIRE(luckier);
        CHECK(luckier->differing == 11);
        CHECK(luckier->playedDifferently == 40);
        CHECK(luckier->luckAdjusted);
    }

    TEST_CASE("compare: pairs not complete in both runs are left out") {
        auto a = run({{1, 1, 0}, {0.5, 0.5, 0}, {1, 0, 0}, {0, 0, 0}});
        auto b = run({{1, 0, 0}, {0.5, 0.5, 0}, {1, 0, 0}});
        a[1].termination = Termination::Crash;  // pair 0 of A ended by a fault
        std::string error;
        const auto c = compareRuns(a, b, playerOnly("e"), error);
        INFO(error);
        REQUIRE(c);
        CHECK(c->pairs == 2);
        CHECK(c->leftOut == 2);  // pair 0 (a fault in A, complete in B), pair 3 (not in B)
        CHECK(formatComparison(*c, playerOnly("e"), "a", "b")
                  .find("2 pairs complete in one run "
                        "only left out") != std::string::npos);
    }

    TEST_CASE("compare: runs that differ only by chance are told apart as often as they should") {
        // A/A: greedy against the random mover, the random mover's own seed changed from run
        // to run and nothing else; greedy's expected score is the same in every run, so a 95%
        // interval of the difference should hold 0 about 19 times in 20, and the estimates
        // should spread as the intervals say.
        const auto runOf = [](std::uint64_t randomSeed) {
            RunConfig c;
            c.engines = {
                dejarik::arena::testing::engineSpec({"name=g", "builtin=greedy", "seed=1"}),
                dejarik::arena::testing::engineSpec(
                    {"name=r", "builtin=random", "seed=" + std::to_string(randomSeed)})};
            c.ruleAssignments = {{"Ruleset", "holochess"}};
            c.pairs = 60;
            c.seed = 77;
            c.log = dejarik::arena::testing::quietLog();
            c.keepRecords = true;
            return dejarik::arena::testing::run(c).records;
        };
        constexpr int kComparisons = 12;
        int outside = 0;
        std::vector<double> estimates, stdevs;
        for (int i = 0; i < kComparisons; ++i) {
            std::string error;
            const auto c = compareRuns(runOf(2 * i + 1), runOf(2 * i + 2), playerOnly("g"), error);
            INFO(error);
            REQUIRE(c);
            REQUIRE(c->luckAdjusted);
            outside += std::abs(c->luckAdjusted->mean) > c->luckAdjusted->halfWidth ? 1 : 0;
            estimates.push_back(c->luckAdjusted->mean);
            stdevs.push_back(c->luckAdjusted->halfWidth / kZ95);
        }
        CHECK(outside <= 2);
        const double mean = std::accumulate(estimates.begin(), estimates.end(), 0.0) / kComparisons;
        double squares = 0;
        for (const double e : estimates)
            squares += (e - mean) * (e - mean);
        const double spread = std::sqrt(squares / (kComparisons - 1));
        const double stated = std::accumulate(stdevs.begin(), stdevs.end(), 0.0) / kComparisons;
        CHECK(spread > 0.5 * stated);
        CHECK(spread < 1.5 * stated);
    }

    TEST_CASE("compare: errors") {
        const auto a = run({{1, 1, 0}, {0.5, 0.5, 0}, {1, 0, 0}});
        std::string error;
        auto other = a;
        other[2].deal = "./............/.GLNT..khsm. 1 2 0 1";
        CHECK_FALSE(compareRuns(a, other, playerOnly("e"), error));
        CHECK(error.find("record 2.1 against random: the runs' deals differ") == 0);
        other = a;
        other[3].seed = 8;
        CHECK_FALSE(compareRuns(a, other, playerOnly("e"), error));
        CHECK(error.find("record 2.2 against random: the runs' seeds differ (7 in A, 8 in B)") ==
              0);
        other = a;
        other[0].diceMode = DiceMode::Independent;
        CHECK_FALSE(compareRuns(a, other, playerOnly("e"), error));
        CHECK(error.find("the runs' dice differ (duplicate in A, independent in B)") !=
              std::string::npos);
        other = a;
        other[0].rules = Rules::preset(Ruleset::Holochess).describe();
        CHECK_FALSE(compareRuns(a, other, playerOnly("e"), error));
        CHECK(error.find("the runs' rules differ") != std::string::npos);
        other = a;
        other.push_back(a[4]);
        CHECK_FALSE(compareRuns(a, other, playerOnly("e"), error));
        CHECK(error == "run B: record 3.1 of e against random appears twice");
        CHECK_FALSE(compareRuns(a, a, playerOnly("nobody"), error));
        CHECK(error.find("0 pairs of nobody complete in both runs") == 0);
        CHECK_FALSE(compareRuns(a, run({{1, 1, 0}}), playerOnly("e"), error));
        CHECK(error.find("1 pairs of e complete in both runs") == 0);
    }
}
