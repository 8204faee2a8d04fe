// The arena playing Courtier (RULES §14): its deals are the start after a few random moves,
// the same for a seed and round; games between in-process players end by a King capture or
// a draw, with turn numbers at every move, and never roll a die.
#include <doctest/doctest.h>

#include <set>

#include "baselines.h"
#include "deals.h"
#include "engine.h"
#include "referee.h"

using namespace dejarik;
using namespace dejarik::arena;

TEST_SUITE("arena-unit") {
    TEST_CASE("courtier: deals are the start after random moves, reproducible") {
        const Rules rules = Rules::preset(Ruleset::Courtier);
        std::set<std::string> distinct;
        for (std::uint64_t r = 0; r < 40; ++r) {
            const std::string deal = randomDeal(Ruleset::Courtier, 7, r);
            CHECK(randomDeal(Ruleset::Courtier, 7, r) == deal);
            const auto pos = Position::fromDfen(deal, rules);
            REQUIRE(pos);
            CHECK_FALSE(pos->isOver());
            CHECK(pos->turn() == 1u + kCourtierOpening);
            distinct.insert(deal);
        }
        CHECK(distinct.size() > 30);
    }

    TEST_CASE("courtier: games end by a King capture or a draw, a turn number each move") {
        const Rules rules = Rules::preset(Ruleset::Courtier);
        BuiltinSeat greedy("greedy", "greedy", 1), random("random", "random", 2);
        std::set<Termination> seen;
        for (std::uint64_t r = 0; r < 20; ++r) {
            const std::string deal = randomDeal(Ruleset::Courtier, 3, r);
            for (int g = 0; g < 2; ++g) {
                Seat* one = g == 0 ? static_cast<Seat*>(&greedy) : &random;
                Seat* two = g == 0 ? static_cast<Seat*>(&random) : &greedy;
                const GameSpec spec{
                    rules, deal, LuckStream(3, r, g, DiceMode::Duplicate), {one, two}, {}};
                const auto record = playGame(spec, RefereeConfig{});
                REQUIRE(record);
                seen.insert(record->termination);
                CHECK((record->termination == Termination::KingCapture ||
                       record->termination == Termination::QuietDraw ||
                       record->termination == Termination::TurnCap));
                for (const auto& e : record->events) {
                    CHECK(e.startsTurn);
                    CHECK(e.comment.find("roll") == std::string::npos);
                }
                CHECK(record->luck.attacks == 0);
            }
        }
        CHECK(seen.count(Termination::KingCapture) == 1);
        CHECK(terminationName(Termination::KingCapture) == "king-capture");
    }

    TEST_CASE("courtier: the greedy player takes the King, and a Guard before nothing") {
        const Rules rules = Rules::preset(Ruleset::Courtier);
        for (std::uint64_t seed = 0; seed < 8; ++seed) {
            std::uint64_t rng = seed;
            // c7-b7 takes the King on b6; b5-a and b12-a only Guards (PERFT.md "king").
            Position pos = *Position::fromDfen("./..u.Uw..u..U/W....UU..u.. 1 1 0 1", rules);
            pos.apply(search::greedyDecision(pos, rng));
            CHECK(pos.result() == Result::Player1Wins);
            // c5-b5 takes the Guard on b4, the one capture of "single".
            Position single = *Position::fromDfen("./..Uu...u..../W...U.w.U.u. 1 1 0 1", rules);
            CHECK(search::greedyDecision(single, rng).token() == "c5-b5");
        }
    }
}
