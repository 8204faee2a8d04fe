// The v1.3 rule options through the binary (PROTOCOL.md, RULES §16.3, §17): CreatureFile's
// effect on every command, its errors as RULES §16.2 writes them, and which rule options
// setting Ruleset keeps.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "temp_dir.h"
#include "test_protocol_support.h"
#include "text.h"

using namespace dejarik::test;

namespace {

const std::string kDataDir = DEJARIK_DATA_DIR;
const std::string kMirror = kDataDir + "/creatures/mirror-raiders.txt";
const std::string kKelly = kDataDir + "/creatures/kelly.txt";

// The line of `d` that starts with `prefix`, or empty.
std::string dLine(Engine& e, std::string_view prefix) {
    for (const auto& l : e.command("d"))
        if (startsWith(l, prefix)) return l;
    return {};
}

}  // namespace

TEST_SUITE("rulesets") {
    TEST_CASE("a path with control bytes is echoed masked: every line stays one line of text") {
        // A file's name may hold any byte but '/' and NUL; `d` echoes the path in its rules
        // and creatures lines, where an ESC or a lone 0xff reached the GUI raw.
        const dejarik::testing::TempDir dir;
        const std::string path = dir.str() + "/set\x01\x1b[2J\xff.txt";
        {
            std::ifstream from(kMirror);
            std::ofstream(path) << from.rdbuf();
        }
        Engine e;
        CHECK(e.command("setoption name CreatureFile value " + path).empty());
        const std::string masked = dir.str() + "/set??[2J?.txt";
        CHECK(dLine(e, "rules ").ends_with("CreatureFile=" + masked));
        CHECK(dLine(e, "creatures ").starts_with("creatures Mirror Raiders from " + masked));
        for (const auto& line : e.command("d"))
            CHECK(dejarik::text::isPrintable(line));
    }

    TEST_CASE("CreatureFile: announced, and the set in force for d, position, go, odds") {
        Engine e;
        e.send("dei");
        const auto hello = e.until("deiok");
        CHECK(std::find(hello.begin(), hello.end(),
                        "option name CreatureFile type string default <empty>") != hello.end());

        CHECK(e.command("setoption name CreatureFile value " + kMirror).empty());
        CHECK(dLine(e, "dfen ") == "dfen ./............/.WBDF..fdbw. 1 2 0 1");
        CHECK(dLine(e, "rules ") ==
              "rules kelly Dice=d20 SafeOuterOrbit=false KingOfTheCentre=false "
              "CentreStraight=false BlockedPush=stay CentreWin=0 DrawTurns=40 CreatureFile=" +
                  kMirror);
        CHECK(dLine(e, "creatures ") ==
              "creatures Mirror Raiders from " + kMirror +
                  ": W 5/3/4 Wraith-hound, B 2/8/1 Bulwark, D 6/5/2 Duelist, F 7/2/2 Fang #1, "
                  "A 8/7/1 Ancient");
        // The Wraith-hound moves four: c2 reaches every inner cell.
        CHECK(dLine(e, "legal ").find("c2-b8") != std::string::npos);

        // The file's letters in DFENs, and only them.
        const auto refused = e.command("position dfen ./S.........../..........w. 1 2 0 1");
        REQUIRE(refused.size() == 1);
        CHECK(refused[0] ==
              "info string error: position: DFEN cells: 'S' on b1 is not a creature letter "
              "(WBDFA, wbdfa) or '.'");
        CHECK(e.command("position dfen w/FA........../............ 1 2 0 1").empty());
        const auto all = e.command("odds");
        REQUIRE(all.size() == 2);
        CHECK(startsWith(all[0], "odds b1xa kill "));
        CHECK(startsWith(all[1], "odds b2xa kill "));
        const auto lines = e.go("go depth 2");
        CHECK(bestmoveOf(lines.back()) != "none");
        CHECK(bestmoveOf(lines.back()) != "");

        // Back to the ruleset's creatures with the empty value.
        CHECK(e.command("setoption name CreatureFile value <empty>").empty());
        CHECK(dLine(e, "dfen ") == "dfen ./............/.GHSN..mltk. 1 2 0 1");
        CHECK(dLine(e, "creatures ").empty());
    }

    TEST_CASE("CreatureFile: errors name file and line, and change nothing") {
        const dejarik::testing::TempDir dir;
        const std::string bad = dir.str() + "/senate.txt";
        std::ofstream(bad) << "# a senate\nstart SSSS ssss\nset Senate\n\n\n\nS 9 1 1 Senator\n";
        Engine e;
        CHECK(e.command("setoption name CreatureFile value " + kMirror).empty());
        CHECK(e.command("position startpos moves c3-b3").empty());
        const auto error = e.command("setoption name CreatureFile value " + bad);
        REQUIRE(error.size() == 1);
        CHECK(error[0] ==
              "info string error: CreatureFile " + bad + ":7: attack 9 out of range 1-8");
        CHECK(e.command("setoption name CreatureFile value " + dir.str() + "/none.txt") ==
              std::vector<std::string>{"info string error: CreatureFile " + dir.str() +
                                       "/none.txt: cannot be read (No such file or directory)"});
        // The previous set and position stay.
        CHECK(dLine(e, "dfen ") == "dfen ./..B........./.W.DF..fdbw. 1 1 1 1");
        CHECK(dLine(e, "creatures ").starts_with("creatures Mirror Raiders"));
    }

    TEST_CASE("CreatureFile: the value is everything after 'value ', blanks included") {
        const dejarik::testing::TempDir dir;
        const std::string spaced = dir.str() + "/my  set.txt";
        std::ofstream(spaced) << "set Ants\nstart AAAA aaaa\nA 3 3 2 Ant\n";
        Engine e;
        CHECK(e.command("setoption name CreatureFile value " + spaced).empty());
        CHECK(dLine(e, "dfen ") == "dfen ./............/.AAAA..aaaa. 1 2 0 1");
        // The file was read once: editing it needs a new setoption.
        std::ofstream(spaced) << "set Bees\nstart BBBB bbbb\nB 3 3 2 Bee\n";
        CHECK(e.command("position startpos").empty());
        CHECK(dLine(e, "dfen ") == "dfen ./............/.AAAA..aaaa. 1 2 0 1");
        CHECK(e.command("setoption name CreatureFile value " + spaced).empty());
        CHECK(dLine(e, "dfen ") == "dfen ./............/.BBBB..bbbb. 1 2 0 1");
    }

    TEST_CASE("Ruleset resets Dice to CentreWin, keeps DrawTurns and CreatureFile") {
        Engine e;
        for (const char* line :
             {"setoption name DrawTurns value 12", "setoption name Dice value 2d10",
              "setoption name CentreWin value 4", "setoption name KingOfTheCentre value true"})
            CHECK(e.command(line).empty());
        CHECK(e.command("setoption name CreatureFile value " + kKelly).empty());
        CHECK(e.command("setoption name Ruleset value holochess").empty());
        CHECK(dLine(e, "rules ") ==
              "rules holochess Dice=pools SafeOuterOrbit=false KingOfTheCentre=false "
              "CentreStraight=true BlockedPush=kill CentreWin=0 DrawTurns=12 CreatureFile=" +
                  kKelly);
        // The Kelly file's start under holochess, its dice (pools) by the file's dice line.
        CHECK(dLine(e, "dfen ") == "dfen ./............/.GHSN..mltk. 1 2 0 1");
        CHECK(e.command("setoption name Ruleset value kelly").empty());
        e.send("go perft 3");
        CHECK(e.until("Nodes searched").back() == "Nodes searched: 4611");
    }

    TEST_CASE("Setup arrange: startpos in reserve, set-up events, go answers setup:") {
        Engine e;
        CHECK(e.command("setoption name Setup value arrange").empty());
        CHECK(dLine(e, "dfen ") == "dfen ./............/............/SGHNmtkl 1 2 0 1");
        CHECK(dLine(e, "due ") == "due player 1 to decide: set-up of c2-c5 (RULES §15)");
        CHECK(dLine(e, "legal ").starts_with("legal setup:sghn setup:sgnh "));
        CHECK(e.command("eval") ==
              std::vector<std::string>{"info string error: eval: a set-up is pending (RULES "
                                       "§15): go searches the arrangements"});
        CHECK(e.command("odds") ==
              std::vector<std::string>{"info string error: odds: no legal attack here"});
        const auto lines = e.go("go depth 2");
        const std::string best = bestmoveOf(lines.back());
        CHECK(best.starts_with("setup:"));
        CHECK(e.command("position startpos moves " + best).empty());
        CHECK(dLine(e, "due ") == "due player 2 to decide: set-up of c8-c11 (RULES §15)");
        const auto reply = e.go("go depth 1");
        CHECK(bestmoveOf(reply.back()).starts_with("setup:"));
        // The pv is written by the positions it passes: set-up letters, then actions.
        CHECK(field(reply[reply.size() - 2], "pv").starts_with("setup:"));
        CHECK(e.command("position startpos moves setup:GHSN setup:mltk").empty());
        CHECK(dLine(e, "dfen ") == "dfen ./............/.GHSN..mltk. 1 2 0 1");
        const auto refused = e.command("position startpos moves setup:mltk");
        REQUIRE(refused.size() == 1);
        CHECK(refused[0].starts_with("info string error: position: event 1 'setup:mltk'"));
        CHECK(dLine(e, "dfen ") == "dfen ./............/.GHSN..mltk. 1 2 0 1");  // kept
        CHECK(e.command("position startpos").empty());
        e.send("go perft 2");
        CHECK(e.until("Nodes searched").back() == "Nodes searched: 576");
        // Setup is kept when Ruleset is set, and works with a creature file.
        CHECK(e.command("setoption name Ruleset value holochess").empty());
        CHECK(dLine(e, "dfen ") == "dfen ./............/............/SGNLmhtk 1 2 0 1");
        CHECK(e.command("setoption name CreatureFile value " + kMirror).empty());
        CHECK(dLine(e, "dfen ") == "dfen ./............/............/WBDFwbdf 1 2 0 1");
        CHECK(e.command("setoption name Setup value dealt").empty());
        CHECK(dLine(e, "dfen ") == "dfen ./............/.WBDF..fdbw. 1 2 0 1");
        // A set-up-pending DFEN is accepted under Setup dealt too.
        CHECK(e.command("position dfen ./............/............/WWWWaaaa 1 2 0 1").empty());
        CHECK(dLine(e, "legal ") == "legal setup:wwww");
    }

    TEST_CASE("SetupPlayer random: random arrangements, a searched game") {
        Engine e;
        CHECK(e.command("setoption name Setup value arrange").empty());
        CHECK(e.command("setoption name SetupPlayer value random").empty());
        std::set<std::string> seen;
        for (int seed = 0; seed < 6; ++seed) {
            CHECK(e.command("setoption name Seed value " + std::to_string(seed)).empty());
            const auto lines = e.go("go depth 1");
            const std::string best = bestmoveOf(lines.back());
            CHECK(best.starts_with("setup:"));
            seen.insert(best);
        }
        CHECK(seen.size() > 1);
        // After the set-ups the search answers: a pv deeper than one event.
        CHECK(e.command("position startpos moves setup:ghsn setup:mltk").empty());
        const auto lines = e.go("go depth 3");
        CHECK(pvOf(lines[lines.size() - 2]).size() > 1);
    }

    TEST_CASE("RaysOfDeath: announced, d, the roll as a chance event, go, odds, Ruleset") {
        Engine e;
        e.send("dei");
        const auto hello = e.until("deiok");
        CHECK(std::find(hello.begin(), hello.end(),
                        "option name RaysOfDeath type check default false") != hello.end());
        CHECK(dLine(e, "rays ").empty());  // off by default
        CHECK(e.command("setoption name RaysOfDeath value true").empty());
        CHECK(dLine(e, "rules ").ends_with(" DrawTurns=40 RaysOfDeath=true"));
        CHECK(dLine(e, "rays ") ==
              "rays combat none (no roll yet), player 1 used none, player 2 used none");
        // Both players use their four creatures: the roll is due.
        const std::string round =
            "position startpos moves c2-a c3-b3 c8-b6 c9-b8 c4-b5 c5-c4 c10-b10 c11-b12";
        CHECK(e.command(round).empty());
        CHECK(dLine(e, "due ") == "due chance: the roll of the combat cell is due (RaysOfDeath)");
        CHECK(dLine(e, "legal ").starts_with("legal ray:a ray:b1 ray:b2 "));
        const auto odds = e.command("odds");
        REQUIRE(odds.size() == 1);
        CHECK(odds[0].starts_with("odds roll a 0.500000 b1 0.020833 b2 0.020833 "));
        CHECK(e.command("go depth 1") ==
              std::vector<std::string>{
                  "info string error: go: the roll of the combat cell is due (RaysOfDeath), not "
                  "a decision: send it with position ... moves ray:<cell>",
                  "bestmove none"});
        CHECK(e.command(round + " ray:b7").empty());
        CHECK(dLine(e, "dfen ") == "dfen G/..H.Sm.l.t.k/...N........ 1 2 8 5 rays:b7/-/-");
        CHECK(dLine(e, "rays ") == "rays combat b7, player 1 used none, player 2 used none");
        const auto lines = e.go("go depth 3");
        CHECK(bestmoveOf(lines.back()) != "none");
        // The DFEN carries the state: the same position from it.
        CHECK(e.command("position dfen G/..H.Sm.l.t.k/...N........ 1 2 8 5 rays:b7/-/-").empty());
        CHECK(dLine(e, "rays ") == "rays combat b7, player 1 used none, player 2 used none");
        CHECK(e.command("position dfen G/..H.Sm.l.t.k/...N........ 1 2 8 5 rays:b7/-/3") ==
              std::vector<std::string>{"info string error: position: DFEN rays: done must be "
                                       "'-', '1' or '2', got '3'"});

        // Kept across Ruleset; kept without effect under courtier, like Setup.
        CHECK(e.command("setoption name Ruleset value dalsian").empty());
        CHECK(dLine(e, "rules ").ends_with(" RaysOfDeath=true"));
        CHECK(e.command("setoption name Ruleset value courtier").empty());
        CHECK(dLine(e, "rules ") == "rules courtier DrawTurns=40");
        CHECK(dLine(e, "rays ").empty());
        CHECK(e.command("setoption name RaysOfDeath value true").empty());
        CHECK(e.command("setoption name Ruleset value kelly").empty());
        CHECK(dLine(e, "rules ").ends_with(" RaysOfDeath=true"));
        CHECK(e.command("setoption name RaysOfDeath value false").empty());
        CHECK(dLine(e, "rays ").empty());
        CHECK(e.command("setoption name RaysOfDeath value sometimes") ==
              std::vector<std::string>{"info string error: setoption: invalid value 'sometimes' "
                                       "for option RaysOfDeath (expected true or false)"});
    }
}
