// `dejarik-arena endings` (tools/arena/endings.h): small endings valued exactly against a
// baseline.
#include <doctest/doctest.h>

#include "endings.h"
#include "policy.h"
#include "symmetry.h"
#include "test_arena_support.h"
#include "test_tables_support.h"

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

// Kelly with a quiet draw after 10 actions: the endings' solutions stay quick under the
// sanitizers.
const Rules& quickKelly() {
    static const Rules rules = dejarik::testing::rulesOf(Ruleset::Kelly, {"DrawTurns=5"});
    return rules;
}

// lostMolator under quickKelly.
GameRecord quickMolator(GameOutcome outcome) {
    GameRecord r = lostMolator(outcome);
    r.rules = quickKelly().describe();
    return r;
}

// The exact value against greedy of a record's position after the counter-kill, `me`'s
// view, as a score.
double exactAfterCounterKill(const GameRecord& record, Player me) {
    const Rules& kelly = quickKelly();
    auto pos = Position::fromDfen(record.deal, kelly);
    REQUIRE(pos);
    pos->apply(*pos->parseEvent("b1xc1"));
    pos->apply(*pos->parseEvent("counterkill"));
    const Position seen = me == Player::One ? *pos : transform(*pos, Transform{{}, true});
    const tables::PolicyChoices greedy = search::choicesModel(search::Baseline::Greedy);
    const tables::PolicySets sets(kelly, seen.army(Player::One), seen.army(Player::Two), greedy,
                                  tables::Objective::Result, 1e-9, 1);
    const auto v = sets.value(seen);
    REQUIRE(v);
    return (*v + 1) / 2;
}

}  // namespace

TEST_SUITE("arena-unit") {
    TEST_CASE("endings: the first position of four creatures or fewer, valued for each side") {
        // The Molator and the K'lor'slug against a Savrip and a Ghhhk: the counter-kill
        // leaves 1 v 2.
        GameRecord savrip = quickMolator(GameOutcome::Player2Wins);
        savrip.deal = "./L.........../s...K...g... 1 2 0 1";
        GameRecord eight = quickMolator(GameOutcome::Draw);
        eight.deal = "./............/.NGLS..htmk. 1 2 0 1";  // never reaches four creatures
        eight.events.clear();
        const std::vector<GameRecord> records = {
            quickMolator(GameOutcome::Draw), quickMolator(GameOutcome::Player1Wins), savrip, eight};
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
        REQUIRE(x->byCount.count("1v2") == 1);
        const double exact = exactAfterCounterKill(savrip, Player::One);
        CHECK(std::abs(exact - 0.5) > 0.01);
        CHECK(x->byCount.at("1v2").exact == doctest::Approx(exact));
        CHECK(x->byCount.at("1v2").scored == 0);
        CHECK(x->all.exact == doctest::Approx((1 + exact) / 3));
        const std::string text = formatEndings(*x, endingsFor("x"));
        CHECK(text.find("1v2") != std::string::npos);
        CHECK(text.find("1 of 4 games reached no such ending") != std::string::npos);

        // y's side, valued with y as the player: its own value, not 1 minus x's.
        const auto y = analyseEndings(records, endingsFor("y"), error);
        REQUIRE(y);
        REQUIRE(y->byCount.count("2v1") == 1);
        const double yExact = exactAfterCounterKill(savrip, Player::Two);
        CHECK(y->byCount.at("2v1").exact == doctest::Approx(yExact));
        CHECK(std::abs(yExact - (1 - exact)) > 0.01);
        CHECK(y->byCount.at("2v1").scored == 1);
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
