// Courtier (RULES §14): the PERFT.md numbers and divides, the lines, captures and end rules
// on hand-made positions, DFEN round trips and every §14.11 error, tokens, and random games
// checked at every event (key, counts, make/unmake, tokens, DFEN, the rules of a step).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "courtier.h"
#include "perft.h"
#include "position.h"
#include "rules.h"
#include "symmetry.h"

using namespace dejarik;

namespace {

const Rules& courtierRules() {
    static const Rules rules = Rules::preset(Ruleset::Courtier);
    return rules;
}

Position at(const char* dfen, const Rules& rules = courtierRules()) {
    std::string error;
    const auto pos = Position::fromDfen(dfen, rules, &error);
    INFO(dfen << ": " << error);
    REQUIRE(pos.has_value());
    return *pos;
}

Position after(const char* dfen, const char* tokens) {
    std::string error;
    const auto pos = playTokens(at(dfen), tokens, &error);
    INFO(tokens << ": " << error);
    REQUIRE(pos.has_value());
    return *pos;
}

std::map<std::string, std::uint64_t> divide(const Position& pos, int depth) {
    std::map<std::string, std::uint64_t> rows;
    for (const auto& [e, n] : perftDivide(pos, depth))
        rows[e.token()] = n;
    return rows;
}

struct PerftCase {
    const char* name;
    const char* dfen;
    std::vector<std::uint64_t> counts;
};

// PERFT.md, "Courtier".
const std::vector<PerftCase> kPerft = {
    {"startpos", "./............/UUUWUUuuuwuu 1 1 0 1", {6, 38, 408, 4348, 51476, 597250, 7719924}},
    {"single", "./..Uu...u..../W...U.w.U.u. 1 1 0 1", {12, 147, 1767, 20524}},
    {"centre", "u/.U.......u../W..U.u.U..w. 1 1 0 1", {12, 215, 2431, 33657}},
    {"choice", "./u.u.u...U.../U.U.U.w.W.u. 1 1 0 1", {13, 182, 2380, 32467}},
    {"double", "./Uu.u.....U../..U...w.W.u. 1 1 0 1", {13, 159, 1908, 22627}},
    {"king", "./..u.Uw..u..U/W....UU..u.. 1 1 0 1", {13, 132, 1566, 17212}},
    {"blocked", "./uu........../WUu...w....u 1 1 0 1", {1, 11, 11, 144}},
};

}  // namespace

TEST_CASE("courtier: the 42 lines") {
    CHECK(courtier::kLines.size() == 42);
    std::set<std::pair<int, int>> ends;
    for (const auto& l : courtier::kLines) {
        CHECK(board::adjacent(l.middle).has(l.end1));
        CHECK(board::adjacent(l.middle).has(l.end2));
        CHECK(l.end1 != l.end2);
        ends.insert(std::minmax(l.end1.index(), l.end2.index()));
    }
    CHECK(ends.size() == 42);  // no line twice
    // A piece on c_i is a middle only along orbit C, on b_i along orbit B and its ray, on a
    // between b_i and b_{i+6} (RULES §14.4).
    CHECK(courtier::kCellLines[Cell::outer(3).index()].flankCount == 1);
    CHECK(courtier::kCellLines[Cell::inner(3).index()].flankCount == 2);
    CHECK(courtier::kCellLines[Cell::centre().index()].flankCount == 6);
    CHECK(courtier::kCellLines[Cell::centre().index()].middles == Bitboard::innerRing());
    CHECK(courtier::kCellLines[Cell::outer(5).index()].middles ==
          (Bitboard::of(Cell::outer(4)) | Bitboard::of(Cell::outer(6)) |
           Bitboard::of(Cell::inner(5))));
}

TEST_CASE("courtier: perft of PERFT.md") {
    for (const PerftCase& c : kPerft) {
        CAPTURE(c.name);
        const Position pos = at(c.dfen);
        for (std::size_t d = 0; d < c.counts.size(); ++d)
            CHECK(perft(pos, static_cast<int>(d) + 1) == c.counts[d]);
        Position copy = pos;
        CHECK(perftUnmake(copy, 3) == c.counts[2]);
        CHECK(copy == pos);
    }
    CHECK(perft(Position::startpos(courtierRules()), 0) == 1);
}

TEST_CASE("courtier: divides of PERFT.md") {
    const Position start = Position::startpos(courtierRules());
    CHECK(start.dfen() == "./............/UUUWUUuuuwuu 1 1 0 1");
    const std::map<std::string, std::uint64_t> startRows = {
        {"c1-b1", 68}, {"c2-b2", 68}, {"c3-b3", 68}, {"c4-b4", 68}, {"c5-b5", 68}, {"c6-b6", 68}};
    CHECK(divide(start, 3) == startRows);
    const std::map<std::string, std::uint64_t> choice = {
        {"b9-axb1", 10}, {"b9-axb3", 10}, {"b9-axb5", 10}, {"b9-b8", 15}, {"b9-b10", 15},
        {"c1-c2", 16},   {"c1-c12", 15},  {"c3-c2", 16},   {"c3-c4", 16}, {"c5-c4", 16},
        {"c5-c6", 15},   {"c9-c8", 14},   {"c9-c10", 14}};
    CHECK(divide(at("./u.u.u...U.../U.U.U.w.W.u. 1 1 0 1"), 2) == choice);
    const std::map<std::string, std::uint64_t> king = {
        {"b5-a", 0},     {"b5-b4", 13},   {"b5-c5", 14}, {"b12-a", 0},  {"b12-b1", 13},
        {"b12-b11", 13}, {"b12-c12", 13}, {"c1-b1", 13}, {"c1-c2", 13}, {"c1-c12", 13},
        {"c6-c5", 14},   {"c7-b7", 0},    {"c7-c8", 13}};
    CHECK(divide(at("./..u.Uw..u..U/W....UU..u.. 1 1 0 1"), 2) == king);
}

TEST_CASE("courtier: captures") {
    SUBCASE("one candidate: taken without a suffix") {
        const Position p = after("./..Uu...u..../W...U.w.U.u. 1 1 0 1", "c5-b5");
        CHECK(p.at(Cell::inner(4)).isNone());
        CHECK(p.quiet() == 0u);
        CHECK_FALSE(at("./..Uu...u..../W...U.w.U.u. 1 1 0 1").parseEvent("c5-b5xb4"));
    }
    SUBCASE("through the centre") {
        const Position p = after("u/.U.......u../W..U.u.U..w. 1 1 0 1", "c8-b8");
        CHECK(p.at(Cell::centre()).isNone());
    }
    SUBCASE("a choice is one event each, the others stay") {
        const Position before = at("./u.u.u...U.../U.U.U.w.W.u. 1 1 0 1");
        CHECK_FALSE(before.parseEvent("b9-a"));
        CHECK_FALSE(before.parseEvent("b9-axb2"));
        const Position p = after("./u.u.u...U.../U.U.U.w.W.u. 1 1 0 1", "b9-axb3");
        CHECK(p.at(Cell::inner(3)).isNone());
        CHECK_FALSE(p.at(Cell::inner(1)).isNone());
        CHECK_FALSE(p.at(Cell::inner(5)).isNone());
        CHECK(after("./u.u.u...U.../U.U.U.w.W.u. 1 1 0 1", "B9-AXB1").at(Cell::inner(1)).isNone());
    }
    SUBCASE("double capture (RULES §14.7)") {
        // b1 U, b2 u, b4 u; c3-b3 takes b2, and the mover, flanked by b2 and b4, goes too.
        const Position p = after("./Uu.u.....U../..U...w.W.u. 1 1 0 1", "c3-b3");
        CHECK(p.at(Cell::inner(2)).isNone());
        CHECK(p.at(Cell::inner(3)).isNone());
        CHECK_FALSE(p.at(Cell::inner(4)).isNone());
        CHECK(p.quiet() == 0u);
    }
    SUBCASE("active only: stepping between two enemies captures nothing and survives") {
        const Position p = after("./u.u........./.W....w..... 1 1 0 1", "c2-b2");
        CHECK(p.pieces(Player::One).has(Cell::inner(2)));
        CHECK(p.pieces(Player::Two).count() == 3);
        CHECK(p.quiet() == 1u);
    }
    SUBCASE("X O O X captures nothing") {
        const Position p = after("./Uuu........./...W..w..... 1 1 0 1", "c4-b4");
        CHECK(p.pieces(Player::Two).count() == 3);
    }
}

TEST_CASE("courtier: end of the game") {
    SUBCASE("taking the King wins") {
        const Position p = after("./..u.Uw..u..U/W....UU..u.. 1 1 0 1", "c7-b7");
        CHECK(p.result() == Result::Player1Wins);
        CHECK(perft(p, 1) == 0);
    }
    SUBCASE("a King lost in a double capture loses; the mover's capture decides first") {
        // Player 1's King steps to b3, takes the guard on b2 and is flanked by b2 and b4.
        CHECK(after("./Uu.u......../..W...w..... 1 1 0 1", "c3-b3").result() ==
              Result::Player2Wins);
        // The same with the enemy King taken: the mover wins although its King goes too.
        CHECK(after("./Uw.u......../..W......... 1 1 0 1", "c3-b3").result() ==
              Result::Player1Wins);
    }
    SUBCASE("only the two Kings: draw") {
        // Player 1's Guard takes the guard on b2 with its King and goes in a double capture.
        CHECK(after("./Wu.w......../..U......... 1 1 0 1", "c3-b3").result() == Result::Draw);
        CHECK(at("./W.....w...../............ 2 1 3 9").result() == Result::Draw);
    }
    SUBCASE("the quiet draw counts moves and passes since the last capture") {
        RuleOptions o;
        o.ruleset = Ruleset::Courtier;
        o.drawTurns = 1;
        const Rules rules(o);
        Position p = at("./............/UUUWUUuuuwuu 1 1 0 1", rules);
        p.apply(*p.parseEvent("c1-b1"));
        CHECK_FALSE(p.isOver());
        p.apply(*p.parseEvent("c7-b7"));
        CHECK(p.result() == Result::Draw);
        CHECK(at("./............/UUUWUUuuuwuu 1 1 2 1", rules).result() == Result::Draw);
    }
    SUBCASE("boxed in: pass, which counts") {
        const Position p = at("./uu........../WUu...w....u 1 1 0 1");
        EventList events;
        p.generate(events);
        REQUIRE(events.size() == 1);
        CHECK(events[0] == Event::pass());
        const Position q = after("./uu........../WUu...w....u 1 1 0 1", "pass");
        CHECK(q.quiet() == 1u);
        CHECK(q.turn() == 2u);
        CHECK(q.sideToMove() == Player::Two);
        CHECK_FALSE(at("./............/UUUWUUuuuwuu 1 1 0 1").parseEvent("pass"));
    }
    SUBCASE("a player without a King has lost") {
        CHECK(at("./U.........../w..u........ 1 1 0 1").result() == Result::Player2Wins);
        CHECK(at("./u.........../W..U........ 2 1 0 1").result() == Result::Player1Wins);
    }
}

TEST_CASE("courtier: DFEN round trips and every error of RULES §14.11") {
    for (const char* dfen :
         {"./............/UUUWUUuuuwuu 1 1 0 1", "w/U.u.U.u.U.u./W........... 2 1 17 40",
          "./..u.Uw..u..U/W....UU..u.. 1 1 79 200"}) {
        CHECK(at(dfen).dfen() == dfen);
        CHECK(at(dfen).key() == at(dfen).computeKey());
    }
    const std::vector<std::pair<const char*, const char*>> bad = {
        {"./............/UUUWUUuuuGuu 1 1 0 1", "DFEN cells: 'G' on c10 is not a Courtier letter"},
        {"./............/UUUWUUuuuwuk 1 1 0 1", "DFEN cells: 'k' on c12"},
        {"./............/UUUWUWuuuwuu 1 1 0 1", "DFEN cells: player 1 has two Kings"},
        {"./............/UUUwUUuuuwuu 1 1 0 1", "DFEN cells: player 2 has two Kings"},
        {"./............/UUUUUUuuuuuu 1 1 0 1", "DFEN cells: no King"},
        {"./............/............ 1 1 0 1", "DFEN cells: no pieces"},
        {"./............/UUUWUUuuuwuu 1 2 0 1", "DFEN actions: Courtier has one move a turn"},
        {"./............/UUUWUUuuuwuu 1 1 0 1 0/0", "DFEN: Courtier expects exactly 5 fields"},
        {"./............/UUUWUUuuuwuu 1 1 0", "DFEN: Courtier expects exactly 5 fields"},
        {"./............/UUUWUUuuuwuu/uw 1 1 0 1", "DFEN reserve: Courtier has no reserve"},
        {"./.........../UUUWUUuuuwuu 1 1 0 1", "DFEN cells: expected 1/12/12"},
        {"./............/UUUWUUuuuwuu 3 1 0 1", "DFEN side"},
        {"./............/UUUWUUuuuwuu 1 1 -1 1", "DFEN quiet"},
        {"./............/UUUWUUuuuwuu 1 1 x 1", "DFEN quiet"},
        {"./............/UUUWUUuuuwuu 1 1 0 0", "DFEN turn"},
        {"./............/UUUWUUuuuwuu 1 1 0 99999999999", "DFEN turn"},
    };
    for (const auto& [text, message] : bad) {
        const std::string dfen = text;
        CAPTURE(dfen);
        std::string error;
        CHECK_FALSE(Position::fromDfen(dfen, courtierRules(), &error));
        CHECK(error.find(message) == 0);
    }
    // A Courtier DFEN is refused by Dejarik, and the other way round.
    const Rules kelly;
    CHECK_FALSE(Position::fromDfen("./............/UUUWUUuuuwuu 1 1 0 1", kelly));
    CHECK_FALSE(Position::fromDfen("./............/.GHSN..mltk. 1 2 0 1", courtierRules()));
}

TEST_CASE("courtier: tokens and codes") {
    const Event e = Event::captureMove(Cell::inner(9), Cell::centre(), Cell::inner(1));
    CHECK(e.token() == "b9-axb1");
    CHECK(Event::parse("b9-axb1") == e);
    CHECK(Event::fromCode(e.code()) == e);
    // Every capture a step can name survives its 16-bit code.
    for (int t = 0; t < Cell::kCount; ++t)
        for (const Cell m : courtier::kCellLines[t].middles) {
            const Cell from = *board::adjacent(Cell(t)).begin();
            const Event c = Event::captureMove(from, Cell(t), m);
            CHECK(Event::fromCode(c.code()) == c);
            CHECK(Event::parse(c.token()) == c);
        }
    // A cell that no line through the step's cell has in the middle is no capture.
    CHECK_FALSE(Event::parse("c2-b2xc2"));
    CHECK_FALSE(Event::parse("b2-c2xb3"));
    CHECK_FALSE(Event::parse("c1-b1xc1"));
    CHECK_FALSE(Event::parse("b9-axc1"));
    CHECK_FALSE(Event::parse("b9-ax"));
}

TEST_CASE("courtier: options refused and accepted (RULES §14.13)") {
    RuleOptions o;
    REQUIRE_FALSE(o.set("Ruleset", "courtier"));
    for (const auto& [name, value] :
         std::vector<std::pair<const char*, const char*>>{{"Dice", "pools"},
                                                          {"SafeOuterOrbit", "true"},
                                                          {"KingOfTheCentre", "false"},
                                                          {"CentreStraight", "true"},
                                                          {"BlockedPush", "kill"},
                                                          {"CentreWin", "3"}}) {
        const auto error = o.set(name, value);
        REQUIRE(error);
        CHECK(*error == std::string("option ") + name + " does not apply to Ruleset courtier");
    }
    for (const auto& [name, value] :
         std::vector<std::pair<const char*, const char*>>{{"Dice", "ruleset"},
                                                          {"BlockedPush", "ruleset"},
                                                          {"CentreWin", "-1"},
                                                          {"CentreWin", "0"},
                                                          {"DrawTurns", "7"}})
        CHECK_FALSE(o.set(name, value));
    CHECK(o.drawTurns == 7);
    CHECK(o.centreWin == -1);
    CHECK_FALSE(o.set("Ruleset", "kelly"));
    CHECK_FALSE(o.set("Dice", "d20"));
    // Courtier and Dejarik never share a table entry or an endgame table.
    CHECK(Rules::preset(Ruleset::Courtier).gameFingerprint() != Rules().gameFingerprint());
}

namespace {

// Random games from the start and from random boards, checked at every event.
void playRandomGames(int games, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    RuleOptions o;
    o.ruleset = Ruleset::Courtier;
    o.drawTurns = 20;
    const Rules rules(o);
    std::array<int, 5> results{};
    int doubles = 0, choices = 0, passes = 0;
    for (int game = 0; game < games; ++game) {
        std::string dfen(courtier::kStartDfen);
        if (game % 2 == 1) {
            // A random board: both Kings and 2..12 Guards each.
            std::string cells(Cell::kCount, '.');
            std::vector<int> order(Cell::kCount);
            for (int i = 0; i < Cell::kCount; ++i)
                order[i] = i;
            std::shuffle(order.begin(), order.end(), rng);
            const int guards = 4 + static_cast<int>(rng() % 20);
            cells[order[0]] = 'W';
            cells[order[1]] = 'w';
            for (int i = 0; i < guards; ++i)
                cells[order[2 + i]] = i % 2 ? 'u' : 'U';
            // One draw per statement: the operands of + are unsequenced.
            const bool second = (rng() & 1) != 0;
            const auto quiet = rng() % 30;
            dfen = cells.substr(0, 1) + '/' + cells.substr(1, 12) + '/' + cells.substr(13) +
                   (second ? " 2 1 " : " 1 1 ") + std::to_string(quiet) + " 1";
        }
        CAPTURE(dfen);
        Position pos = at(dfen.c_str(), rules);
        Position live = pos;
        std::vector<std::pair<Event, Position::Undo>> undos;
        std::vector<Position> history;
        std::string moves;
        for (int ply = 0; !pos.isOver() && ply < 300; ++ply) {
            CAPTURE(moves);
            REQUIRE(pos.key() == pos.computeKey());
            REQUIRE(pos.actionsLeft() == 1);
            REQUIRE(pos.phase() == Phase::Decision);
            REQUIRE(pos.decider() == pos.sideToMove());
            const std::string d = pos.dfen();
            const auto again = Position::fromDfen(d, rules);
            REQUIRE(again);
            REQUIRE(*again == pos);
            EventList events;
            pos.generate(events);
            REQUIRE(pos.countEvents() == events.size());
            REQUIRE_FALSE(events.empty());
            for (const Event e : events) {
                REQUIRE(pos.parseEvent(e.token()) == e);
                REQUIRE(Event::fromCode(e.code()) == e);
                REQUIRE(e.kind() != EventKind::Attack);
                if (e.kind() == EventKind::CaptureMove) {
                    // Only with two or more candidates; the plain step is then illegal.
                    REQUIRE_FALSE(pos.isLegal(Event::move(e.from(), e.to())));
                    ++choices;
                }
            }
            if (events[0] == Event::pass()) ++passes;
            // A symmetric image of the position has the image's events.
            const Transform t{Symmetry::fromIndex(static_cast<int>(rng() % 24)), false};
            REQUIRE(perft(transform(pos, t), 2) == perft(pos, 2));

            const Event e = events[static_cast<int>(rng() % events.size())];
            moves += e.token() + ' ';
            Position child = pos;
            child.apply(e);
            history.push_back(live);
            undos.emplace_back(e, Position::Undo{});
            live.apply(e, undos.back().second);
            REQUIRE(live == child);

            // The rules of one step.
            REQUIRE(child.turn() == pos.turn() + 1);
            REQUIRE(child.sideToMove() == opponent(pos.sideToMove()));
            const int mine = pos.pieces(pos.sideToMove()).count();
            const int theirs = pos.pieces(child.sideToMove()).count();
            const int lostMine = mine - child.pieces(pos.sideToMove()).count();
            const int lostTheirs = theirs - child.pieces(child.sideToMove()).count();
            REQUIRE((lostTheirs == 0 || lostTheirs == 1));
            REQUIRE(lostMine <= lostTheirs);  // the mover goes only in a double capture
            if (lostMine == 1) ++doubles;
            REQUIRE(child.quiet() == (lostTheirs == 1 ? 0u : pos.quiet() + 1));
            if (child.isOver() && child.result() != Result::Draw) {
                const bool moverWon =
                    (child.result() == Result::Player1Wins) == (pos.sideToMove() == Player::One);
                // A win is decided by a King leaving the board.
                bool kingGone = false;
                for (const Player p : {Player::One, Player::Two}) {
                    bool hasKing = false;
                    for (const Cell c : child.pieces(p))
                        hasKing |= child.at(c).creature() == courtier::kKing;
                    kingGone |= !hasKing;
                }
                REQUIRE(kingGone);
                REQUIRE((moverWon || lostMine == 1));
            }
            pos = child;
        }
        ++results[static_cast<int>(pos.result())];
        while (!undos.empty()) {
            live.undo(undos.back().first, undos.back().second);
            REQUIRE(live == history.back());
            undos.pop_back();
            history.pop_back();
        }
    }
    // The games reached every rule.
    CHECK(results[static_cast<int>(Result::Player1Wins)] > 0);
    CHECK(results[static_cast<int>(Result::Player2Wins)] > 0);
    CHECK(results[static_cast<int>(Result::Draw)] > 0);
    CHECK(doubles > 0);
    CHECK(choices > 0);
    CHECK(passes > 0);
}

}  // namespace

TEST_CASE("courtier: random games keep every invariant") {
#if defined(__SANITIZE_ADDRESS__) || !defined(__OPTIMIZE__)
    playRandomGames(150, 0xC0A7);
#else
    playRandomGames(600, 0xC0A7);
#endif
}
