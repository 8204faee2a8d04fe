// The command line: subcommands' output and flag errors (one stderr line, exit code 2).
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "temp_dir.h"
#include "test_protocol_support.h"
#include "test_text_lines.h"

using namespace dejarik::test;

using dejarik::testing::linesOf;

namespace {

struct Run {
    int status = -1;
    std::vector<std::string> out;
    std::string err;
};

Run run(const std::vector<std::string>& args) {
    Engine e(args);
    e.process().closeInput();
    Run r;
    while (auto line = e.process().readLine(kLiveness))
        r.out.push_back(*line);
    r.status = e.exitStatus();
    r.err = e.process().stderrText();
    return r;
}

void checkOdds(const std::vector<std::string>& args, std::string_view expected) {
    INFO("dejarik odds ...: " << args.back());
    const Run r = run(args);
    CHECK(r.status == 0);
    CHECK(r.out == linesOf(expected));
    CHECK(r.err.empty());
}

}  // namespace

TEST_SUITE("cli") {
    TEST_CASE("odds: PERFT.md's odds samples") {
        checkOdds({"odds", "--ruleset", "kelly", "--attack", "2", "--defence", "2"},
                  R"(dice=pools attack=2 defence=2
kill                              35/1296  0.027006
push                                 5/12  0.416667
counterpush                       343/648  0.529321
counterkill                       35/1296  0.027006
sum                                     1)");
        checkOdds({"odds", "--ruleset", "kelly", "--attacker", "S", "--defender", "N"},
                  R"(dice=pools attack=6 defence=8
kill                218042255/13060694016  0.016695
push               1368923045/13060694016  0.104812
counterpush         2270158913/6530347008  0.347632
counterkill         3466705445/6530347008  0.530861
sum                                     1)");
        checkOdds({"odds", "--ruleset", "dalsian", "--attacker", "S", "--defender", "N"},
                  R"(dice=2d10 attack=6 defence=8
kill                           9041/80000  0.113013
push                           2927/10000  0.292700
counterpush                   24311/60000  0.405183
counterkill                    9077/48000  0.189104
sum                                     1)");
        checkOdds({"odds", "--ruleset", "dalsian-classic", "--attacker", "s", "--defender", "n"},
                  R"(dice=d20 attack=6 defence=8
kill                             961/4800  0.200208
push                            1111/4800  0.231458
counterpush                      481/1600  0.300625
counterkill                       257/960  0.267708
sum                                     1)");
        checkOdds({"odds", "--ruleset", "holochess", "--attacker", "S", "--defender", "K"},
                  R"(dice=split-d6 attack=5 defence=2
kill                                  1/6  0.166667
push                                  1/2  0.500000
counterpush                           1/6  0.166667
counterkill                           1/6  0.166667
sum                                     1)");
        checkOdds({"odds", "--attacker", "L", "--defender", "T"},
                  R"(dice=pools attack=8 defence=7
kill              17059583999/52242776064  0.326544
push               9061804033/26121388032  0.346911
counterpush      40896275885/156728328192  0.260937
counterkill          642654757/9795520512  0.065607
sum                                     1)");
        // Rule options change the dice: kelly's ratings rolled as 2d10.
        checkOdds({"odds", "--option", "Dice=2d10", "--attacker", "S", "--defender", "8"},
                  R"(dice=2d10 attack=6 defence=8
kill                           9041/80000  0.113013
push                           2927/10000  0.292700
counterpush                   24311/60000  0.405183
counterkill                    9077/48000  0.189104
sum                                     1)");
    }

    TEST_CASE("odds: showdowns of PERFT.md") {
        checkOdds({"odds", "--ruleset", "kelly", "--showdown", "S", "N"},
                  R"(dice=pools p1 rating=6 p2 rating=8
round: p1 wins 218042255/13060694016 (0.016695), p2 wins 3466705445/6530347008 (0.530861)
P(player 1 wins) = 43608451/1430290629 = 0.030489
P(player 2 wins) = 1386682178/1430290629 = 0.969511)");
        checkOdds({"odds", "--ruleset", "dalsian", "--showdown", "S", "N"},
                  R"(dice=2d10 p1 rating=6 p2 rating=8
round: p1 wins 9041/80000 (0.113013), p2 wins 9077/48000 (0.189104)
P(player 1 wins) = 27123/72508 = 0.374069
P(player 2 wins) = 45385/72508 = 0.625931)");
        checkOdds({"odds", "--ruleset", "holochess", "--showdown", "S", "K"},
                  R"(dice=split-d6 p1 rating=5 p2 rating=6
round: p1 wins 5/18 (0.277778), p2 wins 7/12 (0.583333)
P(player 1 wins) = 10/31 = 0.322581
P(player 2 wins) = 21/31 = 0.677419)");
    }

    TEST_CASE("odds: the whole table of a ruleset's creatures") {
        const Run r = run({"odds", "--ruleset", "holochess"});
        CHECK(r.status == 0);
        CHECK(countIf(r.out, "sum ") == 64);
        CHECK(countIf(r.out, "dice=split-d6 ") == 64);
        // S against K appears as its own block with the sample's numbers.
        const auto at = std::find(r.out.begin(), r.out.end(), "Sxk");
        REQUIRE(at != r.out.end());
        CHECK(*(at + 1) == "dice=split-d6 attack=5 defence=2");
    }

    TEST_CASE("odds --race: one line a player, or every split of a deal and their mean") {
        const Run two = run({"odds", "--ruleset", "dalsian", "--race", "GLNT", "khms"});
        CHECK(two.status == 0);
        REQUIRE(two.out.size() == 2);
        CHECK(startsWith(two.out[0], "player 1 GLNT against khms: at most score 0.84"));
        CHECK(startsWith(two.out[1], "player 2 khms against GLNT: at most score 0.86"));
        const Run all = run({"odds", "--ruleset", "dalsian", "--race"});
        CHECK(all.status == 0);
        REQUIRE(all.out.size() == 71);  // C(8, 4) splits and the mean
        CHECK(startsWith(all.out.back(), "mean of 70 equally likely splits: score 0.8475 "));
        const Run greedy =
            run({"odds", "--ruleset", "kelly", "--race", "GHS", "nt", "--against", "greedy"});
        REQUIRE(greedy.out.size() == 2);
        // Three against two cannot box both in; after a kill, three against one can, and the
        // boxed-in piece then attacks the one it values most.
        CHECK(startsWith(greedy.out[0], "player 1 GHS against nt: at most score 0.5356"));
        const Run unboxed = run({"odds", "--ruleset", "kelly", "--race", "GHS", "nt", "--against",
                                 "greedy", "--unboxed"});
        REQUIRE(unboxed.out.size() == 2);
        CHECK(startsWith(unboxed.out[0], "player 1 GHS against nt: at most score 0.50"));
        // Four against greedy's Ng'ok and Strider: the bound rests on boxing the two in.
        for (const auto& [flag, score] : {std::pair{"", "0.9836"}, {"--lone-box", "0.6001"}}) {
            std::vector<std::string> args = {"odds", "--ruleset", "kelly",     "--race",
                                             "GHMS", "klnt",      "--against", "greedy"};
            if (*flag) args.emplace_back(flag);
            const Run r = run(args);
            REQUIRE(r.out.size() == 2);
            CHECK(startsWith(r.out[0],
                             std::string("player 1 GHMS against klnt: at most score ") + score));
        }
        const Run holochess = run({"odds", "--ruleset", "holochess", "--race"});
        REQUIRE(holochess.out.size() == 1);  // its deals keep the start groups
        CHECK(startsWith(holochess.out[0], "SGNL vs mhtk  score "));
    }

    TEST_CASE("odds --race --exact: small endings solved against the baseline tighten the bound") {
        // Three against one in holochess: any player at most 0.9597 (pushes counted as kills
        // wherever four pieces could box one in); against the random mover, with the
        // endings of four solved exactly under a quiet draw of 4 actions, 0.9196.
        const std::vector<std::string> args = {"odds", "--ruleset", "holochess", "--race",
                                               "SGN",  "m",         "--against", "random"};
        const Run plain = run(args);
        REQUIRE(plain.out.size() == 2);
        CHECK(startsWith(plain.out[0], "player 1 SGN against m: at most score 0.9597"));
        std::vector<std::string> exact = args;
        for (const char* a : {"--exact", "--option", "DrawTurns=2", "--threads", "2"})
            exact.emplace_back(a);
        const Run r = run(exact);
        CHECK(r.status == 0);
        REQUIRE(r.out.size() == 2);
        CHECK(startsWith(r.out[0], "player 1 SGN against m: at most score 0.9196"));
        CHECK(startsWith(r.out[1], "player 2 m against SGN: at most score 0.5000"));
    }

    TEST_CASE("analyse prints the board, the decision due and ranked decisions") {
        const Run r = run({"analyse", "--depth", "2", "--multipv", "2"});
        CHECK(r.status == 0);
        std::string all;
        for (const auto& l : r.out)
            all += l + "\n";
        CHECK(all.find("c12 .") != std::string::npos);
        CHECK(all.find("c2 G") != std::string::npos);
        CHECK(all.find("player 1 to decide") != std::string::npos);
        CHECK(all.find("rank  decision") != std::string::npos);
        CHECK(all.find("\n   1  ") != std::string::npos);
        CHECK(all.find("\n   2  ") != std::string::npos);

        const Run placement = run({"analyse", "--dfen", "S/Hk...mN....l/tG.........g 1 2 0 1",
                                   "--moves", "axb2 counterpush", "--depth", "2"});
        CHECK(placement.status == 0);
        std::string p;
        for (const auto& l : placement.out)
            p += l + "\n";
        CHECK(p.find("player 2 to decide: placement") != std::string::npos);
        CHECK(p.find("\n   1  a-") != std::string::npos);

        const Run outcome =
            run({"analyse", "--dfen", "S/n.........../...........G 1 2 0 1", "--moves", "axb1"});
        CHECK(outcome.status == 0);
        CHECK(outcome.out.back() ==
              "odds axb1 kill 0.016695 push 0.104812 counterpush 0.347632 counterkill 0.530861");
    }

    TEST_CASE("analyse --eval-file: the file's weights rank the decisions") {
        const dejarik::testing::TempDir dir;
        const std::string file = (dir.path() / "w.txt").string();
        std::ofstream(file) << "calibration 1.5\n";
        const auto ranks = [](const Run& r) {
            std::vector<std::string> out;
            for (const auto& l : r.out)
                if (startsWith(l, "   1  ")) out.push_back(l);
            return out;
        };
        const Run plain = run({"analyse", "--depth", "2"});
        const Run loud = run({"analyse", "--depth", "2", "--eval-file", file});
        CHECK(plain.status == 0);
        CHECK(loud.status == 0);
        REQUIRE(ranks(plain).size() == 1);
        REQUIRE(ranks(loud).size() == 1);
        CHECK(ranks(plain) != ranks(loud));
        std::ofstream(file) << "calibration 9\n";
        const Run bad = run({"analyse", "--depth", "2", "--eval-file", file});
        CHECK(bad.status == 2);
        CHECK(bad.err.find("--eval-file: " + file + ":1:") != std::string::npos);
    }

    TEST_CASE("bench prints its summary last") {
        const Run r = run({"bench", "--depth", "1"});
        CHECK(r.status == 0);
        REQUIRE(!r.out.empty());
        CHECK(startsWith(r.out.back(), "bench nodes "));
        CHECK(r.out.back().find(" nps ") != std::string::npos);
        CHECK(r.out.back().find(" time ") != std::string::npos);
    }

    TEST_CASE("--help on the engine and every subcommand") {
        for (const auto& args : std::vector<std::vector<std::string>>{
                 {"--help"}, {"analyse", "--help"}, {"odds", "--help"}, {"bench", "--help"}}) {
            const Run r = run(args);
            INFO(args.front());
            CHECK(r.status == 0);
            REQUIRE(!r.out.empty());
            CHECK(startsWith(r.out.front(), "Usage: dejarik"));
        }
    }

    TEST_CASE("bad flags: one error line on stderr, nothing on stdout, exit 2") {
        const std::vector<std::vector<std::string>> cases = {
            {"--bogus"},
            {"frobnicate"},
            {"--log-level", "loud"},
            {"analyse", "--depth"},
            {"analyse", "--depth", "x"},
            {"analyse", "--depth", "0"},
            {"analyse", "--depth", "2", "--movetime", "10"},
            {"analyse", "--startpos", "--dfen", "./............/.GHSN..mltk. 1 2 0 1"},
            {"analyse", "--ruleset", "chess"},
            {"analyse", "--option", "Dice=d12"},
            {"analyse", "--option", "Dice"},
            {"analyse", "--dfen", "nonsense"},
            {"analyse", "--moves", "c9-c8"},
            {"analyse", "--multipv", "65"},
            {"analyse", "--hash", "0"},
            {"analyse", "--eval-file", "/nonexistent/weights.txt"},
            {"analyse", "stray"},
            {"odds", "--attacker", "Q", "--defender", "N"},
            {"odds", "--attacker", "S"},
            {"odds", "--attack", "S", "--defence", "3"},
            {"odds", "--attack", "13", "--defence", "3"},
            {"odds", "--attacker", "S", "--attack", "3", "--defender", "N"},
            {"odds", "--showdown", "S"},
            {"odds", "--showdown", "S", "N", "K"},
            {"odds", "--showdown", "S", "N", "--attacker", "S", "--defender", "N"},
            {"odds", "--race", "GLN"},
            {"odds", "--race", "--against", "nobody"},
            {"odds", "--against", "greedy"},
            {"odds", "--race", "--unboxed"},
            {"odds", "--race", "--lone-box"},
            {"odds", "--race", "--against", "greedy", "--unboxed", "--lone-box"},
            {"odds", "--race", "GS", "n", "--exact"},
            {"odds", "--race", "--against", "random", "--exact"},
            {"odds", "--race", "GS", "n", "--against", "greedy", "--exact", "--option",
             "DrawTurns=0"},
            {"odds", "--race", "GS", "n", "--against", "greedy", "--exact", "--threads", "0"},
            {"odds", "--race", "SGN", "mh", "--against", "random", "--max-pieces", "5"},
            {"odds", "--race", "SGN", "mh", "--against", "random", "--material", "SGN v MH"},
            {"odds", "--race", "SGN", "mh", "--against", "random", "--exact", "--max-pieces", "6"},
            {"odds", "--race", "SGN", "mh", "--against", "random", "--exact", "--max-pieces", "2"},
            {"odds", "--race", "SGN", "mh", "--against", "random", "--exact", "--max-pieces", "5",
             "--material", "SG v MH"},
            {"odds", "--race", "SGN", "mh", "--against", "random", "--exact", "--max-pieces", "5",
             "--material", "SGN v MT"},
            {"odds", "--race", "SGN", "mh", "--against", "random", "--exact", "--max-pieces", "5",
             "--material", "SGN MH"},
            {"odds", "--race", "SGN", "mh", "--against", "random", "--exact", "--max-pieces", "5",
             "--material", "SGX v MH"},
            {"odds", "--race", "GLX", "khms"},
            {"odds", "--race", "GLNTSMHKG", "khms"},
            {"odds", "--race", "--showdown", "S", "N"},
            {"odds", "--ruleset", "dalsian-classic", "--race"},
            {"odds", "--ruleset", "courtier", "--race"},
            {"bench", "--depth", "0"},
            {"bench", "--depth", "many"},
        };
        for (const auto& args : cases) {
            std::string joined;
            for (const auto& a : args)
                joined += a + " ";
            INFO("dejarik " << joined);
            const Run r = run(args);
            CHECK(r.status == 2);
            CHECK(r.out.empty());
            const auto errLines = linesOf(r.err);
            REQUIRE(errLines.size() == 1);
            CHECK(startsWith(errLines[0], "dejarik: error: "));
        }
    }

    TEST_CASE("--log-file takes the log, stdout keeps protocol lines only") {
        const std::string path = "protocol-test-log-" + std::to_string(::getpid()) + ".txt";
        {
            Engine e({"--log-file", path, "--log-level", "debug"});
            CHECK(e.command("position startpos").empty());
            e.send("quit");
            CHECK(e.exitStatus() == 0);
            CHECK(e.process().stderrText().empty());
        }
        std::FILE* f = std::fopen(path.c_str(), "r");
        REQUIRE(f);
        std::string log(4096, '\0');
        log.resize(std::fread(log.data(), 1, log.size(), f));
        std::fclose(f);
        std::remove(path.c_str());
        CHECK(log.find("<< position startpos") != std::string::npos);
        CHECK(log.find(">> readyok") != std::string::npos);
    }
}

// A set of five solved against a baseline: seconds in an optimised build, more under the
// sanitizers (label deep, tests/protocol.cmake).
TEST_SUITE("cli-deep") {
    TEST_CASE("odds --race --exact --max-pieces 5: the named sets of five tighten the bound") {
        // Holochess, S, G and N against M and H, against the random mover under a quiet draw
        // of two actions: with the sets of four exact, player 1 at most 0.8351 and player 2
        // 0.5426; with player 1's set of five (SGN v MH) exact as well, 0.6420 for player 1
        // and player 2's unchanged (its set of five, MH v SGN, not named).
        std::vector<std::string> args = {
            "odds",   "--ruleset", "holochess", "--race",      "SGN",       "mh", "--against",
            "random", "--exact",   "--option",  "DrawTurns=1", "--threads", "2"};
        const Run four = run(args);
        CHECK(four.status == 0);
        REQUIRE(four.out.size() == 2);
        CHECK(startsWith(four.out[0], "player 1 SGN against mh: at most score 0.8351  win 0.6934"));
        CHECK(startsWith(four.out[1], "player 2 mh against SGN: at most score 0.5426  win 0.1296"));
        for (const char* a : {"--max-pieces", "5", "--material", "sgn v MH"})
            args.emplace_back(a);
        const Run five = run(args);
        CHECK(five.status == 0);
        CHECK(five.err.empty());
        REQUIRE(five.out.size() == 2);
        CHECK(startsWith(five.out[0], "player 1 SGN against mh: at most score 0.6420  win 0.3022"));
        CHECK(five.out[1] == four.out[1]);
    }
}
