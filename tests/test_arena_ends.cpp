// `dejarik-arena ends` (tools/arena/ends.h): the race bound followed from kill to kill.
#include <doctest/doctest.h>

#include "ends.h"
#include "race.h"
#include "test_arena_support.h"

using namespace dejarik;
using namespace dejarik::arena;
using dejarik::arena::testing::lostMolator;

namespace {

EndsOptions optionsFor(const char* player, std::optional<search::Baseline> against = {}) {
    EndsOptions o;
    o.player = player;
    o.against = against;
    return o;
}

}  // namespace

TEST_SUITE("arena-unit") {
    TEST_CASE("ends: the fall of the bound, by whose attack, against a model or any opponent") {
        const Rules kelly = Rules::preset(Ruleset::Kelly);
        const std::vector<GameRecord> records = {lostMolator(GameOutcome::Draw)};
        std::string error;
        const EndsOptions greedy = optionsFor("x", search::Baseline::Greedy);
        const auto ends = analyseEnds(records, greedy, error);
        INFO(error);
        REQUIRE(ends);
        const EndsRow& drawn = ends->byResult[1];
        CHECK(drawn.games == 1);
        CHECK(ends->byResult[0].games == 0);
        // 3 v 1 against greedy: the Ng'ok can be boxed in; 2 v 1 it cannot, and never has to
        // attack: the bound falls to a draw, by x's own attack.
        const std::array three{Creature::Klorslug, Creature::Molator, Creature::Savrip};
        const std::array ngok{Creature::Ngok};
        const race::Opponent model = search::raceModel(search::Baseline::Greedy, kelly);
        CHECK(drawn.startBound == doctest::Approx(race::bound(kelly, three, ngok, model)->score));
        CHECK(drawn.startBound > 0.6);
        CHECK(drawn.finalBound == doctest::Approx(0.5));
        CHECK(drawn.finalLow == 1);
        CHECK(drawn.falls[static_cast<int>(Fall::OwnAttackLost)] == 1);
        REQUIRE(ends->fallArmies.size() == 1);
        CHECK(ends->fallArmies.begin()->first == "3v1 SKL/n -> 2v1 SK/n, own attack");
        CHECK(formatEnds(*ends, greedy).find("3v1 SKL/n -> 2v1 SK/n") != std::string::npos);

        // y's side of the same game: its army's bound rose, it never fell.
        const EndsOptions forY = optionsFor("y", search::Baseline::Greedy);
        const auto y = analyseEnds(records, forY, error);
        REQUIRE(y);
        CHECK(y->byResult[1].falls[static_cast<int>(Fall::NeverAbove)] == 1);

        // Boxed in, greedy's Ng'ok would attack the piece it beats most often, the Molator:
        // no better for x than the attacks x can make itself, so the bound is the same
        // never boxed in, where the Ng'ok never attacks.
        EndsOptions unboxed = greedy;
        unboxed.boxing = race::Boxing::Never;
        const auto u = analyseEnds(records, unboxed, error);
        REQUIRE(u);
        CHECK(u->byResult[1].startBound == doctest::Approx(drawn.startBound));
        CHECK(u->byResult[1].falls[static_cast<int>(Fall::OwnAttackLost)] == 1);

        // Against any opponent the 2 v 1 is still a likely win: no fall at 0.6.
        const EndsOptions any = optionsFor("x");
        const auto a = analyseEnds(records, any, error);
        REQUIRE(a);
        CHECK(a->byResult[1].falls[static_cast<int>(Fall::Never)] == 1);
    }

    TEST_CASE("ends: refused without a game of the player, or where material does not decide") {
        std::string error;
        CHECK_FALSE(analyseEnds({lostMolator(GameOutcome::Draw)}, optionsFor("z"), error));
        CHECK(error.find("no finished game of 'z'") != std::string::npos);
        GameRecord classic = lostMolator(GameOutcome::Draw);
        classic.rules = Rules::preset(Ruleset::DalsianClassic).describe();  // CentreWin 3
        CHECK_FALSE(analyseEnds({classic}, optionsFor("x"), error));
        CHECK(error.find("race bound does not answer") != std::string::npos);
        GameRecord broken = lostMolator(GameOutcome::Draw);
        broken.events[0].token = "b1xc2";
        CHECK_FALSE(analyseEnds({broken}, optionsFor("x"), error));
        CHECK(error.find("'b1xc2' is not legal") != std::string::npos);
        // Both errors name the record by its round and game.
        CHECK(error.find("record " + broken.roundTag() + ": ") != std::string::npos);
        GameRecord badDeal = lostMolator(GameOutcome::Draw);
        badDeal.round = 4;
        badDeal.deal = "./L.........../n...K.S.... 1 2 0 1";  // eleven cells on the outer ring
        CHECK_FALSE(analyseEnds({badDeal}, optionsFor("x"), error));
        CHECK(error.find("record " + badDeal.roundTag() + ": Deal: ") != std::string::npos);
    }
}
