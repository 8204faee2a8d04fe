// A seeded line fuzzer against the real binary: random bytes and mutated valid commands.
// The engine must never crash or hang, must answer every line it refuses with exactly one
// error line (and `bestmove none` for a malformed search go), and must give every go
// exactly one bestmove.
#include <random>

#include "command.h"
#include "test_protocol_support.h"

using namespace dejarik::test;
using dejarik::protocol::parseLine;

namespace {

const std::vector<std::string> kTemplates = {
    "dei",
    "isready",
    "newgame",
    "stop",
    "d",
    "eval",
    "odds",
    "odds axb2",
    "odds b1xb2",
    "bench 1",
    "go",
    "go infinite",
    "go depth 2",
    "go nodes 300",
    "go movetime 5",
    "go time1 100 time2 100 inc1 5 inc2 5",
    "go depth 1 infinite",
    "go perft 2",
    "go perft 1",
    "position startpos",
    "position startpos moves c2-b1",
    "position startpos moves c4-b4 c3-b3",
    "position dfen S/Hk...mN....l/tG.........g 1 2 0 1",
    "position dfen S/Hk...mN....l/tG.........g 1 2 0 1 moves axb2",
    "position dfen S/Hk...mN....l/tG.........g 1 2 0 1 moves axb2 counterpush a-b3",
    "position dfen S/Hk...mN....l/tG.........g 1 2 0 1 moves axb2 push b2-b3",
    "position dfen N/..k........./...G....mt.. 1 2 0 9 2/2",
    "position dfen ./Sn........../.....H..t... 1 2 78 79",
    "position dfen ./t....s....../Hg..mNl....k 1 2 0 1",
    "position dfen L/n.........../...S........ 1 2 0 1",
    "setoption name Ruleset value holochess",
    "setoption name Ruleset value kelly",
    "setoption name Ruleset value dalsian",
    "setoption name Ruleset value dalsian-classic",
    "setoption name Dice value d20",
    "setoption name SafeOuterOrbit value true",
    "setoption name KingOfTheCentre value true",
    "setoption name CentreStraight value false",
    "setoption name BlockedPush value kill-on-push",
    "setoption name CentreWin value 3",
    "setoption name DrawTurns value 2",
    "setoption name Hash value 16",
    "setoption name Threads value 2",
    "setoption name MultiPV value 3",
    "setoption name Clear Hash",
    "setoption name Seed value 9",
    "setoption name Player value random",
    "setoption name Player value search",
};

const std::vector<std::string> kWords = {"go",         "depth",
                                         "nodes",      "movetime",
                                         "time1",      "inc2",
                                         "infinite",   "perft",
                                         "moves",      "startpos",
                                         "dfen",       "position",
                                         "name",       "value",
                                         "setoption",  "-1",
                                         "0",          "1",
                                         "3",          "101",
                                         "65536",      "99999999999999999999",
                                         "a",          "b12",
                                         "c1",         "a-b3",
                                         "axb2",       "c2-b2",
                                         "push",       "kill",
                                         "pass",       "counterpush",
                                         "1/1",        "S/.",
                                         "x",          "",
                                         "\t",         "ruleset",
                                         "Hash",       "./............/.GHSN..mltk.",
                                         "1 2 0 1",    "isready",
                                         "stop",       "d",
                                         "\x01",       "\xff\xfe",
                                         "moves moves"};

// One random or mutated line.
std::string makeLine(std::mt19937_64& rng) {
    auto pick = [&](std::size_t n) {
        return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
    };
    if (pick(5) == 0) {  // raw bytes, newlines excluded (they would split the line)
        std::string s(pick(80), ' ');
        for (char& c : s) {
            c = static_cast<char>(pick(256));
            if (c == '\n') c = ' ';
        }
        return s;
    }
    std::vector<std::string> tokens;
    for (const auto t : dejarik::protocol::tokenize(kTemplates[pick(kTemplates.size())]))
        tokens.emplace_back(t);
    const std::size_t mutations = pick(4);
    for (std::size_t m = 0; m < mutations; ++m) {
        switch (pick(6)) {
            case 0:
                if (!tokens.empty())
                    tokens.erase(tokens.begin() + static_cast<long>(pick(tokens.size())));
                break;
            case 1:
                tokens.insert(tokens.begin() + static_cast<long>(pick(tokens.size() + 1)),
                              kWords[pick(kWords.size())]);
                break;
            case 2:
                if (!tokens.empty()) tokens[pick(tokens.size())] = kWords[pick(kWords.size())];
                break;
            case 3:
                if (tokens.size() > 1)
                    std::swap(tokens[pick(tokens.size())], tokens[pick(tokens.size())]);
                break;
            case 4:
                if (!tokens.empty()) {
                    auto& t = tokens[pick(tokens.size())];
                    if (!t.empty()) t[pick(t.size())] = static_cast<char>(' ' + pick(95));
                }
                break;
            default:
                if (!tokens.empty()) {
                    auto& t = tokens[pick(tokens.size())];
                    for (char& c : t)
                        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
                }
                break;
        }
    }
    std::string line;
    for (const auto& t : tokens)
        line += (line.empty() ? "" : " ") + t;
    return line;
}

// Keeps the run short and the machine safe: no deep perft or bench, no huge hash or thread
// counts, and no plain quit (which would end the session; quit is tested elsewhere).
bool acceptable(const std::string& line) {
    const auto t = dejarik::protocol::tokenize(line);
    if (t.empty()) return true;
    if (t.size() == 1 && t[0] == "quit") return false;
    if (t[0] == "bench" && !(t.size() == 2 && t[1] == "1")) return false;
    bool sizesThings = false;
    for (const auto token : t) {
        std::string lower(token);
        for (char& c : lower)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        sizesThings = sizesThings || lower == "hash" || lower == "threads";
    }
    for (std::size_t i = 0; i < t.size(); ++i) {
        const bool number = t[i].find_first_not_of("0123456789") == std::string_view::npos;
        if (!number) continue;
        if (i > 0 && t[i - 1] == "perft" && t[i] != "0" && t[i] != "1" && t[i] != "2" &&
            t[i] != "3")
            return false;
        if (sizesThings && t[i] != "16" && t[i] != "2" && t[i] != "1") return false;
    }
    return true;
}

bool isReadyLine(const std::string& line) {
    const auto parsed = parseLine(line);
    return std::holds_alternative<dejarik::protocol::Command>(parsed) &&
           std::holds_alternative<dejarik::protocol::IsReady>(
               std::get<dejarik::protocol::Command>(parsed));
}

// Sends isready and reads until `readyoks` readyok lines (the fuzzed lines may have asked
// for some too); returns the other lines.
std::vector<std::string> syncAfter(Engine& e, int readyoks) {
    e.send("isready");
    std::vector<std::string> lines;
    for (int seen = 0; seen < readyoks;) {
        auto chunk = e.until("readyok");
        chunk.pop_back();
        lines.insert(lines.end(), chunk.begin(), chunk.end());
        ++seen;
    }
    return lines;
}

}  // namespace

TEST_SUITE("fuzz") {
    TEST_CASE("random and mutated lines, one at a time") {
        std::mt19937_64 rng(1234567);
        Engine e;
        int refused = 0, gos = 0;
        for (int i = 0; i < 2500; ++i) {
            std::string line = makeLine(rng);
            if (!acceptable(line)) continue;
            INFO("line " << i << ": " << line);
            const auto parsed = parseLine(line);
            const auto* error = std::get_if<dejarik::protocol::ParseError>(&parsed);
            const bool isGo = !error &&
                              std::holds_alternative<dejarik::protocol::Command>(parsed) &&
                              std::holds_alternative<dejarik::protocol::Go>(
                                  std::get<dejarik::protocol::Command>(parsed));
            e.send(line);
            // stop ends a search the line may have started; its bestmove comes before readyok.
            e.send("stop");
            const auto lines = syncAfter(e, isReadyLine(line) ? 2 : 1);
            if (error) {
                ++refused;
                const bool searchGo = error->kind == dejarik::protocol::LineKind::SearchGo;
                REQUIRE(lines.size() == (searchGo ? 2u : 1u));
                CHECK(isError(lines[0]));
                if (searchGo) CHECK(lines[1] == "bestmove none");
            } else if (isGo) {
                ++gos;
                CHECK(countIf(lines, "bestmove") == 1);
            } else {
                CHECK(countIf(lines, "bestmove") == 0);
                CHECK(countIf(lines, "info string error") <= 1);
            }
        }
        CHECK(refused > 500);
        CHECK(gos > 50);
        e.send("quit");
        CHECK(e.exitStatus() == 0);
    }

    TEST_CASE("bursts of lines without waiting") {
        std::mt19937_64 rng(7654321);
        Engine e;
        int sent = 0;
        for (int burst = 0; burst < 60; ++burst) {
            int readyoks = 1;
            for (int i = 0; i < 20;) {
                const std::string line = makeLine(rng);
                if (!acceptable(line)) continue;
                e.send(line);
                readyoks += isReadyLine(line) ? 1 : 0;
                ++i;
                ++sent;
            }
            e.send("stop");
            const auto lines = syncAfter(e, readyoks);
            for (const auto& l : lines)
                CHECK_MESSAGE(l.find('\0') == std::string::npos, l);
        }
        CHECK(sent == 1200);
        e.send("quit");
        CHECK(e.exitStatus() == 0);
    }
}
