// Text output without an engine process: odds tables against PERFT.md, exact decimals, the
// board picture and info lines.
#include <doctest/doctest.h>

#include <algorithm>

#include "display.h"
#include "info.h"
#include "odds.h"
#include "position.h"
#include "rules.h"
#include "test_text_lines.h"

using namespace dejarik;
using namespace dejarik::protocol;

using dejarik::testing::linesOf;

namespace {}  // namespace

TEST_SUITE("text") {
    TEST_CASE("decimals are rounded exactly, half up") {
        CHECK(decimal({35, 1296}, 6) == "0.027006");
        CHECK(decimal({1, 128}, 6) == "0.007813");  // 0.0078125: a double would round down
        CHECK(decimal({1, 2}, 6) == "0.500000");
        CHECK(decimal({1, 1}, 6) == "1.000000");
        CHECK(decimal({0, 1}, 6) == "0.000000");
        CHECK(decimal({2, 3}, 4) == "0.6667");
        CHECK(decimal({999999999, 1000000000}, 6) == "1.000000");
    }

    TEST_CASE("odds tables match PERFT.md's odds samples") {
        CHECK(oddsTable(DiceModel::Pools, 2, 2) == linesOf(R"(dice=pools attack=2 defence=2
kill                              35/1296  0.027006
push                                 5/12  0.416667
counterpush                       343/648  0.529321
counterkill                       35/1296  0.027006
sum                                     1)"));
        CHECK(oddsTable(DiceModel::Pools, 6, 8) == linesOf(R"(dice=pools attack=6 defence=8
kill                218042255/13060694016  0.016695
push               1368923045/13060694016  0.104812
counterpush         2270158913/6530347008  0.347632
counterkill         3466705445/6530347008  0.530861
sum                                     1)"));
        CHECK(oddsTable(DiceModel::TwoD10, 6, 8) == linesOf(R"(dice=2d10 attack=6 defence=8
kill                           9041/80000  0.113013
push                           2927/10000  0.292700
counterpush                   24311/60000  0.405183
counterkill                    9077/48000  0.189104
sum                                     1)"));
        CHECK(oddsTable(DiceModel::D20, 6, 8) == linesOf(R"(dice=d20 attack=6 defence=8
kill                             961/4800  0.200208
push                            1111/4800  0.231458
counterpush                      481/1600  0.300625
counterkill                       257/960  0.267708
sum                                     1)"));
        CHECK(oddsTable(DiceModel::SplitD6, 5, 2) == linesOf(R"(dice=split-d6 attack=5 defence=2
kill                                  1/6  0.166667
push                                  1/2  0.500000
counterpush                           1/6  0.166667
counterkill                           1/6  0.166667
sum                                     1)"));
        CHECK(oddsTable(DiceModel::Pools, 8, 7) == linesOf(R"(dice=pools attack=8 defence=7
kill              17059583999/52242776064  0.326544
push               9061804033/26121388032  0.346911
counterpush      40896275885/156728328192  0.260937
counterkill          642654757/9795520512  0.065607
sum                                     1)"));
    }

    TEST_CASE("showdown tables match PERFT.md") {
        CHECK(showdownTable(DiceModel::Pools, 6, 8) == linesOf(R"(dice=pools p1 rating=6 p2 rating=8
round: p1 wins 218042255/13060694016 (0.016695), p2 wins 3466705445/6530347008 (0.530861)
P(player 1 wins) = 43608451/1430290629 = 0.030489
P(player 2 wins) = 1386682178/1430290629 = 0.969511)"));
        CHECK(showdownTable(DiceModel::TwoD10, 6, 8) == linesOf(R"(dice=2d10 p1 rating=6 p2 rating=8
round: p1 wins 9041/80000 (0.113013), p2 wins 9077/48000 (0.189104)
P(player 1 wins) = 27123/72508 = 0.374069
P(player 2 wins) = 45385/72508 = 0.625931)"));
        CHECK(showdownTable(DiceModel::SplitD6, 5, 6) ==
              linesOf(R"(dice=split-d6 p1 rating=5 p2 rating=6
round: p1 wins 5/18 (0.277778), p2 wins 7/12 (0.583333)
P(player 1 wins) = 10/31 = 0.322581
P(player 2 wins) = 21/31 = 0.677419)"));
    }

    TEST_CASE("a showdown no round can decide is a draw") {
        // Pools 1 die against 1 die: the margin never reaches 7.
        const auto t = showdownTable(DiceModel::Pools, 1, 1);
        REQUIRE(t.size() == 3);
        CHECK(t[1] == "round: p1 wins 0 (0.000000), p2 wins 0 (0.000000)");
        CHECK(t[2] == "no round can decide: the game is drawn");
    }

    TEST_CASE("the protocol odds line of an attack on the board") {
        const Rules kelly;
        // S on a attacks n on b1 (kelly: S attack 6 against N defence 8).
        const auto pos = Position::fromDfen("S/n.........../...........G 1 2 0 1", kelly);
        REQUIRE(pos);
        CHECK(oddsLine(*pos, Event::attack(Cell::centre(), Cell::inner(1))) ==
              "odds axb1 kill 0.016695 push 0.104812 counterpush 0.347632 counterkill 0.530861");
    }

    TEST_CASE("the board picture shows every cell with its piece") {
        const Rules kelly;
        const auto pos = Position::fromDfen("S/Hk...mN....l/tG.........g 1 2 0 1", kelly);
        REQUIRE(pos);
        const auto picture = boardPicture(*pos);
        std::string all;
        for (const auto& l : picture)
            all += l + "\n";
        for (int i = 0; i < Cell::kCount; ++i) {
            const Cell c(i);
            const std::string label = c.name() + " " + pos->at(c).letter();
            // Each label once, delimited (so "b1 H" is not found inside "b11 .").
            std::size_t hits = 0;
            for (std::size_t at = all.find(label); at != std::string::npos;
                 at = all.find(label, at + 1)) {
                const bool startOk = at == 0 || all[at - 1] == ' ' || all[at - 1] == '\n';
                if (startOk) ++hits;
            }
            CHECK_MESSAGE(hits == 1, label);
        }
        // Ray 12 on top, ray 6 at the bottom, ray 3 right of the centre, ray 9 left.
        CHECK(picture.front().find("c12 g") != std::string::npos);
        const auto centreRow = std::find_if(picture.begin(), picture.end(), [](const auto& l) {
            return l.find("a S") != std::string::npos;
        });
        REQUIRE(centreRow != picture.end());
        CHECK(centreRow->find("c9 .") < centreRow->find("a S"));
        CHECK(centreRow->find("c3 .") > centreRow->find("a S"));
        CHECK(picture[picture.size() - 2].find("c6 .") != std::string::npos);
    }

    TEST_CASE("due and result texts") {
        const Rules kelly;
        auto pos = Position::fromDfen("S/Hk...mN....l/tG.........g 1 2 0 1", kelly);
        REQUIRE(pos);
        CHECK(dueText(*pos) == "player 1 to decide: action 1 of 2 of turn 1");
        auto after = playTokens(*pos, "axb2");
        REQUIRE(after);
        CHECK(dueText(*after) == "chance: the outcome of axb2 is due");
        after = playTokens(*pos, "axb2 counterpush");
        REQUIRE(after);
        CHECK(dueText(*after) == "player 2 to decide: placement of the counter-pushed piece on a");
        const auto over = Position::fromDfen("S/............/...........g 1 2 0 1", kelly);
        REQUIRE(over);
        CHECK(dueText(*over).rfind("game over: showdown: player 1 wins with probability", 0) == 0);
        CHECK(legalEventsText(*over).empty());
        CHECK(legalEventsText(*Position::fromDfen("./............/.GHSN..mltk. 1 2 0 1", kelly))
                  .find("c2-b1") != std::string::npos);
    }

    TEST_CASE("info lines") {
        search::Line line;
        line.move = Event::move(Cell::outer(4), Cell::centre());
        line.value = 0.318;
        line.wdl = {604, 110, 286};
        line.pv = {line.move, Event::move(Cell::outer(3), Cell::inner(3))};
        CHECK(infoLine({6, 9, 812, 5123344, 6309537, 212, 0}, line) ==
              "info depth 6 seldepth 9 time 812 nodes 5123344 nps 6309537 hashfull 212 score ev "
              "318 wdl 604 110 286 pv c4-a c3-b3");
        line.exact = true;
        line.value = -0.5;
        line.wdl = {150, 200, 650};  // ev is W - L, whatever the search's own value
        line.pv.clear();             // a pv always starts with its decision
        CHECK(infoLine({1, 1, 0, 1, 0, 0, 2}, line) ==
              "info depth 1 seldepth 1 time 0 nodes 1 nps 0 hashfull 0 multipv 2 score ev -500 "
              "wdl 150 200 650 exact pv c4-a");
    }
}
