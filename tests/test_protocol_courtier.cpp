// Courtier (RULES §14.13) through the real engine: selecting it, the Dejarik-only options
// refused under it (neutral values accepted, nothing changed), its startpos, DFEN and tokens,
// odds refused, d and eval, searches answering capture choices, and the command line.
#include "test_protocol_support.h"

using namespace dejarik::test;

namespace {

// An engine playing Courtier.
void selectCourtier(Engine& e) {
    REQUIRE(e.command("setoption name Ruleset value courtier").empty());
}

}  // namespace

TEST_SUITE("courtier") {
    TEST_CASE("Ruleset courtier: its startpos, d and eval") {
        Engine e;
        selectCourtier(e);
        const auto d = e.command("d");
        CHECK(lineStarting(d, "dfen ") == "dfen ./............/UUUWUUuuuwuu 1 1 0 1");
        CHECK(lineStarting(d, "rules ") == "rules courtier DrawTurns=40");
        CHECK(lineStarting(d, "due ") == "due player 1 to decide: the move of turn 1");
        CHECK(lineStarting(d, "legal ") == "legal c1-b1 c2-b2 c3-b3 c4-b4 c5-b5 c6-b6");
        CHECK(lineStarting(d, "table") == "table: none (Courtier)");
        bool guard = false;
        for (const auto& l : d)
            guard |= l.find("c4 W") != std::string::npos;
        CHECK(guard);
        const auto ev = e.command("eval");
        for (const char* term : {"material", "king safety", "centre", "threats", "mobility"})
            CHECK(!lineStarting(ev, term).empty());
        CHECK(lineStarting(ev, "material").find("5 v 5 Guards") != std::string::npos);
        CHECK(startsWith(lineStarting(ev, "eval "), "eval +0.000 for player 1"));
    }

    TEST_CASE("the Dejarik-only options are refused, their neutral values accepted") {
        Engine e;
        selectCourtier(e);
        e.command("position startpos moves c1-b1");
        for (const auto& [name, value] :
             std::vector<std::pair<std::string, std::string>>{{"Dice", "pools"},
                                                              {"SafeOuterOrbit", "true"},
                                                              {"KingOfTheCentre", "false"},
                                                              {"CentreStraight", "true"},
                                                              {"BlockedPush", "kill-on-push"},
                                                              {"CentreWin", "3"}}) {
            const auto lines = e.command("setoption name " + name + " value " + value);
            REQUIRE(lines.size() == 1);
            CHECK(lines[0] ==
                  "info string error: option " + name + " does not apply to Ruleset courtier");
        }
        for (const auto& [name, value] :
             std::vector<std::pair<std::string, std::string>>{{"Dice", "ruleset"},
                                                              {"SafeOuterOrbit", "ruleset"},
                                                              {"BlockedPush", "ruleset"},
                                                              {"CentreWin", "-1"},
                                                              {"CentreWin", "0"}})
            CHECK(e.command("setoption name " + name + " value " + value).empty());
        // Nothing changed, the position included.
        CHECK(lineStarting(e.command("d"), "dfen ") == "dfen ./U.........../.UUWUUuuuwuu 2 1 1 2");
        // A bad value is still a bad value.
        CHECK(isError(e.command("setoption name Dice value d7").at(0)));
        // DrawTurns applies, and replaces the position with startpos.
        CHECK(e.command("setoption name DrawTurns value 5").empty());
        const auto d = e.command("d");
        CHECK(lineStarting(d, "rules ") == "rules courtier DrawTurns=5");
        CHECK(lineStarting(d, "dfen ") == "dfen ./............/UUUWUUuuuwuu 1 1 0 1");
        // Back to Dejarik: the options take every value again.
        CHECK(e.command("setoption name Ruleset value kelly").empty());
        CHECK(e.command("setoption name Dice value pools").empty());
        CHECK(lineStarting(e.command("d"), "dfen ") == "dfen ./............/.GHSN..mltk. 1 2 0 1");
    }

    TEST_CASE("odds answers that Courtier has no attacks") {
        Engine e;
        selectCourtier(e);
        for (const char* line : {"odds", "odds c1xb1"}) {
            const auto lines = e.command(line);
            REQUIRE(lines.size() == 1);
            CHECK(lines[0] == "info string error: no attacks in Courtier");
        }
    }

    TEST_CASE("positions, tokens and their errors") {
        Engine e;
        selectCourtier(e);
        CHECK(e.command("position dfen ./u.u.u...U.../U.U.U.w.W.u. 1 1 0 1 moves b9-axb3").empty());
        CHECK(lineStarting(e.command("d"), "dfen ") == "dfen U/u...u......./U.U.U.w.W.u. 2 1 0 2");
        // Refused whole, the position kept: a missing or needless suffix, a Dejarik DFEN.
        for (const char* bad : {"position dfen ./u.u.u...U.../U.U.U.w.W.u. 1 1 0 1 moves b9-a",
                                "position dfen ./..Uu...u..../W...U.w.U.u. 1 1 0 1 moves c5-b5xb4",
                                "position dfen ./............/.GHSN..mltk. 1 2 0 1",
                                "position dfen ./............/UUUWUWuuuwuu 1 1 0 1",
                                "position dfen ./............/UUUWUUuuuwuu 1 2 0 1",
                                "position startpos moves c1xb1"}) {
            const auto lines = e.command(bad);
            CAPTURE(bad);
            REQUIRE(lines.size() == 1);
            CHECK(isError(lines[0]));
        }
        CHECK(lineStarting(e.command("d"), "dfen ") == "dfen U/u...u......./U.U.U.w.W.u. 2 1 0 2");
        CHECK(lineStarting(e.command("position dfen ./............/UUUWUUuuuwuu 1 1 0 1 0/0"),
                           "info string error") ==
              "info string error: position: DFEN: Courtier expects exactly 5 fields (cells side "
              "actions quiet turn), got 6");
    }

    TEST_CASE("go answers a legal token, a capture choice with its suffix") {
        Engine e;
        selectCourtier(e);
        // b9-a sandwiches b1, b3 and b5; the King on b3 is the one to take.
        e.command("position dfen ./u.w.u...U.../U.U.U...W.u. 1 1 0 1");
        const auto lines = e.go("go depth 3");
        CHECK(lines.back() == "bestmove b9-axb3");
        CHECK(field(lineStarting(lines, "info depth 3"), "ev") == "1000");
        // From the start, searching by time: some legal step.
        e.command("position startpos");
        const auto start = e.go("go movetime 100");
        const std::string best = bestmoveOf(start.back());
        CHECK(best.size() == 5);
        CHECK(best[0] == 'c');
        // A finished game has nothing to search.
        e.command("position dfen ./U.........../w..u........ 1 1 0 1");
        const auto over = e.go("go depth 2");
        CHECK(over.back() == "bestmove none");
        CHECK(isError(over.front()));
        // Perft as in PERFT.md.
        e.command("position startpos");
        e.send("go perft 4");
        CHECK(e.until("Nodes searched").back() == "Nodes searched: 4348");
    }

    TEST_CASE("the command line: analyse, odds refused") {
        const auto run = [](const std::vector<std::string>& args) {
            Engine e(args);
            e.process().closeInput();
            std::vector<std::string> lines;
            while (auto line = e.process().readLine(kLiveness))
                lines.push_back(*line);
            return std::make_pair(e.exitStatus(), lines);
        };
        const auto [code, lines] = run({"analyse", "--ruleset", "courtier", "--dfen",
                                        "./u.w.u...U.../U.U.U...W.u. 1 1 0 1", "--depth", "3"});
        CHECK(code == 0);
        bool found = false;
        for (const auto& l : lines)
            found |= l.find("b9-axb3") != std::string::npos;
        CHECK(found);
        CHECK(run({"odds", "--ruleset", "courtier", "--attacker", "U", "--defender", "W"}).first ==
              2);
    }
}
