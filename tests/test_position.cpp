// Positions: who decides placements, blocked pushes, the end checks of RULES §8 in their
// order, DFEN input and output (RULES §11), event tokens, rule options and make/unmake.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "movegen.h"
#include "perft.h"
#include "position.h"
#include "rules.h"
#include "spec_positions.h"

using namespace dejarik;
using test::kMelee;

namespace {

Rules rulesWith(Ruleset ruleset, std::initializer_list<const char*> options = {}) {
    RuleOptions o;
    o.ruleset = ruleset;
    for (const char* a : options) {
        const auto err = o.setAssignment(a);
        REQUIRE_MESSAGE(!err, *err);
    }
    return Rules(o);
}

Position load(std::string_view dfen, const Rules& rules) {
    std::string error;
    const auto pos = Position::fromDfen(dfen, rules, &error);
    REQUIRE_MESSAGE(pos, error);
    return *pos;
}

Position play(const Position& from, std::string_view tokens) {
    std::string error;
    const auto pos = playTokens(from, tokens, &error);
    REQUIRE_MESSAGE(pos, error);
    CHECK(pos->key() == pos->computeKey());
    return *pos;
}

std::vector<std::string> tokens(const Position& pos) {
    EventList list;
    pos.generate(list);
    std::vector<std::string> out;
    for (const Event e : list)
        out.push_back(e.token());
    return out;
}

Cell cell(const char* name) {
    return *Cell::parse(name);
}

// The error message of a DFEN that must be rejected.
std::string rejection(std::string_view dfen, const Rules& rules) {
    std::string error;
    const auto pos = Position::fromDfen(dfen, rules, &error);
    CHECK_FALSE(pos.has_value());
    CHECK_FALSE(Position::fromDfen(dfen, rules).has_value());  // no message wanted
    return error;
}

void checkTerminal(const Position& pos) {
    CHECK(pos.isOver());
    CHECK(tokens(pos).empty());
    CHECK(pos.countEvents() == 0);
    CHECK(perft(pos, 0) == 1u);
    CHECK(perft(pos, 1) == 0u);
    CHECK(perft(pos, 3) == 0u);
    CHECK_FALSE(pos.isLegal(Event::pass()));
    std::string error;
    CHECK_FALSE(playTokens(pos, "pass", &error).has_value());
    CHECK(error.find("already over") != std::string::npos);
}

}  // namespace

TEST_CASE("startpos of every ruleset") {
    for (const Ruleset r : kRulesets) {
        const Rules rules = Rules::preset(r);
        const Position pos = Position::startpos(rules);
        CHECK(pos.dfen() == Position::startDfen(r));
        CHECK(pos == load(Position::startDfen(r), rules));
        CHECK(pos.sideToMove() == Player::One);
        CHECK(pos.decider() == Player::One);
        CHECK(pos.actionsLeft() == 2);
        CHECK(pos.phase() == Phase::Decision);
        CHECK_FALSE(pos.isOver());
        CHECK(pos.pieces(Player::One).count() == 4);
        CHECK(pos.pieces(Player::Two).count() == 4);
        CHECK(pos.pieces(Player::One) == (Bitboard::of(cell("c2")) | Bitboard::of(cell("c3")) |
                                          Bitboard::of(cell("c4")) | Bitboard::of(cell("c5"))));
        CHECK(pos.key() == pos.computeKey());
    }
    CHECK(Position::startDfen(Ruleset::Kelly) == "./............/.GHSN..mltk. 1 2 0 1");
    CHECK(Position::startDfen(Ruleset::Holochess) == "./............/.SGNL..mhtk. 1 2 0 1");
    // Kelly's start, counted by hand: G (2 steps) c2 c1 c12, c2 c1 b1, c2 b2 {a, b1, b3};
    // H (1) only b3; S (2) c4 b4 {a, b3, b5}; N (1) b5, c6. No enemy is adjacent. Pieces
    // and destinations come in cell index order (a, b1..b12, c1..c12).
    const Rules kelly;
    CHECK(tokens(Position::startpos(kelly)) ==
          std::vector<std::string>{"c2-a", "c2-b1", "c2-b3", "c2-c12", "c3-b3", "c4-a", "c4-b3",
                                   "c4-b5", "c5-b5", "c5-c6"});
}

TEST_CASE("event list: keepIf keeps the chosen events, in their order") {
    const Rules rules = Rules::preset(Ruleset::Holochess);
    const Position pos = load("./.N.Lk......./StG......... 1 2 0 1", rules);
    EventList all;
    pos.generate(all);
    REQUIRE(all.size() > 8);
    std::vector<std::uint16_t> expected;
    for (int i = 0; i < all.size(); ++i)
        if (i % 3 != 1) expected.push_back(all.code(i));
    EventList list = all;
    int seen = 0;
    list.keepIf([&](Event) { return seen++ % 3 != 1; });
    CHECK(seen == all.size());
    std::vector<std::uint16_t> kept;
    for (int i = 0; i < list.size(); ++i)
        kept.push_back(list.code(i));
    CHECK(kept == expected);
    list.keepIf([](Event) { return true; });
    CHECK(list.size() == static_cast<int>(expected.size()));
    list.keepIf([](Event) { return false; });
    CHECK(list.empty());
}

TEST_CASE("a push is placed by the attacker's player, a counter-push by the defender's") {
    const Rules rules;
    const Position melee = load(kMelee, rules);

    const Position attack = play(melee, "axb2");
    CHECK(attack.phase() == Phase::Outcome);
    CHECK(attack.pendingFrom() == Cell::centre());
    CHECK(attack.pendingTo() == cell("b2"));
    CHECK(attack.quiet() == 0u);
    CHECK(tokens(attack) == std::vector<std::string>{"kill", "push", "counterpush", "counterkill"});

    // Push: player 1 places player 2's k; b2's only empty neighbour is b3, still an event.
    const Position push = play(melee, "axb2 push");
    CHECK(push.phase() == Phase::Placement);
    CHECK(push.decider() == Player::One);
    CHECK(push.sideToMove() == Player::One);
    CHECK(push.pendingFrom() == cell("b2"));
    CHECK(tokens(push) == std::vector<std::string>{"b2-b3"});
    CHECK(push.parseEvent("B2-B3") == Event::place(cell("b2"), cell("b3")));
    CHECK_FALSE(push.isLegal(Event::move(cell("b2"), cell("b3"))));
    const Position placed = play(push, "b2-b3");
    CHECK(placed.phase() == Phase::Decision);
    CHECK(placed.at(cell("b3")).letter() == 'k');
    CHECK(placed.at(cell("b2")).isNone());
    CHECK(placed.at(Cell::centre()).letter() == 'S');  // the attacker never advances
    CHECK(placed.actionsLeft() == 1);
    CHECK(placed.decider() == Player::One);

    // Counter-push: player 2 places player 1's S, off the centre, while player 1 is on turn.
    const Position counter = play(melee, "axb2 counterpush");
    CHECK(counter.phase() == Phase::Placement);
    CHECK(counter.decider() == Player::Two);
    CHECK(counter.sideToMove() == Player::One);
    CHECK(counter.pendingFrom() == Cell::centre());
    CHECK(tokens(counter) ==
          std::vector<std::string>{"a-b3", "a-b4", "a-b5", "a-b8", "a-b9", "a-b10", "a-b11"});
    const Position back = play(counter, "a-b4");
    CHECK(back.decider() == Player::One);
    CHECK(back.sideToMove() == Player::One);
    CHECK(back.actionsLeft() == 1);
    CHECK(back.at(cell("b4")).letter() == 'S');

    // The same with player 2 on turn: k attacks S; the roles swap.
    const Position two = load("S/Hk...mN....l/tG.........g 2 1 0 1", rules);
    const Position twoPush = play(two, "b2xa push");
    CHECK(twoPush.decider() == Player::Two);
    const Position twoCounter = play(two, "b2xa counterpush");
    CHECK(twoCounter.decider() == Player::One);
    CHECK(tokens(twoCounter) == std::vector<std::string>{"b2-b3"});
    // The placement ends player 2's last action: player 1's turn begins.
    const Position after = play(twoCounter, "b2-b3");
    CHECK(after.sideToMove() == Player::One);
    CHECK(after.decider() == Player::One);
    CHECK(after.actionsLeft() == 2);
    CHECK(after.turn() == 2u);
}

TEST_CASE("blocked pushes under each BlockedPush policy") {
    // On the melee board t on c1 and H on b1 have no empty neighbour.
    struct Expect {
        std::string policy;
        bool pushedDies;         // t after H's push
        bool counterPushedDies;  // H after t's counter-push
    };
    for (const Expect& x : {Expect{"stay", false, false}, Expect{"kill", true, true},
                            Expect{"kill-on-push", true, false}}) {
        CAPTURE(x.policy);
        const std::string option = "BlockedPush=" + x.policy;
        const Rules rules = rulesWith(Ruleset::Kelly, {option.c_str()});
        const Position melee = load(kMelee, rules);
        const Position push = play(melee, "b1xc1 push");
        CHECK(push.phase() == Phase::Decision);  // no placement event
        CHECK(push.actionsLeft() == 1);          // the action is used
        CHECK(push.sideToMove() == Player::One);
        CHECK(push.at(cell("c1")).isNone() == x.pushedDies);
        CHECK(push.at(cell("b1")).letter() == 'H');
        CHECK(push.pieces(Player::Two).count() == (x.pushedDies ? 4 : 5));

        const Position counter = play(melee, "b1xc1 counterpush");
        CHECK(counter.phase() == Phase::Decision);
        CHECK(counter.actionsLeft() == 1);
        CHECK(counter.decider() == Player::One);
        CHECK(counter.at(cell("b1")).isNone() == x.counterPushedDies);
        CHECK(counter.at(cell("c1")).letter() == 't');

        // G on c2 pushing t: the same box.
        CHECK(play(melee, "c2xc1 push").at(cell("c1")).isNone() == x.pushedDies);
    }
    // The presets: holochess kills, the others stay.
    CHECK(Rules::preset(Ruleset::Holochess).blockedPush() == BlockedPush::Kill);
    CHECK(Rules::preset(Ruleset::Kelly).blockedPush() == BlockedPush::Stay);
    CHECK(Rules::preset(Ruleset::Dalsian).blockedPush() == BlockedPush::Stay);
    CHECK(Rules::preset(Ruleset::DalsianClassic).blockedPush() == BlockedPush::Stay);
}

TEST_CASE("end checks: a player without pieces loses, also in the middle of a turn") {
    const Rules rules;
    const Position start = load("L/n.........../...S........ 1 2 0 1", rules);
    const Position won = play(start, "axb1 kill");
    CHECK(won.result() == Result::Player1Wins);
    CHECK(won.actionsLeft() == 1);
    CHECK(won.sideToMove() == Player::One);
    CHECK(won.winProbability(Player::One) == 1.0);
    CHECK(won.winProbability(Player::Two) == 0.0);
    checkTerminal(won);

    // Player 2 takes player 1's last piece with the last action of its turn.
    const Position last = load("S/n.........../...k........ 2 1 0 1", rules);
    const Position lost = play(last, "b1xa kill");
    CHECK(lost.result() == Result::Player2Wins);
    CHECK(lost.winProbability(Player::Two) == 1.0);
    checkTerminal(lost);
}

TEST_CASE("end checks: one piece each is a showdown, scored by its odds") {
    const Rules rules;
    const Position start = load("L/n.........../...S........ 1 2 0 1", rules);
    const Position showdown = play(start, "axb1 counterkill");
    CHECK(showdown.result() == Result::Showdown);
    checkTerminal(showdown);
    CHECK(showdown.winProbability(Player::One) ==
          doctest::Approx(43608451.0 / 1430290629.0).epsilon(1e-15));
    CHECK(showdown.winProbability(Player::Two) ==
          doctest::Approx(1386682178.0 / 1430290629.0).epsilon(1e-15));
    // Pushed pieces do not change the count: L pushed off the centre keeps the game going.
    CHECK_FALSE(play(start, "axb1 counterpush a-b2").isOver());
}

TEST_CASE("end checks: CentreWin hold counters") {
    const Rules classic = Rules::preset(Ruleset::DalsianClassic);
    REQUIRE(classic.centreWin() == 3);
    const Position p1 = load("N/..k........./...G....mt.. 1 2 0 9 2/2", classic);

    SUBCASE("player 1 keeps the centre through the end of the turn and wins") {
        const Position mid = play(p1, "c4-c6");
        CHECK_FALSE(mid.isOver());
        CHECK(mid.hold(Player::One) == 2u);  // counted only when the turn ends
        const Position end = play(mid, "c6-c4");
        CHECK(end.result() == Result::Player1Wins);
        CHECK(end.hold(Player::One) == 3u);
        CHECK(end.hold(Player::Two) == 2u);
        checkTerminal(end);
    }
    SUBCASE("leaving the centre resets the counter; only the mover's counter changes") {
        const Position left = play(p1, "a-b1 c4-c6");
        CHECK_FALSE(left.isOver());
        CHECK(left.hold(Player::One) == 0u);
        CHECK(left.hold(Player::Two) == 2u);
        CHECK(left.sideToMove() == Player::Two);
        // Player 2 takes the centre for the end of its turn: its counter reaches 3.
        const Position p2 = play(left, "c9-a b3-b5");
        CHECK(p2.result() == Result::Player2Wins);
        CHECK(p2.hold(Player::Two) == 3u);
        CHECK(p2.hold(Player::One) == 0u);
    }
    SUBCASE("an attack on a player's piece resets that player's counter at once") {
        const Position p2 = load("N/..k........./...G....mt.. 2 2 0 10 2/1", classic);
        const Position attacked = play(p2, "b3xa");
        CHECK(attacked.phase() == Phase::Outcome);
        CHECK(attacked.hold(Player::One) == 0u);
        CHECK(attacked.hold(Player::Two) == 1u);  // the attacker's own counter stays
        CHECK(attacked.key() == attacked.computeKey());
        // Whatever the outcome, even the attacker's death.
        CHECK(play(attacked, "counterkill").hold(Player::One) == 0u);
        CHECK(play(p2, "b3xa push").hold(Player::One) == 0u);
    }
    SUBCASE("a piece on the centre counts however it got there, even placed by the enemy") {
        // G attacks k; player 2 places the counter-pushed G on the centre.
        const Position g = load("./Gk........../.....T..m... 1 1 0 7 2/0", classic);
        const Position counter = play(g, "b1xb2 counterpush");
        CHECK(counter.decider() == Player::Two);
        const Position placed = play(counter, "b1-a");
        CHECK(placed.result() == Result::Player1Wins);
        CHECK(placed.hold(Player::One) == 3u);
    }
    SUBCASE("CentreWin 1 wins at the first turn end on the centre") {
        const Rules quick = rulesWith(Ruleset::Kelly, {"CentreWin=1"});
        const Position q = load("./Sn........../.....H..t... 1 2 0 1", quick);
        const Position mid = play(q, "b1-a");  // b1 b12 a
        CHECK_FALSE(mid.isOver());
        CHECK(play(mid, "c6-c7").result() == Result::Player1Wins);
    }
}

TEST_CASE("end checks: the order no pieces, showdown, CentreWin, quiet draw") {
    const Rules classic = Rules::preset(Ruleset::DalsianClassic);
    // N on the centre with hold 2, G next to k: player 1's last action of the turn.
    SUBCASE("showdown before CentreWin") {
        const Position pos = load("N/kG........../............ 1 1 0 5 2/0", classic);
        const Position showdown = play(pos, "b2xb1 counterkill");
        CHECK(showdown.result() == Result::Showdown);
        CHECK(showdown.hold(Player::One) == 2u);
        // Had G pushed k instead, the turn would end on the centre: a CentreWin.
        CHECK(play(pos, "b2xb1 push b1-c1").result() == Result::Player1Wins);
    }
    SUBCASE("CentreWin before the quiet draw") {
        const Position pos = load("N/kG........../.......t.... 1 1 79 5 2/0", classic);
        const Position win = play(pos, "b2-b4");
        CHECK(win.quiet() == 80u);
        CHECK(win.result() == Result::Player1Wins);
        const Position noHold = load("N/kG........../.......t.... 1 1 79 5 0/0", classic);
        CHECK(play(noHold, "b2-b4").result() == Result::Draw);
    }
    SUBCASE("showdown and no pieces end attacks, which reset the quiet counter") {
        const Rules kelly;
        const Position pos = load("L/n.........../...S........ 1 2 79 1", kelly);
        CHECK(play(pos, "axb1 counterkill").result() == Result::Showdown);
        CHECK(play(pos, "axb1 counterkill").quiet() == 0u);
    }
}

TEST_CASE("end checks: the quiet draw counts moves and passes of both players") {
    const Rules kelly;
    const Position q78 = load("./Sn........../.....H..t... 1 2 78 79", kelly);
    const Position one = play(q78, "c6-c7");
    CHECK(one.quiet() == 79u);
    CHECK_FALSE(one.isOver());
    const Position two = play(one, "c7-c8");
    CHECK(two.quiet() == 80u);
    CHECK(two.result() == Result::Draw);
    CHECK(two.winProbability(Player::One) == 0.0);
    CHECK(two.winProbability(Player::Two) == 0.0);
    checkTerminal(two);
    // Mid-turn: the draw comes at once.
    const Position q79 = load("./Sn........../.....H..t... 1 2 79 79", kelly);
    const Position mid = play(q79, "c6-c7");
    CHECK(mid.result() == Result::Draw);
    CHECK(mid.actionsLeft() == 1);
    // An attack resets the counter.
    CHECK(play(q78, "b1xb2").quiet() == 0u);
    CHECK_FALSE(play(q78, "b1xb2 push b2-b3 c6-c7").isOver());
    // A pass is an action too.
    const Rules dalsian = Rules::preset(Ruleset::Dalsian);
    const Position pass = load("./t....s....../Hg..mNl....k 1 2 79 1", dalsian);
    CHECK(tokens(pass) == std::vector<std::string>{"pass"});
    CHECK(play(pass, "pass").result() == Result::Draw);
    // DrawTurns sets the limit; 0 turns the rule off.
    const Rules short3 = rulesWith(Ruleset::Kelly, {"DrawTurns=3"});
    const Position s = load("./Sn........../.....H..t... 1 2 5 1", short3);
    CHECK(play(s, "c6-c7").result() == Result::Draw);
    const Rules off = rulesWith(Ruleset::Kelly, {"DrawTurns=0"});
    const Position never = load("./Sn........../.....H..t... 1 2 4000000000 1", off);
    const Position longer = play(never, "c6-c7 c7-c8");
    CHECK_FALSE(longer.isOver());
    CHECK(longer.quiet() == 4000000002u);
}

TEST_CASE("DFEN: round trips") {
    struct Case {
        Ruleset ruleset;
        const char* dfen;
    };
    const std::vector<Case> cases = {
        {Ruleset::Kelly, "./............/.GHSN..mltk. 1 2 0 1"},
        {Ruleset::Holochess, "./............/.SGNL..mhtk. 1 2 0 1"},
        {Ruleset::Kelly, kMelee},
        {Ruleset::Holochess, "./L..m.....t../...S..G..k.. 1 2 0 1"},
        {Ruleset::Dalsian, "./SmKl......../tNh......... 1 2 0 1"},
        {Ruleset::Kelly, "L/n.........../...S........ 1 2 0 1"},
        {Ruleset::DalsianClassic, "N/..k........./...G....mt.. 1 2 0 9 2/2"},
        {Ruleset::DalsianClassic, "N/..k........./...G....mt.. 2 2 0 10 2/0"},
        {Ruleset::Kelly, "./Sn........../.....H..t... 1 2 78 79"},
        {Ruleset::Dalsian, "./t....s....../Hg..mNl....k 1 2 0 1"},
        {Ruleset::Kelly, "./Tn.lL......./........k... 1 2 0 1"},
        {Ruleset::Kelly, "S/MGHTNKLsmght/nklSMGHTNKLs 2 1 4294967295 4294967295"},
        {Ruleset::Kelly, "./S.........../...........n 1 2 0 1"},                // terminal
        {Ruleset::DalsianClassic, "N/..k........./...G....mt.. 2 2 0 10 3/0"},  // terminal
        {Ruleset::Kelly, "N/..k........./...G....mt.. 2 2 0 10 0/7"},           // kept, CentreWin 0
    };
    for (const Case& c : cases) {
        CAPTURE(c.dfen);
        const Rules rules = Rules::preset(c.ruleset);
        const Position pos = load(c.dfen, rules);
        CHECK(pos.dfen() == c.dfen);
        const Position again = load(pos.dfen(), rules);
        CHECK(again == pos);
        CHECK(again.key() == pos.computeKey());
    }
    // Non-canonical input prints canonically: blanks, explicit 0/0 holds, leading zeros.
    const Rules kelly;
    CHECK(load(" \t./............/.GHSN..mltk.  1\t2 0   1 \t", kelly).dfen() ==
          "./............/.GHSN..mltk. 1 2 0 1");
    CHECK(load("./............/.GHSN..mltk. 1 2 0 1 0/0", kelly).dfen() ==
          "./............/.GHSN..mltk. 1 2 0 1");
    CHECK(load("./............/.GHSN..mltk. 2 1 007 0012", kelly).dfen() ==
          "./............/.GHSN..mltk. 2 1 7 12");
    // The fields are what they say.
    const Rules classic = Rules::preset(Ruleset::DalsianClassic);
    const Position p = load("N/..k........./...G....mt.. 2 1 17 10 2/1", classic);
    CHECK(p.sideToMove() == Player::Two);
    CHECK(p.decider() == Player::Two);
    CHECK(p.actionsLeft() == 1);
    CHECK(p.quiet() == 17u);
    CHECK(p.turn() == 10u);
    CHECK(p.hold(Player::One) == 2u);
    CHECK(p.hold(Player::Two) == 1u);
    CHECK(p.at(Cell::centre()).letter() == 'N');
    CHECK(p.at(cell("b3")).letter() == 'k');
    CHECK(p.at(cell("c4")).letter() == 'G');
    CHECK(p.at(cell("c9")).letter() == 'm');
    CHECK(p.at(cell("c10")).letter() == 't');
    CHECK(p.occupied().count() == 5);
}

TEST_CASE("DFEN: each kind of malformed input is rejected, naming the field") {
    const Rules kelly;
    struct Bad {
        const char* dfen;
        const char* field;
    };
    const std::vector<Bad> bad = {
        {"", "fields"},
        {"./............/.GHSN..mltk. 1 2 0", "fields"},
        {"./............/.GHSN..mltk. 1 2 0 1 0/0 x", "fields"},
        {"./............/.GHSN..mltk.1 2 0 1", "fields"},
        {"./.........../.GHSN..mltk. 1 2 0 1", "cells"},
        {"./............./.GHSN..mltk. 1 2 0 1", "cells"},
        {"../............/.GHSN..mltk. 1 2 0 1", "cells"},
        {"/............/.GHSN..mltk. 1 2 0 1", "cells"},
        {"./............/.GHSN..mltk./ 1 2 0 1", "reserve"},  // v1.3: an empty reserve part
        {"./............/.GHSN..mltk.. 1 2 0 1", "cells"},
        {"./............-.GHSN..mltk. 1 2 0 1", "cells"},
        {"./............/.GHSN..mltx. 1 2 0 1", "cells"},
        {"./......1...../.GHSN..mltk. 1 2 0 1", "cells"},
        {"./............/............ 1 2 0 1", "no pieces"},
        {"./............/.GHSN..mltk. 0 2 0 1", "side"},
        {"./............/.GHSN..mltk. 3 2 0 1", "side"},
        {"./............/.GHSN..mltk. w 2 0 1", "side"},
        {"./............/.GHSN..mltk. 01 2 0 1", "side"},
        {"./............/.GHSN..mltk. 1 0 0 1", "actions"},
        {"./............/.GHSN..mltk. 1 3 0 1", "actions"},
        {"./............/.GHSN..mltk. 1 x 0 1", "actions"},
        {"./............/.GHSN..mltk. 1 2 -1 1", "quiet"},
        {"./............/.GHSN..mltk. 1 2 +1 1", "quiet"},
        {"./............/.GHSN..mltk. 1 2 1.5 1", "quiet"},
        {"./............/.GHSN..mltk. 1 2 0x1 1", "quiet"},
        {"./............/.GHSN..mltk. 1 2 4294967296 1", "quiet"},
        {"./............/.GHSN..mltk. 1 2 0 0", "turn"},
        {"./............/.GHSN..mltk. 1 2 0 -1", "turn"},
        {"./............/.GHSN..mltk. 1 2 0 one", "turn"},
        {"./............/.GHSN..mltk. 1 2 0 4294967296", "turn"},
        {"./............/.GHSN..mltk. 1 2 0 1 1", "holds"},
        {"./............/.GHSN..mltk. 1 2 0 1 1/", "holds"},
        {"./............/.GHSN..mltk. 1 2 0 1 /1", "holds"},
        {"./............/.GHSN..mltk. 1 2 0 1 1/2/3", "holds"},
        {"./............/.GHSN..mltk. 1 2 0 1 x/0", "holds"},
        {"./............/.GHSN..mltk. 1 2 0 1 -1/0", "holds"},
        {"./............/.GHSN..mltk. 1 2 0 1 0/4294967296", "holds"},
    };
    for (const Bad& b : bad) {
        CAPTURE(b.dfen);
        const std::string error = rejection(b.dfen, kelly);
        CAPTURE(error);
        CHECK(error.find(b.field) != std::string::npos);
    }
    // The player on turn cannot hold a won counter: they would have won already.
    const Rules classic = Rules::preset(Ruleset::DalsianClassic);
    const std::string won = rejection("N/..k........./...G....mt.. 1 2 0 9 3/0", classic);
    CHECK(won.find("holds") != std::string::npos);
    CHECK(won.find("player on turn") != std::string::npos);
    CHECK(rejection("N/..k........./...G....mt.. 2 2 0 9 0/5", classic).find("holds") !=
          std::string::npos);
    const Rules one = rulesWith(Ruleset::Kelly, {"CentreWin=1"});
    CHECK(rejection("N/..k........./...G....mt.. 1 2 0 9 1/0", one).find("holds") !=
          std::string::npos);
    // The same counters are fine without CentreWin.
    CHECK(Position::fromDfen("N/..k........./...G....mt.. 1 2 0 9 3/0", kelly).has_value());
}

TEST_CASE("DFEN: finished games are valid, terminal positions") {
    const Rules kelly;
    const Rules classic = Rules::preset(Ruleset::DalsianClassic);
    struct Case {
        const Rules* rules;
        const char* dfen;
        Result result;
    };
    const std::vector<Case> cases = {
        {&kelly, "S/M.........../............ 1 2 0 1", Result::Player1Wins},
        {&kelly, "S/M.........../............ 2 1 0 1", Result::Player1Wins},
        {&kelly, "./mk........../............ 1 2 0 1", Result::Player2Wins},
        {&kelly, "S/n.........../............ 2 2 0 1", Result::Showdown},
        {&kelly, "S/n.........../............ 1 2 80 1", Result::Showdown},  // before draw
        {&classic, "S/n.........../............ 1 2 0 1 0/3", Result::Showdown},
        {&classic, "N/..k........./...G....mt.. 2 2 0 10 3/0", Result::Player1Wins},
        {&classic, "N/..k........./...G....mt.. 1 2 0 10 0/3", Result::Player2Wins},
        {&classic, "N/..k........./...G....mt.. 1 1 0 10 0/99", Result::Player2Wins},
        {&classic, "N/..k........./...G....mt.. 2 2 80 10 3/0", Result::Player1Wins},
        {&kelly, "N/..k........./...G....mt.. 2 2 80 10", Result::Draw},
        {&kelly, "N/..k........./...G....mt.. 2 2 4000000000 10", Result::Draw},
    };
    for (const Case& c : cases) {
        CAPTURE(c.dfen);
        const Position pos = load(c.dfen, *c.rules);
        CHECK(pos.result() == c.result);
        checkTerminal(pos);
        CHECK(pos.dfen() == c.dfen);
    }
    // Just short of the limits: still playing.
    CHECK_FALSE(load("N/..k........./...G....mt.. 2 2 79 10", kelly).isOver());
    CHECK_FALSE(load("N/..k........./...G....mt.. 1 2 0 10 2/2", classic).isOver());
    CHECK_FALSE(load("N/..k........./...G....mt.. 1 2 0 10 9/9", kelly).isOver());
    // A showdown's chances add up to 1.
    const Position s = load("S/n.........../............ 2 2 0 1", kelly);
    CHECK(s.winProbability(Player::One) + s.winProbability(Player::Two) ==
          doctest::Approx(1.0).epsilon(1e-15));
}

TEST_CASE("hold counters without CentreWin are kept as given and not hashed") {
    const Rules kelly;
    const Position with = load("N/..k........./...G....mt.. 1 2 0 9 2/5", kelly);
    const Position without = load("N/..k........./...G....mt.. 1 2 0 9", kelly);
    CHECK(with.key() == without.key());
    CHECK_FALSE(with == without);
    const Position later = play(with, "c4-c6 c6-c4 b3xa push");
    CHECK(later.hold(Player::One) == 2u);
    CHECK(later.hold(Player::Two) == 5u);
    // With CentreWin they are part of the key.
    const Rules classic = Rules::preset(Ruleset::DalsianClassic);
    CHECK(load("N/..k........./...G....mt.. 1 2 0 9 2/1", classic).key() !=
          load("N/..k........./...G....mt.. 1 2 0 9", classic).key());
    // The quiet counter and the turn number are never part of the key.
    CHECK(load("N/..k........./...G....mt.. 1 2 7 9", kelly).key() ==
          load("N/..k........./...G....mt.. 1 2 0 1", kelly).key());
    // Holds of 64 and more hash alike (they can only stand in finished games).
    CHECK(load("N/..k........./...G....mt.. 2 2 0 9 64/0", classic).key() ==
          load("N/..k........./...G....mt.. 2 2 0 9 700/0", classic).key());
    CHECK(load("N/..k........./...G....mt.. 2 2 0 9 63/0", classic).key() ==
          load("N/..k........./...G....mt.. 2 2 0 9 64/0", classic).key());
    CHECK(load("N/..k........./...G....mt.. 2 2 0 9 62/0", classic).key() !=
          load("N/..k........./...G....mt.. 2 2 0 9 63/0", classic).key());
}

TEST_CASE("events: tokens print and parse, case-insensitive; bad tokens are rejected") {
    const Cell a = Cell::centre(), b4 = cell("b4"), b10 = cell("b10"), c10 = cell("c10");
    const std::vector<std::pair<Event, std::string>> samples = {
        {Event::move(b10, c10), "b10-c10"},
        {Event::attack(b4, a), "b4xa"},
        {Event::attack(a, b10), "axb10"},
        {Event::pass(), "pass"},
        {Event::outcome(Outcome::Kill), "kill"},
        {Event::outcome(Outcome::Push), "push"},
        {Event::outcome(Outcome::CounterPush), "counterpush"},
        {Event::outcome(Outcome::CounterKill), "counterkill"},
        {Event::place(a, b4), "a-b4"},
        {Event(), "none"},
    };
    for (const auto& sample : samples) {
        const auto& [e, token] = sample;
        const std::string shown(token);  // CAPTURE cannot take a structured binding
        CAPTURE(shown);
        CHECK(e.token() == token);
        CHECK(Event::fromCode(e.code()) == e);
        if (e.kind() != EventKind::Place && !e.isNone()) CHECK(Event::parse(token) == e);
    }
    CHECK(Event::parse("a-b4") == Event::move(a, b4));  // a placement only in its position
    CHECK(Event::parse("B4XA") == Event::attack(b4, a));
    CHECK(Event::parse("Pass") == Event::pass());
    CHECK(Event::parse("COUNTERPUSH") == Event::outcome(Outcome::CounterPush));
    CHECK(Event::parse("C12-c1") == Event::move(cell("c12"), cell("c1")));
    for (const char* bad : {"", "none", "a", "a-", "-b1", "xa", "b1_b2", "b13-b1", "b1-d1", "kil",
                            "pass1", "b1xxb2", "b1--b2", "b1 b2", "b1-b2-b3", "push!"}) {
        CAPTURE(bad);
        CHECK_FALSE(Event::parse(bad).has_value());
    }
    // Codes are unique over every event there is.
    std::vector<std::uint16_t> codes;
    for (int f = 0; f < Cell::kCount; ++f) {
        for (int t = 0; t < Cell::kCount; ++t) {
            codes.push_back(Event::move(Cell(f), Cell(t)).code());
            codes.push_back(Event::attack(Cell(f), Cell(t)).code());
            codes.push_back(Event::place(Cell(f), Cell(t)).code());
        }
    }
    for (const Outcome o : kOutcomes)
        codes.push_back(Event::outcome(o).code());
    codes.push_back(Event::pass().code());
    std::sort(codes.begin(), codes.end());
    CHECK(std::adjacent_find(codes.begin(), codes.end()) == codes.end());
    CHECK(codes.front() != 0);
}

TEST_CASE("events: playTokens names the bad token and its place") {
    const Rules kelly;
    const Position melee = load(kMelee, kelly);
    std::string error;
    CHECK_FALSE(playTokens(melee, "axb2 zap", &error).has_value());
    CHECK(error == "event 2 'zap' is not an event");
    CHECK_FALSE(playTokens(melee, "a-a", &error).has_value());
    CHECK(error == "event 1 'a-a' is not legal here");
    CHECK_FALSE(playTokens(melee, "b7-b9", &error).has_value());  // N moves 1
    CHECK(error.find("'b7-b9' is not legal here") != std::string::npos);
    CHECK_FALSE(playTokens(melee, "axb2 push b2-c3", &error).has_value());
    CHECK(error.find("event 3") != std::string::npos);
    CHECK_FALSE(playTokens(melee, "axb2 b2-b3", &error).has_value());  // outcome due
    CHECK_FALSE(playTokens(melee, "push", &error).has_value());        // decision due
    CHECK_FALSE(playTokens(melee, "axb7", &error).has_value());        // own piece
    CHECK_FALSE(playTokens(melee, "pass", &error).has_value());        // not forced
    CHECK(playTokens(melee, "  AXB2   Push\tb2-B3 ").has_value());
    CHECK(playTokens(melee, "").value() == melee);
}

TEST_CASE("probabilities of the pending attack are the rules' exact odds") {
    const Rules kelly;
    const Position attack = play(load(kMelee, kelly), "b7xb6");  // N against m
    const auto& combat = kelly.combat(Creature::Ngok, Creature::Monnok);
    EventList list;
    attack.generate(list);
    double sum = 0;
    for (const Event e : list) {
        CHECK(attack.probability(e) == combat.exact.probability(e.outcome()));
        CHECK(attack.probability(e) > 0);
        sum += attack.probability(e);
    }
    CHECK(sum == doctest::Approx(1.0).epsilon(1e-14));
    CHECK(list.size() == combat.outcomeCount);
}

TEST_CASE("rule options: presets, every option on and off, parsing") {
    struct Preset {
        Ruleset ruleset;
        DiceModel dice;
        bool safe, straight;
        BlockedPush blocked;
        int centreWin;
    };
    for (const Preset p :
         {Preset{Ruleset::Kelly, DiceModel::Pools, false, false, BlockedPush::Stay, 0},
          Preset{Ruleset::DalsianClassic, DiceModel::D20, false, false, BlockedPush::Stay, 3},
          Preset{Ruleset::Dalsian, DiceModel::TwoD10, true, false, BlockedPush::Stay, 0},
          Preset{Ruleset::Holochess, DiceModel::SplitD6, false, true, BlockedPush::Kill, 0}}) {
        const Rules r = Rules::preset(p.ruleset);
        CHECK(r.dice() == p.dice);
        CHECK(r.safeOuterOrbit() == p.safe);
        CHECK(r.centreStraight() == p.straight);
        CHECK(r.blockedPush() == p.blocked);
        CHECK(r.centreWin() == p.centreWin);
        CHECK_FALSE(r.kingOfTheCentre());
        CHECK(r.drawTurns() == 40);
        CHECK(parseRuleset(rulesetName(p.ruleset)) == p.ruleset);
    }
    CHECK(Rules().describe() ==
          "kelly Dice=pools SafeOuterOrbit=false KingOfTheCentre=false CentreStraight=false "
          "BlockedPush=stay CentreWin=0 DrawTurns=40");

    // Fingerprints follow the resolved rules, not the names they were asked for by.
    {
        RuleOptions likeDalsian;
        REQUIRE_FALSE(likeDalsian.set("Dice", "2d10"));
        REQUIRE_FALSE(likeDalsian.set("SafeOuterOrbit", "true"));
        const Rules a(likeDalsian), dalsian = Rules::preset(Ruleset::Dalsian);
        CHECK(a.gameFingerprint() == dalsian.gameFingerprint());
        CHECK(a.fingerprint() == dalsian.fingerprint());
        std::set<std::uint64_t> games;
        for (const Ruleset r : kRulesets)
            games.insert(Rules::preset(r).gameFingerprint());
        CHECK(games.size() == kRulesets.size());
        RuleOptions shortDraw;
        REQUIRE_FALSE(shortDraw.set("DrawTurns", "10"));
        const Rules shorter(shortDraw);
        CHECK(shorter.gameFingerprint() == Rules().gameFingerprint());
        CHECK(shorter.fingerprint() != Rules().fingerprint());
        for (const char* option : {"KingOfTheCentre=true", "BlockedPush=kill", "CentreWin=3",
                                   "CentreStraight=true", "Dice=d20"}) {
            RuleOptions o;
            REQUIRE_FALSE(o.setAssignment(option));
            CHECK_MESSAGE(Rules(o).gameFingerprint() != Rules().gameFingerprint(), option);
        }
    }

    // Ratings (attack/defence/movement) of both tables.
    const Rules kelly, holo = Rules::preset(Ruleset::Holochess);
    CHECK(kelly.ratings(Creature::Molator).movement == 2);
    CHECK(kelly.ratings(Creature::Ngok).defence == 8);
    CHECK(kelly.ratings(Creature::Klorslug).attack == 7);
    CHECK(holo.ratings(Creature::Molator).movement == 3);
    CHECK(holo.ratings(Creature::Strider).attack == 1);

    // Each boolean option on and off over its ruleset's default.
    for (const char* name : {"SafeOuterOrbit", "KingOfTheCentre", "CentreStraight"}) {
        for (const char* value : {"true", "false"}) {
            RuleOptions o;
            REQUIRE_FALSE(o.set(name, value));
            const Rules r(o);
            const bool on = std::string(value) == "true";
            const std::string n = name;
            CHECK((n == "SafeOuterOrbit"    ? r.safeOuterOrbit()
                   : n == "KingOfTheCentre" ? r.kingOfTheCentre()
                                            : r.centreStraight()) == on);
        }
    }
    RuleOptions o;
    o.ruleset = Ruleset::Dalsian;
    REQUIRE_FALSE(o.set("safeouterorbit", "FALSE"));  // names and values, any case
    CHECK_FALSE(Rules(o).safeOuterOrbit());
    REQUIRE_FALSE(o.set("SafeOuterOrbit", "ruleset"));
    CHECK(Rules(o).safeOuterOrbit());
    REQUIRE_FALSE(o.set("Dice", "d20"));
    CHECK(Rules(o).dice() == DiceModel::D20);
    // The dice option changes the odds, the ratings stay the ruleset's.
    CHECK(Rules(o).combat(Creature::Savrip, Creature::Ngok).exact.counts ==
          attackOdds(DiceModel::D20, 6, 8).counts);
    REQUIRE_FALSE(o.set("BlockedPush", "kill-on-push"));
    CHECK(Rules(o).blockedPush() == BlockedPush::KillOnPush);
    REQUIRE_FALSE(o.set("CentreWin", "5"));
    CHECK(Rules(o).centreWin() == 5);
    REQUIRE_FALSE(o.set("CentreWin", "-1"));
    CHECK(Rules(o).centreWin() == 0);
    REQUIRE_FALSE(o.set("DrawTurns", "7"));
    // Setting the ruleset resets everything but DrawTurns.
    REQUIRE_FALSE(o.set("BlockedPush", "kill"));
    REQUIRE_FALSE(o.set("Ruleset", "Dalsian-Classic"));
    const Rules reset(o);
    CHECK(reset.ruleset() == Ruleset::DalsianClassic);
    CHECK(reset.blockedPush() == BlockedPush::Stay);
    CHECK(reset.dice() == DiceModel::D20);
    CHECK(reset.centreWin() == 3);
    CHECK(reset.drawTurns() == 7);

    for (const auto& pair :
         std::vector<std::pair<const char*, const char*>>{{"Ruleset", "chess"},
                                                          {"Dice", "d12"},
                                                          {"SafeOuterOrbit", "yes"},
                                                          {"KingOfTheCentre", "1"},
                                                          {"CentreStraight", ""},
                                                          {"BlockedPush", "push"},
                                                          {"CentreWin", "-2"},
                                                          {"CentreWin", "21"},
                                                          {"CentreWin", "3x"},
                                                          {"DrawTurns", "1001"},
                                                          {"DrawTurns", "-1"},
                                                          {"Hash", "16"}}) {
        const char* name = pair.first;  // named: CAPTURE cannot take structured bindings
        const char* value = pair.second;
        CAPTURE(name);
        CAPTURE(value);
        RuleOptions before;
        before.drawTurns = 12;
        RuleOptions x = before;
        const auto err = x.set(name, value);
        REQUIRE(err.has_value());
        CHECK((err->find(value) != std::string::npos || err->find(name) != std::string::npos));
        CHECK(x.drawTurns == 12);
        CHECK(x.centreWin == -1);
    }
    CHECK(o.setAssignment("DrawTurns").has_value());
    CHECK(o.setAssignment("=3").has_value());
    CHECK_FALSE(o.setAssignment("drawturns=0"));
    CHECK(RuleOptions::isRuleOption("CENTREWIN"));
    CHECK_FALSE(RuleOptions::isRuleOption("Hash"));
}

TEST_CASE("a refusal is asked of a rule option before its value is read") {
    std::vector<std::string> asked;
    const RuleOptions::Refusal onlyDice = [&](const RuleOptionSpec& option) {
        asked.emplace_back(option.spec.name);
        return option.spec.name == "Dice" ? std::nullopt
                                          : std::optional<std::string>("refused here");
    };
    RuleOptions o;
    // The file is never opened: the refusal comes first, and nothing is set.
    CHECK(o.setAssignment("creaturefile=/nonexistent/creatures", onlyDice) == "refused here");
    CHECK(o.setAssignment("CentreWin=3", onlyDice) == "refused here");
    CHECK(o == RuleOptions{});
    CHECK_FALSE(o.setAssignment("dice=d20", onlyDice));
    CHECK(o.dice == DiceModel::D20);
    CHECK(asked == std::vector<std::string>{"CreatureFile", "CentreWin", "Dice"});
    // A name of no option is not asked about; a bad value of an accepted one is the rules'.
    const auto unknown = o.setAssignment("Hash=16", onlyDice);
    REQUIRE(unknown);
    CHECK(unknown->find("unknown rule option") != std::string::npos);
    const auto bad = o.setAssignment("Dice=d7", onlyDice);
    REQUIRE(bad);
    CHECK(bad->find("d7") != std::string::npos);
    CHECK(asked.size() == 4);
}

TEST_CASE("rule options change the events of a position") {
    // The melee board: 18 moves and 9 attacks.
    const Rules kelly;
    const Position plain = load(kMelee, kelly);
    CHECK(plain.countEvents() == 27);
    const std::vector<std::string> attacks = {"axb2",  "axb6",  "axb12", "b1xb2", "b1xb12",
                                              "b1xc1", "b7xb6", "c2xb2", "c2xc1"};
    auto attacksOf = [](const Position& p) {
        std::vector<std::string> out;
        for (const std::string& t : tokens(p))
            if (t.find('x') != std::string::npos) out.push_back(t);
        return out;
    };
    CHECK(attacksOf(plain) == attacks);
    // KingOfTheCentre: only S on the centre may attack (no enemy stands on a).
    const Rules king = rulesWith(Ruleset::Kelly, {"KingOfTheCentre=true"});
    CHECK(attacksOf(load(kMelee, king)) == std::vector<std::string>{"axb2", "axb6", "axb12"});
    // SafeOuterOrbit: nothing into or out of the c ring.
    const Rules safe = rulesWith(Ruleset::Kelly, {"SafeOuterOrbit=true"});
    CHECK(attacksOf(load(kMelee, safe)) ==
          std::vector<std::string>{"axb2", "axb6", "axb12", "b1xb2", "b1xb12", "b7xb6"});
    // CentreStraight: the moves are movegen's, piece by piece, then the one attack c4xb4.
    for (const bool straight : {false, true}) {
        const Rules r = rulesWith(Ruleset::Holochess,
                                  {straight ? "CentreStraight=true" : "CentreStraight=false"});
        const Position pos = load("./L..m.....t../...S..G..k.. 1 2 0 1", r);
        int moves = 0;
        for (const Cell from : pos.pieces(Player::One))
            moves += movegen::destinations(from, r.ratings(pos.at(from).creature()).movement,
                                           pos.emptyCells(), straight)
                         .count();
        CHECK(attacksOf(pos) == std::vector<std::string>{"c4xb4"});
        CHECK(pos.countEvents() == moves + 1);
        if (straight) CHECK(moves + 1 == 18);  // PERFT.md "centre", depth 1
        if (!straight) CHECK(moves > 17);      // L and M may leave the centre anywhere
    }
}

TEST_CASE("make/unmake restores the position exactly") {
    const Rules kill = rulesWith(Ruleset::Kelly, {"BlockedPush=kill"});
    const Rules classic = Rules::preset(Ruleset::DalsianClassic);
    struct Line {
        const Rules* rules;
        const char* dfen;
        const char* events;
    };
    const std::vector<Line> lines = {
        {&kill, kMelee, "axb2 counterpush a-b4 b1xc1 push"},  // blocked push kills t
        {&kill, kMelee, "b1xc1 counterpush c2xb2 kill"},      // blocked counter-push kills H
        {&classic, "N/..k........./...G....mt.. 1 2 0 9 2/2", "c4-c6 c6-c4"},  // CentreWin
        {&classic, "N/..k........./...G....mt.. 2 2 0 10 2/1", "b3xa counterkill"},
        {&kill, "L/n.........../...S........ 1 2 0 1", "axb1 counterkill"},  // showdown
    };
    for (const Line& l : lines) {
        CAPTURE(l.dfen);
        CAPTURE(l.events);
        Position pos = load(l.dfen, *l.rules);
        std::vector<Position> history;
        std::vector<Event> applied;
        std::vector<Position::Undo> undos;
        std::string_view rest = l.events;
        while (!rest.empty()) {
            const auto space = rest.find(' ');
            const std::string_view token = rest.substr(0, space);
            rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
            const auto e = pos.parseEvent(token);
            REQUIRE(e);
            history.push_back(pos);
            Position copy = pos;
            copy.apply(*e);
            undos.emplace_back();
            pos.apply(*e, undos.back());
            applied.push_back(*e);
            CHECK(pos == copy);
            CHECK(pos.key() == pos.computeKey());
        }
        while (!applied.empty()) {
            pos.undo(applied.back(), undos.back());
            CHECK(pos == history.back());
            applied.pop_back();
            undos.pop_back();
            history.pop_back();
        }
    }
    // perft by make/unmake counts the same and leaves the root as it was.
    const Rules kelly;
    Position melee = load(kMelee, kelly);
    const Position before = melee;
    CHECK(perftUnmake(melee, 3) == 9005u);
    CHECK(melee == before);
    const auto rows = perftDivideUnmake(melee, 2);
    CHECK(rows == perftDivide(before, 2));
    CHECK(melee == before);
}
