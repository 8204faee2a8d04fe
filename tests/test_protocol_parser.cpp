// The pure DEI line parser: no engine, no threads.
#include <doctest/doctest.h>

#include "command.h"

using namespace dejarik::protocol;

namespace {

template <typename T>
T parsed(std::string_view line) {
    const ParseResult r = parseLine(line);
    REQUIRE_MESSAGE(std::holds_alternative<Command>(r), line);
    const Command& c = std::get<Command>(r);
    REQUIRE_MESSAGE(std::holds_alternative<T>(c), line);
    return std::get<T>(c);
}

ParseError failed(std::string_view line) {
    const ParseResult r = parseLine(line);
    REQUIRE_MESSAGE(std::holds_alternative<ParseError>(r), line);
    return std::get<ParseError>(r);
}

}  // namespace

TEST_SUITE("parser") {
    TEST_CASE("simple commands, blank lines and whitespace") {
        parsed<Dei>("dei");
        parsed<IsReady>("isready");
        parsed<IsReady>("  isready \r");
        parsed<IsReady>("\tisready\t");
        parsed<NewGame>("newgame");
        parsed<Stop>("stop");
        parsed<Quit>("quit");
        parsed<Display>("d");
        parsed<Eval>("eval");
        parsed<Empty>("");
        parsed<Empty>("   \t \r");
    }

    TEST_CASE("command words are lower case and take no stray arguments") {
        CHECK(failed("DEI").message.find("unknown command 'DEI'") != std::string::npos);
        CHECK(failed("Isready").kind == LineKind::Other);
        CHECK(failed("isready now").message.find("takes no arguments") != std::string::npos);
        failed("quit now");
        failed("d 1");
        failed("xyzzy");
    }

    TEST_CASE("error messages stay one printable, bounded line") {
        const std::string garbage = "\x01\x02" + std::string(500, 'z') + "\x7f";
        const auto e = failed(garbage);
        for (const char c : e.message) {
            CHECK(static_cast<unsigned char>(c) >= 0x20);
            CHECK(c != 0x7f);
        }
        CHECK(e.message.size() < 100);
        // Bytes of no UTF-8 character are masked too; a character is kept whole, also where
        // a long token is cut ("\?": two question marks may begin a trigraph).
        CHECK(failed("\xff\xc3\x28\xe2\x82").message == "unknown command '?\?(?\?'");
        CHECK(failed("\xc2\x85x").message == "unknown command '?x'");
        CHECK(failed("Ärger").message == "unknown command 'Ärger'");
        const auto cut = failed(std::string(39, 'a') + "é" + std::string(10, 'a')).message;
        CHECK(cut == "unknown command '" + std::string(39, 'a') + "...'");
    }

    TEST_CASE("setoption: names with spaces, values, buttons") {
        auto o = parsed<SetOption>("setoption name Hash value 128");
        CHECK(o.name == "Hash");
        CHECK(o.value == "128");
        o = parsed<SetOption>("setoption name  Clear   Hash ");
        CHECK(o.name == "Clear Hash");
        CHECK(!o.value);
        o = parsed<SetOption>("setoption name ruleset value dalsian-classic");
        CHECK(o.name == "ruleset");
        CHECK(o.value == "dalsian-classic");
        failed("setoption");
        failed("setoption Hash value 1");
        failed("setoption name");
        failed("setoption name value 3");
        failed("setoption name Hash value");
    }

    TEST_CASE("position: startpos, dfen, moves") {
        auto p = parsed<SetPosition>("position startpos");
        CHECK(!p.dfen);
        CHECK(p.moves.empty());
        p = parsed<SetPosition>("position startpos moves c3-b3 c4-b4");
        CHECK(p.moves == std::vector<std::string>{"c3-b3", "c4-b4"});
        p = parsed<SetPosition>("position startpos moves");
        CHECK(p.moves.empty());
        p = parsed<SetPosition>(
            "position dfen S/Hk...mN....l/tG.........g 1 2 0 1 moves axb2 push");
        CHECK(p.dfen == "S/Hk...mN....l/tG.........g 1 2 0 1");
        CHECK(p.moves == std::vector<std::string>{"axb2", "push"});
        p = parsed<SetPosition>("position dfen N/..k........./...G....mt.. 1 2 0 9 2/2");
        CHECK(p.dfen == "N/..k........./...G....mt.. 1 2 0 9 2/2");
        // The DFEN's fields are judged by the engine against its rules, not here.
        p = parsed<SetPosition>("position dfen nonsense");
        CHECK(p.dfen == "nonsense");
        failed("position");
        failed("position dfen");
        failed("position dfen moves a-b1");
        failed("position startpos c3-b3");
        failed("position fen x");
    }

    TEST_CASE("go: every limit, infinite, no limit") {
        auto g = parsed<Go>(
            "go depth 6 nodes 1000 movetime 250 time1 60000 time2 59000 inc1 "
            "100 inc2 200");
        CHECK(g.depth == 6);
        CHECK(g.nodes == 1000u);
        CHECK(g.movetimeMs == 250);
        CHECK(g.time1Ms == 60000);
        CHECK(g.time2Ms == 59000);
        CHECK(g.inc1Ms == 100);
        CHECK(g.inc2Ms == 200);
        CHECK(!g.infinite);
        CHECK(g.hasLimit());
        g = parsed<Go>("go");
        CHECK(!g.hasLimit());
        g = parsed<Go>("go infinite");
        CHECK(g.infinite);
        CHECK(!g.hasLimit());
        g = parsed<Go>("go inc1 5");
        CHECK(!g.hasLimit());
        g = parsed<Go>("go nodes 18446744073709551615");
        CHECK(g.nodes == 18446744073709551615ull);
        g = parsed<Go>("go time1 0");
        CHECK(g.time1Ms == 0);
    }

    TEST_CASE("go: malformed or out-of-range parameters are search-go errors") {
        for (const char* line :
             {"go depth", "go depth 0", "go depth -1", "go depth 65", "go depth x", "go depth 2.5",
              "go depth +3", "go nodes 0", "go nodes 18446744073709551616", "go movetime 0",
              "go time1 -5", "go inc2 abc", "go depth 3 depth 4", "go infinite infinite",
              "go wtime 100", "go depth 3 perft 2", "go movetime 99999999999999999999"}) {
            const auto e = failed(line);
            CHECK_MESSAGE(e.kind == LineKind::SearchGo, line);
            CHECK(e.message.rfind("go", 0) == 0);
        }
    }

    TEST_CASE("go perft") {
        CHECK(parsed<GoPerft>("go perft 3").depth == 3);
        CHECK(parsed<GoPerft>("go perft 0").depth == 0);
        for (const char* line :
             {"go perft", "go perft -1", "go perft x", "go perft 31", "go perft 2 depth 3"}) {
            const auto e = failed(line);
            CHECK_MESSAGE(e.kind == LineKind::Other, line);
        }
    }

    TEST_CASE("odds and bench") {
        CHECK(!parsed<Odds>("odds").attack);
        CHECK(parsed<Odds>("odds b4xa").attack == "b4xa");
        CHECK(parsed<Odds>("odds C12XB12").attack == "C12XB12");
        failed("odds b4-a");
        failed("odds push");
        failed("odds b4xz9");
        failed("odds b4xa c1xb1");
        CHECK(!parsed<Bench>("bench").depth);
        CHECK(parsed<Bench>("bench 3").depth == 3);
        failed("bench 0");
        failed("bench three");
        failed("bench 3 4");
    }

    TEST_CASE("tokenize") {
        const auto t = tokenize(" a\tb  c\r");
        CHECK(t == std::vector<std::string_view>{"a", "b", "c"});
        CHECK(tokenize("").empty());
    }
}
