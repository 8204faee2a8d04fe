// Set-up decisions (RULES §15): the reserve part of the DFEN and its errors, set-up events
// and their tokens, the Setup option's startpos, and the perft numbers of PERFT.md.
#include <doctest/doctest.h>

#include <string>

#include "dfen_checks.h"
#include "perft.h"
#include "position.h"
#include "rules.h"

using namespace dejarik;
using dejarik::test::at;
using dejarik::test::dfenError;

namespace {

Rules arrange(Ruleset r) {
    RuleOptions o;
    o.ruleset = r;
    REQUIRE_FALSE(o.set("Setup", "arrange"));
    return Rules(o);
}

}  // namespace

TEST_SUITE("set-up") {
    TEST_CASE("Setup arrange: startpos with both reserves; Ruleset keeps it") {
        CHECK(arrange(Ruleset::Kelly).startDfen() ==
              "./............/............/SGHNmtkl 1 2 0 1");
        CHECK(arrange(Ruleset::Dalsian).startDfen() ==
              "./............/............/SGHNmtkl 1 2 0 1");
        CHECK(arrange(Ruleset::Holochess).startDfen() ==
              "./............/............/SGNLmhtk 1 2 0 1");
        RuleOptions o;
        REQUIRE_FALSE(o.set("Setup", "ARRANGE"));
        REQUIRE_FALSE(o.set("Ruleset", "holochess"));
        CHECK(o.arrange);
        CHECK(Rules(o).describe().ends_with(" Setup=arrange"));
        // It shapes no game tree: the fingerprints stay the dealt game's.
        CHECK(Rules(o).fingerprint() == Rules::preset(Ruleset::Holochess).fingerprint());
        REQUIRE_FALSE(o.set("Setup", "dealt"));
        CHECK_FALSE(o.arrange);
        CHECK(o.set("Setup", "draft"));
    }

    TEST_CASE("perft over set-up events (PERFT.md)") {
        // A set-up-pending DFEN is accepted under both values of Setup.
        const Rules dealtRules = Rules::preset(Ruleset::Kelly),
                    arrangeRules = arrange(Ruleset::Kelly);
        for (const Rules* r : {&dealtRules, &arrangeRules}) {
            const Rules& rules = *r;
            const Position both = at("./............/............/SGHNmtkl 1 2 0 1", rules);
            CHECK(perft(both, 1) == 24);
            CHECK(perft(both, 2) == 576);
            CHECK(perft(both, 3) == 5760);
            const Position second = at("./............/.GHSN......./mtkl 1 2 0 1", rules);
            CHECK(perft(second, 1) == 24);
            CHECK(perft(second, 2) == 240);
            CHECK(perft(second, 3) == 4200);
            const Position dup = at("./............/............/GGHHmmll 1 2 0 1", rules);
            CHECK(perft(dup, 1) == 6);
            CHECK(perft(dup, 2) == 36);
            CHECK(perft(dup, 3) == 360);
        }
        const Rules kelly = Rules::preset(Ruleset::Kelly);
        const Position single = at("./............/............/GGGGmmmm 1 2 0 1", kelly);
        CHECK(perft(single, 2) == 1);  // a single arrangement is still an event
        // Make/unmake agrees.
        Position copy = at("./............/............/GGHHmmll 1 2 0 1", kelly);
        CHECK(perftUnmake(copy, 3) == 360);
    }

    TEST_CASE("set-up events: player 1 first, tokens, any case, order") {
        const Rules rules = Rules::preset(Ruleset::Kelly);
        Position pos = at("./............/............/NHGSlktm 1 2 0 1", rules);
        CHECK(pos.dfen() == "./............/............/SGHNmtkl 1 2 0 1");
        CHECK(pos.phase() == Phase::Setup);
        CHECK(pos.decider() == Player::One);
        const auto e = pos.parseEvent("SETUP:gHsN");
        REQUIRE(e);
        CHECK(pos.token(*e) == "setup:ghsn");
        CHECK_FALSE(pos.parseEvent("setup:mltk"));  // player 2's creatures
        CHECK_FALSE(pos.parseEvent("setup:ghss"));
        CHECK_FALSE(pos.parseEvent("setup:ghs"));
        CHECK_FALSE(pos.parseEvent("c2-b2"));
        pos.apply(*e);
        CHECK(pos.dfen() == "./............/.GHSN......./mtkl 1 2 0 1");
        CHECK(pos.decider() == Player::Two);
        CHECK_FALSE(pos.parseEvent("setup:ghsn"));
        const auto reply = pos.parseEvent("setup:mltk");
        REQUIRE(reply);
        pos.apply(*reply);
        CHECK(pos.dfen() == "./............/.GHSN..mltk. 1 2 0 1");
        CHECK(pos == Position::startpos(rules));
        CHECK(pos.key() == Position::startpos(rules).key());

        // Only player 2 due: player 1's pieces may stand anywhere but player 2's home cells.
        const Position p2 = at("S/G......H..../.....N....../mtkl 1 2 0 1", rules);
        CHECK(p2.decider() == Player::Two);
        CHECK(p2.sideToMove() == Player::One);
        // After the last set-up the end checks are made (§15.5): 1 + 4 pieces, no end; the
        // game goes on with player 1's first action.
        Position after = p2;
        after.apply(*p2.parseEvent("setup:mltk"));
        CHECK(after.phase() == Phase::Decision);
        CHECK(after.decider() == Player::One);
        CHECK_FALSE(after.isOver());
        const Position lone = at("S/............/............/mtkl 1 2 0 1", rules);
        Position showdownCheck = lone;
        showdownCheck.apply(*lone.parseEvent("setup:mtkl"));
        CHECK_FALSE(showdownCheck.isOver());
        CHECK(playTokens(lone, "setup:mtkl setup:mtkl").has_value() == false);
        std::string error;
        CHECK_FALSE(playTokens(lone, "setup:ghsn", &error));
        CHECK(error == "event 1 'setup:ghsn' is not legal here");
    }

    TEST_CASE("DFEN with a reserve: every invalid case of §15.4") {
        const Rules rules = Rules::preset(Ruleset::Kelly);
        const std::pair<const char*, const char*> cases[] = {
            {"./............/............/ 1 2 0 1", "DFEN reserve: the fourth part is empty"},
            {"./............/............/SGHX 1 2 0 1",
             "DFEN reserve: 'X' is not a creature letter (SMGHTNKL, smghtnkl)"},
            {"./............/............/SGH 1 2 0 1",
             "DFEN reserve: player 1 has 3 creatures in reserve, expected 0 or 4"},
            {"./............/............/SGHNmtklk 1 2 0 1",
             "DFEN reserve: player 2 has 5 creatures in reserve, expected 0 or 4"},
            {"./S.........../............/SGHN 1 2 0 1",
             "DFEN reserve: player 1 has creatures both in reserve and on the board"},
            {"./............/..m........./SGHN 1 2 0 1",
             "DFEN reserve: player 1's home cell c3 is not empty"},
            {"./............/.........S../mtkl 1 2 0 1",
             "DFEN reserve: player 2's home cell c10 is not empty"},
            {"./............/............/SGHNmtkl 2 2 0 1",
             "DFEN reserve: a set-up is pending, so the other fields must read '1 2 0 1' with no "
             "hold counters but 0/0"},
            {"./............/............/SGHNmtkl 1 1 0 1",
             "DFEN reserve: a set-up is pending, so the other fields must read '1 2 0 1' with no "
             "hold counters but 0/0"},
            {"./............/............/SGHNmtkl 1 2 3 1",
             "DFEN reserve: a set-up is pending, so the other fields must read '1 2 0 1' with no "
             "hold counters but 0/0"},
            {"./............/............/SGHNmtkl 1 2 0 2",
             "DFEN reserve: a set-up is pending, so the other fields must read '1 2 0 1' with no "
             "hold counters but 0/0"},
            {"./............/............/SGHNmtkl 1 2 0 1 1/0",
             "DFEN reserve: a set-up is pending, so the other fields must read '1 2 0 1' with no "
             "hold counters but 0/0"},
            {"./............/............/SGHN/mtkl 1 2 0 1",
             "DFEN cells: expected 1/12/12 cells and an optional /reserve, got "
             "'./............/............/SGHN/mtkl'"},
        };
        for (const auto& c : cases) {
            CAPTURE(c.first);
            CHECK(dfenError(c.first, rules) == c.second);
        }
        // Accepted: an explicit 0/0, creatures of any case and order, the other player's
        // pieces elsewhere; a reserve counts as pieces.
        CHECK(at("./............/............/SGHNmtkl 1 2 0 1 0/0", rules).dfen() ==
              "./............/............/SGHNmtkl 1 2 0 1");
        CHECK(at("./............/............/lktmNHGS 1 2 0 1", rules).dfen() ==
              "./............/............/SGHNmtkl 1 2 0 1");
        CHECK(at("./............/............/SSSS 1 2 0 1", rules).phase() == Phase::Setup);
    }
}
