// Small endings played exactly against a baseline (search/endings.h): where it answers, and
// that its decisions reach the value it reports when played out against that baseline.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "baselines.h"
#include "endings.h"
#include "test_tables_support.h"

namespace dejarik::testing {

namespace {

// One game from `start` to its end, `me` deciding by `decide`, the other side by the random
// mover, the dice drawn from their odds; `me`'s points.
template <class Decide>
double playOut(Position pos, Player me, Decide decide, std::mt19937_64& rng) {
    std::uint64_t state = rng();
    while (!pos.isOver()) {
        EventList events;
        pos.generate(events);
        Event e;
        if (pos.chanceDue()) {
            std::uniform_real_distribution<double> u(0, 1);
            double x = u(rng);
            e = events[events.size() - 1];
            for (const Event o : events) {
                x -= pos.probability(o);
                if (x < 0) {
                    e = o;
                    break;
                }
            }
        } else if (pos.decider() == me) {
            e = decide(pos);
        } else {
            e = search::randomDecision(pos, state);
        }
        pos.apply(e);
    }
    return pos.winProbability(me) +
           (1 - pos.winProbability(me) - pos.winProbability(opponent(me))) / 2;
}

}  // namespace

TEST_SUITE("search") {
    TEST_CASE("endings answer only for three or four creatures under rules they can solve") {
        const Rules kelly = rulesOf(Ruleset::Kelly);
        const auto four = Position::fromDfen("./L.........../n...K.S..... 1 2 0 1", kelly);
        const auto five = Position::fromDfen("./L.........../n...K.S...t. 1 2 0 1", kelly);
        REQUIRE(four);
        REQUIRE(five);
        CHECK(search::EndingPlayer::applies(*four));
        CHECK_FALSE(search::EndingPlayer::applies(*five));
        Position pending = *four;
        pending.apply(*pending.parseEvent("b1xc1"));  // an outcome is due: no decision
        CHECK_FALSE(search::EndingPlayer::applies(pending));
        for (const Rules& other :
             {rulesOf(Ruleset::Kelly, {"DrawTurns=0"}), rulesOf(Ruleset::DalsianClassic)}) {
            const auto pos = Position::fromDfen("./L.........../n...K.S..... 1 2 0 1", other);
            REQUIRE(pos);
            CHECK_FALSE(search::EndingPlayer::applies(*pos));
        }
        search::EndingPlayer player;
        CHECK_FALSE(player.decide(*five, search::Baseline::Greedy));
    }

    TEST_CASE("played out against the random mover, the decisions score what they report") {
        // Holochess, Savrip and Ghhhk against a Monnok, a quiet draw after 10 actions: from
        // each side, 1,500 games with the exact decisions against 1,500 with the random
        // mover's own decisions in their place.
        const Rules rules = rulesOf(Ruleset::Holochess, {"DrawTurns=5"});
        std::mt19937_64 rng(11);
        for (const Player me : {Player::One, Player::Two}) {
            // The exact side to move first.
            const auto start =
                Position::fromDfen(me == Player::One ? "./S.....m..G../............ 1 2 0 1"
                                                     : "./S.....m..G../............ 2 2 0 1",
                                   rules);
            REQUIRE(start);
            const Position pos = *start;
            search::EndingPlayer player;
            CHECK_FALSE(player.solvedFor(pos, search::Baseline::Random));
            const auto first = player.decide(pos, search::Baseline::Random);
            REQUIRE(first);
            CHECK(first->solved);
            // Remembered for this ending, and said so; not for another baseline or armies.
            CHECK(player.solvedFor(pos, search::Baseline::Random));
            CHECK_FALSE(player.solvedFor(pos, search::Baseline::Greedy));
            const auto other =
                Position::fromDfen(me == Player::One ? "./S.....m..L../............ 1 2 0 1"
                                                     : "./S.....m..L../............ 2 2 0 1",
                                   rules);
            REQUIRE(other);
            CHECK_FALSE(player.solvedFor(*other, search::Baseline::Random));
            CHECK_FALSE(player.decide(pos, search::Baseline::Random)->solved);
            const double expected = (first->value + 1) / 2;
            constexpr int kGames = 1500;
            double exact = 0, random = 0;
            for (int g = 0; g < kGames; ++g) {
                exact += playOut(
                    pos, me,
                    [&](const Position& p) {
                        const auto d = player.decide(p, search::Baseline::Random);
                        REQUIRE(d);
                        return d->best;
                    },
                    rng);
                std::uint64_t state = rng();
                random += playOut(
                    pos, me, [&](const Position& p) { return search::randomDecision(p, state); },
                    rng);
            }
            exact /= kGames;
            random /= kGames;
            INFO("player " << (me == Player::One ? 1 : 2) << ": expected " << expected
                           << ", exact decisions " << exact << ", random ones " << random);
            // A game's points have a spread of at most 0.5: four standard errors.
            CHECK(std::abs(exact - expected) < 4 * 0.5 / std::sqrt(kGames));
            // Better than deciding at random: clearly with two pieces; the lone Monnok can only
            // hide for the draw, and at random it is caught a little more often.
            CHECK(exact > random + (me == Player::One ? 0.05 : 0.0));
        }
    }
}

}  // namespace dejarik::testing
