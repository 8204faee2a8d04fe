// DEI sessions with the real engine: the handshake, searches and their ends, options, the
// extensions, and every error case of PROTOCOL.md.
#include <sys/resource.h>

#include <fstream>
#include <thread>

#include "options.h"
#include "sanitized.h"
#include "temp_dir.h"
#include "test_protocol_support.h"

using namespace dejarik::test;

namespace {

constexpr const char* kMelee = "S/Hk...mN....l/tG.........g 1 2 0 1";

// The `rules ...` line of `d`.
std::string rulesLine(Engine& e) {
    for (const auto& l : e.command("d"))
        if (startsWith(l, "rules ")) return l;
    FAIL("d printed no rules line");
    return {};
}

std::string dfenLine(Engine& e) {
    for (const auto& l : e.command("d"))
        if (startsWith(l, "dfen ")) return l;
    FAIL("d printed no dfen line");
    return {};
}

#if !defined(DEJARIK_SANITIZED)
// The address space of a process in bytes (VmSize of /proc/<pid>/status), or none.
std::optional<rlim_t> addressSpace(pid_t pid) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(status, line);)
        if (startsWith(line, "VmSize:")) return rlim_t{std::stoull(line.substr(7))} << 10;
    return std::nullopt;
}

// Limits the engine's address space to what it uses now plus `headroom` bytes.
void limitAddressSpace(Engine& e, rlim_t headroom) {
    const pid_t pid = e.process().pid();
    const auto used = addressSpace(pid);
    REQUIRE(used);
    const rlimit limit{*used + headroom, RLIM_INFINITY};
    REQUIRE(prlimit(pid, RLIMIT_AS, &limit, nullptr) == 0);
}
#endif

// Checks a finished search's lines: info lines with score and pv before exactly one
// bestmove, which is the last line and starts the last pv.
void checkSearch(const std::vector<std::string>& lines) {
    REQUIRE(!lines.empty());
    const std::string best = bestmoveOf(lines.back());
    REQUIRE(!best.empty());
    CHECK(countIf(lines, "bestmove") == 1);
    CHECK(best != "none");
    const auto lastInfo = std::find_if(lines.rbegin(), lines.rend(), [](const std::string& l) {
        return startsWith(l, "info depth") && field(l, "multipv").empty();
    });
    const auto lastFirst = std::find_if(lines.rbegin(), lines.rend(), [](const std::string& l) {
        return startsWith(l, "info depth") && field(l, "multipv") == "1";
    });
    const auto info = lastFirst != lines.rend() ? lastFirst : lastInfo;
    REQUIRE_MESSAGE(info != lines.rend(), "no info line before bestmove");
    CHECK(!field(*info, "ev").empty());
    CHECK(!field(*info, "wdl").empty());
    const auto pv = pvOf(*info);
    REQUIRE(!pv.empty());
    CHECK(pv.front() == best);
}

}  // namespace

TEST_SUITE("session") {
    TEST_CASE("handshake: id, every option, deiok") {
        Engine e;
        e.send("dei");
        const auto lines = e.until("deiok");
        const std::vector<std::string> expected = {
            "option name Ruleset type combo default kelly var kelly var dalsian-classic var "
            "dalsian var holochess var courtier",
            "option name Dice type combo default ruleset var ruleset var pools var d20 var 2d10 "
            "var split-d6",
            "option name SafeOuterOrbit type combo default ruleset var ruleset var true var false",
            "option name KingOfTheCentre type combo default ruleset var ruleset var true var false",
            "option name CentreStraight type combo default ruleset var ruleset var true var false",
            "option name BlockedPush type combo default ruleset var ruleset var stay var kill var "
            "kill-on-push",
            "option name CentreWin type spin default -1 min -1 max 20",
            "option name DrawTurns type spin default 40 min 0 max 1000",
            "option name Setup type combo default dealt var dealt var arrange",
            "option name CreatureFile type string default <empty>",
            "option name RaysOfDeath type check default false",
            "option name Hash type spin default 64 min 1 max 65536",
            "option name Threads type spin default 1 min 1 max 256",
            "option name MultiPV type spin default 1 min 1 max 64",
            "option name Contempt type spin default 0 min 0 max 90",
            "option name Opponent type combo default minimax var minimax var random var greedy "
            "var cautious",
            "option name EndingsAgainst type combo default none var none var random var greedy "
            "var cautious",
            "option name AttackShare type spin default 0 min 0 max 100",
            "option name Edge type spin default 0 min 0 max 300",
            "option name Clear Hash type button",
            "option name Seed type spin default 0 min 0 max 4294967295",
            "option name Player type combo default search var search var greedy var random var "
            "cautious",
            "option name SetupPlayer type combo default search var search var random",
            "option name Tables type check default true",
            "option name TablePath type string default <empty>",
            "option name TableGen type check default false",
            "option name TableGenNice type spin default 19 min 0 max 19",
            "option name EvalFile type string default <empty>",
        };
        REQUIRE(lines.size() == 2 + expected.size() + 1);
        CHECK(lines[0] == "id name Dejarik");
        CHECK(lines[1] == "id author the Dejarik developers");
        for (std::size_t i = 0; i < expected.size(); ++i)
            CHECK(lines[2 + i] == expected[i]);
        CHECK(e.sync().empty());
        e.send("quit");
        CHECK(e.exitStatus() == 0);
    }

    TEST_CASE("a depth-limited search ends by itself with info, pv and one bestmove") {
        Engine e;
        e.command("position startpos");
        const auto lines = e.go("go depth 2");
        checkSearch(lines);
        CHECK(e.sync().empty());  // nothing after the bestmove, no second bestmove
    }

    TEST_CASE("isready is answered mid-search; stop ends it with one bestmove") {
        Engine e;
        e.send("go infinite");
        const auto beforeReady = e.sync();
        CHECK(countIf(beforeReady, "bestmove") == 0);
        // stop, then isready at once: the bestmove must come before readyok.
        e.send("stop");
        const auto lines = e.sync();
        checkSearch(lines);
        CHECK(e.sync().empty());
    }

    TEST_CASE("go without limits searches until stop, like infinite") {
        Engine e;
        e.send("go");
        std::this_thread::sleep_for(50ms);
        CHECK(countIf(e.sync(), "bestmove") == 0);
        e.send("stop");
        checkSearch(e.until("bestmove"));
    }

    TEST_CASE("stop without a search is ignored") {
        Engine e;
        CHECK(e.command("stop").empty());
    }

    TEST_CASE("commands other than isready, stop and quit are refused mid-search") {
        Engine e;
        e.send("go infinite");
        e.sync();
        for (const char* line :
             {"go depth 1", "go", "position startpos", "setoption name Hash value 8", "d", "eval",
              "odds", "newgame", "dei", "go perft 1", "bench 1", "go depth x"}) {
            checkOneError(withoutProgress(e.command(line)), line);
        }
        e.send("stop");
        checkSearch(e.until("bestmove"));
        CHECK(e.sync().empty());
    }

    TEST_CASE("quit mid-search exits") {
        Engine e;
        e.send("go infinite");
        e.sync();
        e.send("quit");
        CHECK(e.exitStatus() == 0);
    }

    TEST_CASE("end of input is quit, idle and mid-search") {
        {
            Engine e;
            e.sync();
            e.process().closeInput();
            CHECK(e.exitStatus() == 0);
        }
        {
            Engine e;
            e.send("go infinite");
            e.sync();
            e.process().closeInput();
            CHECK(e.exitStatus() == 0);
        }
        {
            // A last line without a newline is still read.
            Engine e;
            REQUIRE(e.process().sendRaw("isready"));
            e.process().closeInput();
            REQUIRE(e.process().readLine(kLiveness) == std::optional<std::string>("readyok"));
            CHECK(e.exitStatus() == 0);
        }
    }

    TEST_CASE("setoption: Ruleset resets the other rule options but DrawTurns") {
        Engine e;
        CHECK(rulesLine(e) ==
              "rules kelly Dice=pools SafeOuterOrbit=false KingOfTheCentre=false "
              "CentreStraight=false BlockedPush=stay CentreWin=0 DrawTurns=40");
        for (const char* line :
             {"setoption name DrawTurns value 10", "setoption name Dice value d20",
              "setoption name KingOfTheCentre value true", "setoption name BlockedPush value kill",
              "setoption name CentreWin value 5", "setoption name safeouterorbit value TRUE",
              "setoption name CENTRESTRAIGHT value true"})
            CHECK(e.command(line).empty());
        CHECK(rulesLine(e) ==
              "rules kelly Dice=d20 SafeOuterOrbit=true KingOfTheCentre=true "
              "CentreStraight=true BlockedPush=kill CentreWin=5 DrawTurns=10");
        CHECK(e.command("setoption name Ruleset value dalsian").empty());
        CHECK(rulesLine(e) ==
              "rules dalsian Dice=2d10 SafeOuterOrbit=true KingOfTheCentre=false "
              "CentreStraight=false BlockedPush=stay CentreWin=0 DrawTurns=10");
        CHECK(e.command("setoption name dice value ruleset").empty());
        CHECK(e.command("setoption name ruleset value HoloChess").empty());
        CHECK(rulesLine(e) ==
              "rules holochess Dice=split-d6 SafeOuterOrbit=false KingOfTheCentre=false "
              "CentreStraight=true BlockedPush=kill CentreWin=0 DrawTurns=10");
    }

    TEST_CASE("setoption: a rule option change replaces the position with startpos") {
        Engine e;
        CHECK(e.command(std::string("position dfen ") + kMelee + " moves axb2").empty());
        CHECK(dfenLine(e) == std::string("dfen ") + kMelee + " moves axb2");
        CHECK(e.command("setoption name DrawTurns value 40").empty());
        CHECK(dfenLine(e) == "dfen ./............/.GHSN..mltk. 1 2 0 1");
        CHECK(e.command("setoption name Ruleset value holochess").empty());
        CHECK(dfenLine(e) == "dfen ./............/.SGNL..mhtk. 1 2 0 1");
        // Engine options leave the position alone.
        CHECK(e.command("position startpos moves c2-b1").empty());
        for (const char* line :
             {"setoption name Hash value 8", "setoption name Threads value 2",
              "setoption name MultiPV value 3", "setoption name Clear Hash",
              "setoption name Seed value 7", "setoption name Player value greedy", "newgame"})
            CHECK(e.command(line).empty());
        CHECK(dfenLine(e) == "dfen ./S.........../..GNL..mhtk. 1 1 1 1");
    }

    TEST_CASE("a rule option change without newgame leaves no table entry readable") {
        // The last info line of a search: its ev and node count.
        const auto lastInfo = [](const std::vector<std::string>& lines) {
            const auto it = std::find_if(lines.rbegin(), lines.rend(), [](const std::string& l) {
                return startsWith(l, "info depth");
            });
            REQUIRE(it != lines.rend());
            return *it;
        };
        Engine fresh;
        CHECK(fresh.command("setoption name Ruleset value dalsian").empty());
        CHECK(fresh.command("position startpos").empty());
        const std::string expected = lastInfo(fresh.go("go depth 4"));

        // Kelly and dalsian share startpos and every position key: a table entry written
        // under kelly matches a dalsian position unless the rules are part of the key.
        Engine e;
        CHECK(e.command("position startpos").empty());
        (void)e.go("go depth 5");
        CHECK(e.command("setoption name Ruleset value dalsian").empty());
        CHECK(e.command("position startpos").empty());
        const std::string got = lastInfo(e.go("go depth 4"));
        CHECK(field(got, "ev") == field(expected, "ev"));
        // Unreadable foreign entries can only displace a few of the search's own.
        CHECK(std::stoull(field(got, "nodes")) * 2 > std::stoull(field(expected, "nodes")));
    }

    TEST_CASE("setoption: errors change nothing") {
        Engine e;
        CHECK(e.command("setoption name DrawTurns value 12").empty());
        CHECK(e.command("position startpos moves c2-b1").empty());
        const std::string rules = rulesLine(e), dfen = dfenLine(e);
        for (const char* line : {"setoption name Frobnicate value 1",
                                 "setoption name Dice value d12",
                                 "setoption name Ruleset value chess",
                                 "setoption name SafeOuterOrbit value yes",
                                 "setoption name BlockedPush value push",
                                 "setoption name CentreWin value 21",
                                 "setoption name CentreWin value -2",
                                 "setoption name DrawTurns value 1001",
                                 "setoption name DrawTurns value ten",
                                 "setoption name Hash value 0",
                                 "setoption name Hash value 65537",
                                 "setoption name Threads value 0",
                                 "setoption name Threads value 257",
                                 "setoption name MultiPV value 65",
                                 "setoption name Seed value 4294967296",
                                 "setoption name Seed value -1",
                                 "setoption name Player value smart",
                                 "setoption name Clear Hash value yes",
                                 "setoption name Hash",
                                 "setoption name Ruleset",
                                 "setoption name Clear"})
            checkOneError(e.command(line), line);
        CHECK(rulesLine(e) == rules);
        CHECK(dfenLine(e) == dfen);
    }

    TEST_CASE("MultiPV: ranked lines, the last multipv 1 line before bestmove") {
        Engine e;
        e.command("setoption name MultiPV value 3");
        e.command("position startpos");
        const auto lines = e.go("go depth 2");
        checkSearch(lines);
        CHECK(countIf(lines, "info depth") >= 3);
        bool sawSecond = false;
        for (const auto& l : lines)
            if (startsWith(l, "info depth") && field(l, "multipv") == "2") sawSecond = true;
        CHECK(sawSecond);
    }

    TEST_CASE("a placement after a counter-push is searched for the player not on turn") {
        Engine e;
        e.command(std::string("position dfen ") + kMelee + " moves axb2 counterpush");
        const auto lines = e.go("go depth 2");
        checkSearch(lines);
        // Player 2 places player 1's Savrip, which stands on a.
        CHECK(startsWith(bestmoveOf(lines.back()), "a-"));
    }

    TEST_CASE("baseline players answer at once with an info line") {
        for (const char* player : {"greedy", "random", "cautious"}) {
            Engine e;
            e.command(std::string("setoption name Player value ") + player);
            e.command("setoption name Seed value 42");
            e.command(std::string("position dfen ") + kMelee);
            const auto first = e.go("go depth 5");
            checkSearch(first);
            // The same seed and commands give the same decision.
            e.command("newgame");
            const auto again = e.go("go");
            CHECK(again.back() == first.back());
            CHECK(e.sync().empty());
        }
    }

    TEST_CASE("d: picture, dfen of the last decision point, rules, due, legal events") {
        Engine e;
        e.command(std::string("position dfen ") + kMelee + " moves axb2 counterpush");
        const auto lines = e.command("d");
        std::string all;
        for (const auto& l : lines)
            all += l + "\n";
        CHECK(all.find("c12 g") != std::string::npos);
        CHECK(all.find("a S") != std::string::npos);
        CHECK(all.find(std::string("dfen ") + kMelee + " moves axb2 counterpush\n") !=
              std::string::npos);
        CHECK(all.find("rules kelly Dice=pools") != std::string::npos);
        CHECK(all.find("due player 2 to decide: placement of the counter-pushed piece on a\n") !=
              std::string::npos);
        CHECK(all.find("legal a-b3 a-b4") != std::string::npos);
        for (const auto& l : lines)
            CHECK(!isError(l));
    }

    TEST_CASE("eval prints the terms and the value") {
        Engine e;
        const auto lines = e.command("eval");
        REQUIRE(lines.size() >= 3);
        CHECK(startsWith(lines.front(), "term"));
        CHECK(startsWith(lines.back(), "eval "));
        CHECK(lines.back().find("for player 1") != std::string::npos);
    }

    TEST_CASE("EvalFile: the weights of a file in eval and the search, a bad file refused") {
        const dejarik::testing::TempDir dir;
        const auto write = [&](const std::string& name, const std::string& text) {
            std::ofstream(dir.path() / name) << text;
            return (dir.path() / name).string();
        };
        const std::string bold = write("bold.txt", "# louder terms\ncalibration 1\nexposure 0.6\n");
        const std::string outOfRange = write("range.txt", "exposure 0.3\ncalibration 5\n");
        const std::string unknown = write("unknown.txt", "boldness 1\n");
        Engine e;
        const auto evalLine = [&] { return e.command("eval").back(); };
        const auto searched = [&] {
            e.command("newgame");  // the same table for each search
            e.command(std::string("position dfen ") + kMelee);
            const auto lines = e.go("go depth 3");
            REQUIRE(lines.size() >= 2);
            return field(lines[lines.size() - 2], "ev");
        };
        e.command(std::string("position dfen ") + kMelee);
        const std::string evalBefore = evalLine(), evBefore = searched();

        CHECK(e.command("setoption name EvalFile value " + bold).empty());
        const std::string evalBold = evalLine(), evBold = searched();
        CHECK(evalBold != evalBefore);
        CHECK(evBold != evBefore);

        // Each bad file: one error line naming the file and line, the weights kept.
        for (const std::string& bad :
             {outOfRange, unknown, (dir.path() / "none.txt").string(), dir.str()}) {
            const auto lines = e.command("setoption name EvalFile value " + bad);
            checkOneError(lines, bad);
            CHECK(lines[0].find("EvalFile") != std::string::npos);
            CHECK(lines[0].find(bad) != std::string::npos);
            CHECK(lines[0].find("the weights stay as they were") != std::string::npos);
            CHECK(evalLine() == evalBold);
        }
        CHECK(e.command("setoption name EvalFile value " + outOfRange).at(0).find(":2:") !=
              std::string::npos);

        // <empty>: the compiled-in weights again, the same values to the digit.
        CHECK(e.command("setoption name EvalFile value <empty>").empty());
        CHECK(evalLine() == evalBefore);
        CHECK(searched() == evBefore);
    }

    TEST_CASE("Contempt: a certain quiet draw is worth minus the contempt") {
        Engine e;
        e.command("setoption name Ruleset value dalsian");
        // Every piece on the safe outer ring, two actions before the quiet draw.
        e.command("position dfen ./............/.KGHS..mlnt. 1 2 78 40");
        CHECK(field(e.go("go depth 2").rbegin()[1], "ev") == "0");
        CHECK(e.command("setoption name Contempt value 25").empty());
        e.command("position dfen ./............/.KGHS..mlnt. 1 2 78 40");
        CHECK(field(e.go("go depth 2").rbegin()[1], "ev") == "-250");
    }

    TEST_CASE("Opponent: a modelled baseline never answers better than the minimax opponent") {
        Engine e;
        e.command(std::string("position dfen ") + kMelee);
        const auto ev = [&] {
            const auto lines = e.go("go depth 3");
            REQUIRE(lines.size() >= 2);
            return std::stoi(field(lines[lines.size() - 2], "ev"));
        };
        const int minimax = ev();
        for (const char* model : {"random", "greedy", "cautious"}) {
            CHECK(e.command(std::string("setoption name Opponent value ") + model).empty());
            e.command("newgame");
            e.command(std::string("position dfen ") + kMelee);
            CHECK(ev() >= minimax);
        }
        CHECK(e.command("setoption name Opponent value minimax").empty());
        e.command("newgame");
        e.command(std::string("position dfen ") + kMelee);
        CHECK(ev() == minimax);
    }

    TEST_CASE("EndingsAgainst: small endings answered exactly, stop answered at once") {
        Engine e;
        e.command("setoption name Ruleset value holochess");
        CHECK(e.command("setoption name EndingsAgainst value random").empty());
        // Savrip and Ghhhk against a Monnok: solved, the decision exact and legal.
        e.command("position dfen ./S.....m..G../............ 1 2 0 1");
        const auto lines = e.go("go depth 1");
        REQUIRE(lines.size() == 2);
        CHECK(lines[0].find(" exact pv ") != std::string::npos);
        CHECK(std::stoi(field(lines[0], "ev")) > 0);
        CHECK(lines[1].starts_with("bestmove "));
        CHECK(lines[1] != "bestmove none");
        // `go infinite` answers only when told to stop, as a search does: the solved line at
        // once, the bestmove after stop (before, both at once).
        e.send("go infinite");
        const auto shown = e.until("info depth");
        CHECK(shown.back().find(" exact pv ") != std::string::npos);
        CHECK(countIf(e.sync(), "bestmove") == 0);
        e.send("stop");
        const auto answered = e.until("bestmove");
        REQUIRE(answered.size() == 1);
        CHECK(answered[0] == lines[1]);
        // Five creatures: searched as always (nodes beyond the root).
        e.command("position dfen ./SN....m..G../.......t.... 1 2 0 1");
        const auto searched = e.go("go depth 2");
        REQUIRE(searched.size() >= 2);
        CHECK(searched.rbegin()[1].find(" nodes 1 ") == std::string::npos);
        // A set of four takes long enough to be stopped: greedy's decision at once.
        e.command("position dfen ./S.....m..G../.......t.... 1 2 0 1");
        e.send("go infinite");
        e.send("stop");
        const auto stopped = e.until("bestmove");
        REQUIRE(stopped.size() == 3);
        CHECK(stopped[0] == "info string ending not solved: stopped");
        CHECK(stopped[2] != "bestmove none");
        // Under a movetime far below a solution's seconds: given up at the deadline, greedy's
        // decision at once.
        const auto timed = e.go("go movetime 30");
        REQUIRE(timed.size() == 3);
        CHECK(timed[0] == "info string ending not solved: out of time");
        CHECK(timed[2] != "bestmove none");
        CHECK(e.command("setoption name EndingsAgainst value none").empty());
    }

    TEST_CASE("odds of an attack, of every attack, of the pending attack") {
        Engine e;
        // S (attack 6) on a against n (defence 8) on b1: PERFT.md's kelly S-against-N sample.
        const std::string sn =
            "odds axb1 kill 0.016695 push 0.104812 counterpush 0.347632 counterkill 0.530861";
        e.command("position dfen S/n.........../...........G 1 2 0 1");
        CHECK(e.command("odds axb1") == std::vector<std::string>{sn});
        CHECK(e.command("odds AXB1") == std::vector<std::string>{sn});
        CHECK(e.command("odds") == std::vector<std::string>{sn});
        e.command("position dfen S/n.........../...........G 1 2 0 1 moves axb1");
        CHECK(e.command("odds") == std::vector<std::string>{sn});
        CHECK(e.command("odds axb1") == std::vector<std::string>{sn});
        // Every attack of the melee position, all four outcomes on each line.
        e.command(std::string("position dfen ") + kMelee);
        const auto all = e.command("odds");
        CHECK(all.size() == 9);
        for (const auto& l : all) {
            CHECK(startsWith(l, "odds "));
            CHECK(l.find(" kill ") != std::string::npos);
            CHECK(l.find(" counterkill ") != std::string::npos);
        }
    }

    TEST_CASE("go perft matches PERFT.md") {
        Engine e;
        for (const auto& [depth, nodes] :
             std::vector<std::pair<int, std::string>>{{1, "10"}, {2, "175"}, {3, "4611"}}) {
            e.send("go perft " + std::to_string(depth));
            const auto lines = e.until("Nodes searched:");
            CHECK(lines.back() == "Nodes searched: " + nodes);
            CHECK(lines[lines.size() - 2].empty());
        }
        e.send("go perft 0");
        CHECK(e.until("Nodes searched:") == std::vector<std::string>{"", "Nodes searched: 1"});
        e.command("setoption name Ruleset value holochess");
        e.send("go perft 2");
        CHECK(e.until("Nodes searched:").back() == "Nodes searched: 248");
        e.command("setoption name Ruleset value kelly");
        e.command(std::string("position dfen ") + kMelee);
        e.send("go perft 2");
        auto divide = e.until("Nodes searched:");
        CHECK(divide.back() == "Nodes searched: 395");
        divide.resize(divide.size() - 2);
        std::sort(divide.begin(), divide.end());
        std::vector<std::string> expected = {
            "a-b3: 20",  "a-b4: 21",  "a-b5: 22",  "a-b8: 20",  "a-b9: 21",  "a-b10: 21",
            "a-b11: 21", "a-c3: 13",  "a-c4: 15",  "a-c5: 16",  "a-c8: 16",  "a-c9: 17",
            "a-c10: 16", "a-c11: 16", "b7-b8: 26", "b7-c7: 28", "c2-b3: 25", "c2-c4: 26",
            "axb2: 4",   "axb6: 4",   "axb12: 3",  "b1xb2: 4",  "b1xb12: 4", "b1xc1: 4",
            "b7xb6: 4",  "c2xb2: 4",  "c2xc1: 4"};
        std::sort(expected.begin(), expected.end());
        CHECK(divide == expected);
        e.command(std::string("position dfen ") + kMelee + " moves axb2 counterpush");
        e.send("go perft 3");
        CHECK(e.until("Nodes searched:").back() == "Nodes searched: 3579");
        CHECK(e.sync().empty());  // perft prints no bestmove
    }

    TEST_CASE("bench ends with its summary line") {
        Engine e;
        e.send("bench 1");
        const auto lines = e.until("bench nodes");
        const auto& last = lines.back();
        CHECK(!field(last, "nps").empty());
        CHECK(!field(last, "nodes").empty());
        CHECK(last.find(" time ") != std::string::npos);
        for (std::size_t i = 0; i + 1 < lines.size(); ++i)
            CHECK(startsWith(lines[i], "info string "));
    }

    // A go perft 30 or a bench 30 does not end in any test's lifetime: only stop or quit
    // can end them within the liveness timeout.
    TEST_CASE("go perft and bench run like a search: isready answered, others refused") {
        for (const char* job : {"go perft 30", "bench 30"}) {
            INFO(job);
            Engine e;
            e.send(job);
            CHECK(e.sync().empty());
            for (const char* line : {"position startpos", "d", "setoption name Hash value 8",
                                     "newgame", "go perft 1", "bench 1", "odds"})
                checkOneError(e.command(line), line);
            // No search runs, so a refused go still gets its bestmove, malformed or not.
            for (const char* line : {"go depth 1", "go depth 0"}) {
                const auto lines = e.command(line);
                INFO(line);
                REQUIRE(lines.size() == 2);
                CHECK(isError(lines[0]));
                CHECK(lines[1] == "bestmove none");
            }
            e.send("stop");
            e.send("isready");
            CHECK(e.until("readyok").size() == 2);  // the closing line, then readyok
        }
    }

    TEST_CASE("stop ends go perft and bench without their result line; the engine goes on") {
        struct Case {
            const char* job;
            const char* stopped;  // the closing line
            const char* result;   // the line a stopped job must not print
        };
        for (const Case& c :
             {Case{"go perft 30",
                   "info string go perft stopped: 0 of 10 first events counted, no total",
                   "Nodes searched"},
              Case{"bench 30",
                   "info string bench stopped: 0 of 15 positions searched, no signature",
                   "bench nodes"}}) {
            INFO(c.job);
            Engine e;
            e.send(c.job);
            e.send("stop");
            const auto lines = e.until(c.stopped);
            CHECK(lines.back() == c.stopped);
            CHECK(countIf(lines, c.result) == 0);
            CHECK(e.sync().empty());
            // Idle again: a perft runs to its total, a search to its bestmove.
            e.send("go perft 2");
            CHECK(e.until("Nodes searched:").back() == "Nodes searched: 175");
            checkSearch(e.go("go depth 1"));
        }
    }

    TEST_CASE("quit or the end of input during go perft or bench exits") {
        for (const char* job : {"go perft 30", "bench 30"}) {
            INFO(job);
            {
                Engine e;
                e.send(job);
                e.sync();
                e.send("quit");
                CHECK(e.exitStatus() == 0);
            }
            {
                Engine e;
                e.send(job);
                e.sync();
                e.process().closeInput();
                CHECK(e.exitStatus() == 0);
            }
        }
    }
}

TEST_SUITE("errors") {
    TEST_CASE("every bad line gets exactly one error line and the engine goes on") {
        Engine e;
        for (const char* line : {"xyzzy",
                                 "DEI",
                                 "Go",
                                 "isready now",
                                 "dei dei",
                                 "d d",
                                 "quit now",
                                 "stop now",
                                 "newgame 1",
                                 "eval x",
                                 "setoption",
                                 "setoption Hash",
                                 "setoption name",
                                 "setoption name Hash value",
                                 "position",
                                 "position fen x",
                                 "position dfen",
                                 "position startpos c2-b1",
                                 "position startpos moves c9-c8",
                                 "position startpos moves c2-b1 c2-b1",
                                 "position startpos moves pass",
                                 "position startpos moves zz",
                                 "position startpos moves c2xc3",
                                 "position dfen ./............/.GHSN..mltk. 1 2 0",
                                 "position dfen ./............/.GHSN..mltk. 3 2 0 1",
                                 "position dfen ./............/.GHSN..mltk. 1 2 0 0",
                                 "position dfen ./............/.GHSN..mltq. 1 2 0 1",
                                 "position dfen ./.........../.GHSN..mltk. 1 2 0 1",
                                 "position dfen ./............/............ 1 2 0 1",
                                 "position dfen ./............/.GHSN..mltk. 1 2 x 1",
                                 "position dfen ./............/.GHSN..mltk. 1 2 0 1 1/x",
                                 "go perft",
                                 "go perft -1",
                                 "go perft x",
                                 "go perft 99",
                                 "odds b4-a",
                                 "odds push",
                                 "odds b4xa",
                                 "odds c2xc3",
                                 "bench 0",
                                 "bench x"}) {
            checkOneError(e.command(line), line);
        }
        // Still alive and answering properly.
        e.send("dei");
        // id lines, an option line per option of the registry, deiok
        CHECK(e.until("deiok").size() == 2 + dejarik::protocol::options().size() + 1);
    }

    TEST_CASE("an error line echoes long tokens cut and bytes of no character as '?'") {
        Engine e;
        const std::string dfen = "./............/.GHSN..mltk.";
        for (const std::string& line : std::vector<std::string>{
                 "position startpos moves " + std::string(100000, 'c'),
                 "setoption name " + std::string(100000, 'H') + " value 1",
                 "position dfen " + std::string(50000, 'S') + " 1 2 0 1",
                 "setoption name Seed value " + std::string(5000, '7'),
                 "position dfen " + dfen + " 1 2 0 " + std::string(5000, '7'),
                 "position dfen " + dfen + " 1 2 " + std::string(5000, '7') + " 1",
                 "setoption name Ruleset value " + std::string(5000, 'k'),
                 "position startpos moves c3-b3 \xff\xfe\x80",
                 "setoption name \xc3\x28\xed\xa0\x80 value 1"}) {
            const auto lines = e.command(line);
            checkOneError(lines, line.substr(0, 60));
            INFO(lines[0].substr(0, 200));
            CHECK(lines[0].size() < 200);
            for (const char c : lines[0]) {
                const auto u = static_cast<unsigned char>(c);
                CHECK((u >= 0x20 && u < 0x7f));
            }
        }
        // A character of another script is text, not garbage.
        CHECK(e.command("setoption name Säule value 1") ==
              std::vector<std::string>{"info string error: setoption: unknown option 'Säule'"});
    }

    TEST_CASE("a malformed search go gets an error line and bestmove none") {
        Engine e;
        for (const char* line :
             {"go depth", "go depth 0", "go depth -3", "go depth 65", "go depth x", "go nodes 0",
              "go movetime 0", "go movetime -1", "go time1 -1", "go inc2 x", "go depth 2 depth 2",
              "go infinite infinite", "go wtime 1000", "go ponder", "go depth 3 perft 2",
              "go nodes 99999999999999999999999"}) {
            const auto lines = e.command(line);
            INFO(line);
            REQUIRE(lines.size() == 2);
            CHECK(isError(lines[0]));
            CHECK(lines[1] == "bestmove none");
        }
    }

    TEST_CASE("go when an outcome is due or the game is over: error and bestmove none") {
        Engine e;
        for (const char* position :
             {"position dfen S/Hk...mN....l/tG.........g 1 2 0 1 moves axb2",
              "position dfen S/n.........../............ 1 2 0 1",
              "position dfen S/............/............ 1 2 0 1",
              "position dfen ./Sn........../.....H..t... 1 2 80 79",
              "position dfen ./Sn........../.....H..t... 1 2 78 79 moves b1-b12 b12-b11"}) {
            CHECK(e.command(position).empty());
            const auto lines = e.command("go depth 2");
            INFO(position);
            REQUIRE(lines.size() == 2);
            CHECK(isError(lines[0]));
            CHECK(lines[1] == "bestmove none");
        }
        // odds and eval have nothing to say about a finished game either.
        checkOneError(e.command("odds"), "odds");
        checkOneError(e.command("eval"), "eval");
    }

    TEST_CASE("a placement is due: odds has no attack") {
        Engine e;
        e.command(std::string("position dfen ") + kMelee + " moves axb2 counterpush");
        checkOneError(e.command("odds"), "odds");
    }

    TEST_CASE("a refused position keeps the previous one") {
        Engine e;
        CHECK(e.command(std::string("position dfen ") + kMelee + " moves b7-b8").empty());
        const std::string before = dfenLine(e);
        for (const char* line :
             {"position startpos moves c2-b1 c9-c8", "position startpos moves c2-b1 nonsense",
              "position dfen ./Tn.lL......./........k... 1 2 0 1 moves b5xb4 counterkill",
              "position dfen S/Hk...mN....l/tG.........g 1 2 0 1 moves axb2 counterpush a-c1",
              "position dfen ./Tn.lL......./........k... 1 2 0 1 moves b1xb2 kill",
              "position dfen ./Sn........../.....H..t... 1 2 78 79 moves b1-b12 b12-b11 c6-b6",
              "position dfen bad"})
            checkOneError(e.command(line), line);
        CHECK(dfenLine(e) == before);
        // And a search afterwards is of that position: b7-b8 was played, so player 1 has
        // one action left and the Monnok stands on b8.
        const auto lines = e.go("go depth 1");
        checkSearch(lines);
        CHECK(dfenLine(e) == before);
    }

    TEST_CASE("a command that runs out of memory gets an error line; the engine goes on") {
#if defined(DEJARIK_SANITIZED)
        MESSAGE("skipped under a sanitizer");
#else
        Engine e;
        e.send("dei");
        e.until("deiok");
        // No endgame tables: mapped, a user's (38-60 MB; ctest points the cache at an empty
        // folder, a test binary run by hand does not) would take the headroom below, and the
        // small table and the searches it leaves room for would not fit.
        e.send("setoption name Tables value false");  // no isready: it would allocate the hash
        // The table is allocated by the first command that needs it: with 40 MiB of address
        // space to spare the default 64 MiB cannot be had, a small table and a search can.
        limitAddressSpace(e, rlim_t{40} << 20);

        const auto ready = e.sync();
        REQUIRE(ready.size() == 1);
        CHECK(ready[0] == "info string error: isready: cannot allocate 64 MiB of hash");
        CHECK(e.go("go depth 2") ==
              std::vector<std::string>{"info string error: go: cannot allocate 64 MiB of hash",
                                       "bestmove none"});
        CHECK(e.command("setoption name Hash value 2").empty());
        checkSearch(e.go("go depth 3"));
        CHECK(e.command("setoption name Hash value 65536") ==
              std::vector<std::string>{"info string error: setoption: cannot allocate 65536 MiB "
                                       "of hash; the options stay as they were"});
        checkSearch(e.go("go depth 3"));
        e.send("quit");
        CHECK(e.exitStatus() == 0);
#endif
    }

    TEST_CASE("with no address space to spare every command is answered; the engine goes on") {
#if defined(DEJARIK_SANITIZED)
        MESSAGE("skipped under a sanitizer");
#else
        // At the limit the main thread's stack cannot grow either: opening the tables (an 80
        // KiB frame, a Rules value) faulted there before the engine grew its stack at start-up.
        const dejarik::testing::TempDir tables;
        Engine e;
        e.send("dei");
        e.until("deiok");
        e.send("setoption name TablePath value " + tables.path().string());
        limitAddressSpace(e, 0);

        // Whether the tables' 80 KiB of rules can still be had depends on what the heap has
        // free (so on the compiler and the library); the 64 MiB of hash cannot.
        const auto ready = e.sync();
        REQUIRE(!ready.empty());
        CHECK(ready.back() == "info string error: isready: cannot allocate 64 MiB of hash");
        if (ready.size() == 2)
            CHECK(ready[0] == "info string error: TablePath " + tables.path().string() +
                                  ": out of memory: no endgame tables");
        CHECK(ready.size() <= 2);
        for (const char* go : {"go depth 2", "go nodes 100"}) {
            const auto lines = e.go(go);
            REQUIRE(!lines.empty());
            CHECK(lines.back() == "bestmove none");
            CHECK(startsWith(lines.front(), "info string error: go: "));
        }
        // The limit lifted, the same engine searches as before.
        const rlimit unlimited{RLIM_INFINITY, RLIM_INFINITY};
        REQUIRE(prlimit(e.process().pid(), RLIMIT_AS, &unlimited, nullptr) == 0);
        CHECK(e.sync().empty());
        checkSearch(e.go("go depth 3"));
        e.send("quit");
        CHECK(e.exitStatus() == 0);
#endif
    }

    TEST_CASE("a go while searching gets only an error line") {
        Engine e;
        e.send("go infinite");
        e.sync();
        checkOneError(withoutProgress(e.command("go depth 1")), "go depth 1");
        checkOneError(withoutProgress(e.command("go depth 0")), "go depth 0");
        e.send("stop");
        const auto lines = e.until("bestmove");
        CHECK(countIf(lines, "bestmove") == 1);
        CHECK(e.sync().empty());
    }
}
