// `dejarik-arena endings` (tools/arena/endings.h): small endings valued exactly against a
// baseline.
#include <doctest/doctest.h>

#include "endings.h"
#include "policy.h"
#include "symmetry.h"
#include "test_arena_support.h"

using namespace dejarik;
using namespace dejarik::arena;
using dejarik::arena::testing::lostMolator;

namespace {

EndingsOptions endingsFor(const char* player) {
    EndingsOptions o;
    o.player = player;
    o.against = search::Baseline::Greedy;
    return o;
}

// The exact value against greedy of a record's position after the counter-kill, `me`'s
// view, as a score.
double exactAfterCounterKill(const GameRecord& record, Player me) {
    static const Rules kelly = Rules::preset(Ruleset::Kelly);
    auto pos = Position::fromDfen(record.deal, kelly);
    REQUIRE(pos);
    pos->apply(*pos->parseEvent("b1xc1"));
    pos->apply(*pos->parseEvent("counterkill"));
    const Position seen = me == Player::One ? *pos : transform(*pos, Transform{{}, true});
    const tables::PolicyChoices greedy = [](const Position& p, EventList& out) {
        search::baselineChoices(search::Baseline::Greedy, p, out);
    };
    const tables::PolicySets sets(kelly, seen.army(Player::One), seen.army(Player::Two), greedy,
                                  tables::Objective::Result, 1e-9, 1);
    const auto v = sets.value(seen);
    REQUIRE(v);
    return (*v + 1) / 2;
}

}  // namespace

TEST_SUITE("arena-unit") {
    TEST_CASE("endings: the first position of four creatures or fewer, valued for each side") {
        // The same game with a Strider added to y's side: the counter-kill leaves 2 v 2.
        GameRecord five = lostMolator(GameOutcome::Player2Wins);
        five.deal = "./L.........../n...K.S...t. 1 2 0 1";
        GameRecord eight = lostMolator(GameOutcome::Draw);
        eight.deal = "./............/.NGLS..htmk. 1 2 0 1";  // never reaches four creatures
        eight.events.clear();
        const std::vector<GameRecord> records = {
            lostMolator(GameOutcome::Draw), lostMolator(GameOutcome::Player1Wins), five, eight};
        std::string error;
        const auto x = analyseEndings(records, endingsFor("x"), error);
        INFO(error);
        REQUIRE(x);
        CHECK(x->games == 4);
        CHECK(x->all.games == 3);
        // 2 v 1 against greedy's lone Ng'ok is a draw: it is never forced to attack (three
        // pieces cannot box it in), never chooses to, and nothing kills it often enough.
        REQUIRE(x->byCount.count("2v1") == 1);
        const EndingsRow& row = x->byCount.at("2v1");
        CHECK(row.games == 2);
        CHECK(row.exact == doctest::Approx(0.5));
        CHECK(exactAfterCounterKill(records[0], Player::One) == doctest::Approx(0.5));
        CHECK(row.scored == doctest::Approx(0.75));
        CHECK(row.squares == doctest::Approx(std::sqrt(0.125)));  // gaps 0.5 apart
        REQUIRE(x->byCount.count("2v2") == 1);
        const double exact = exactAfterCounterKill(five, Player::One);
        CHECK(std::abs(exact - 0.5) > 0.01);
        CHECK(x->byCount.at("2v2").exact == doctest::Approx(exact));
        CHECK(x->byCount.at("2v2").scored == 0);
        CHECK(x->all.exact == doctest::Approx((1 + exact) / 3));
        const std::string text = formatEndings(*x, endingsFor("x"));
        CHECK(text.find("2v2") != std::string::npos);
        CHECK(text.find("1 of 4 games reached no such ending") != std::string::npos);

        // y's side, valued with y as the player: its own value, not 1 minus x's.
        const auto y = analyseEndings(records, endingsFor("y"), error);
        REQUIRE(y);
        REQUIRE(y->byCount.count("2v2") == 1);
        const double yExact = exactAfterCounterKill(five, Player::Two);
        CHECK(y->byCount.at("2v2").exact == doctest::Approx(yExact));
        CHECK(y->byCount.at("2v2").scored == 1);
        CHECK(y->byCount.at("1v2").exact == doctest::Approx(0.5));
    }

    TEST_CASE("endings: refused without a game of the player, or under rules it cannot solve") {
        std::string error;
        CHECK_FALSE(analyseEndings({lostMolator(GameOutcome::Draw)}, endingsFor("z"), error));
        CHECK(error.find("no finished game of 'z'") != std::string::npos);
        GameRecord classic = lostMolator(GameOutcome::Draw);
        classic.rules = Rules::preset(Ruleset::DalsianClassic).describe();  // CentreWin 3
        CHECK_FALSE(analyseEndings({classic}, endingsFor("x"), error));
        CHECK(error.find("without CentreWin") != std::string::npos);
        GameRecord broken = lostMolator(GameOutcome::Draw);
        broken.events[0].token = "b1xc2";
        CHECK_FALSE(analyseEndings({broken}, endingsFor("x"), error));
        CHECK(error.find("'b1xc2' is not legal") != std::string::npos);
    }
}
