// Searches over many random positions of every ruleset, reached by random legal events from
// the start: every bestmove must be a legal event of the position, every go must get exactly
// one bestmove, and positions where no decision is due must be refused.
#include <random>

#include "position.h"
#include "rules.h"
#include "test_protocol_support.h"

using namespace dejarik;
using namespace dejarik::test;

namespace {

struct Setup {
    const char* ruleset;
    std::vector<std::pair<const char*, const char*>> options;
};

const std::vector<Setup> kSetups = {
    {"kelly", {}},
    {"kelly", {{"BlockedPush", "kill-on-push"}, {"KingOfTheCentre", "true"}}},
    {"dalsian-classic", {}},
    {"dalsian", {}},
    {"dalsian", {{"SafeOuterOrbit", "false"}, {"Dice", "d20"}}},
    {"holochess", {}},
};

struct Sample {
    std::vector<std::string> tokens;
    Position pos;
};

// A random walk from `start`; stops when `stop` says so, at the game's end, or after
// maxEvents events. Returns the tokens played and the position reached.
template <typename Stop>
Sample walk(const Position& start, std::mt19937_64& rng, int maxEvents, Stop stop) {
    Sample s{{}, start};
    for (int i = 0; i < maxEvents && !s.pos.isOver() && !stop(s.pos, i); ++i) {
        EventList list;
        s.pos.generate(list);
        std::uniform_int_distribution<int> pick(0, list.size() - 1);
        const Event e = list[pick(rng)];
        s.tokens.push_back(e.token());
        s.pos.apply(e);
    }
    return s;
}

std::string positionCommand(const Sample& s) {
    std::string line = "position startpos";
    if (!s.tokens.empty()) {
        line += " moves";
        for (const auto& t : s.tokens)
            line += " " + t;
    }
    return line;
}

void configure(Engine& e, const Setup& setup, RuleOptions& options) {
    REQUIRE(e.command(std::string("setoption name Ruleset value ") + setup.ruleset).empty());
    REQUIRE(!options.set("Ruleset", setup.ruleset));
    for (const auto& [name, value] : setup.options) {
        REQUIRE(e.command(std::string("setoption name ") + name + " value " + value).empty());
        REQUIRE(!options.set(name, value));
    }
}

// Sends the position and a go; checks the answer against the position.
void checkGo(Engine& e, const Sample& s, const std::string& go) {
    const std::string position = positionCommand(s);
    INFO(position);
    REQUIRE(e.command(position).empty());
    const auto lines = e.go(go);
    const std::string best = bestmoveOf(lines.back());
    CHECK(countIf(lines, "bestmove") == 1);
    const bool searchable = !s.pos.isOver() && s.pos.phase() != Phase::Outcome;
    if (!searchable) {
        REQUIRE(lines.size() == 2);
        CHECK(isError(lines[0]));
        CHECK(best == "none");
    } else {
        const auto event = s.pos.parseEvent(best);
        CHECK_MESSAGE(event, "illegal bestmove " << best);
        const auto info = std::find_if(lines.rbegin(), lines.rend(), [](const std::string& l) {
            return startsWith(l, "info depth");
        });
        REQUIRE(info != lines.rend());
        const auto pv = pvOf(*info);
        REQUIRE(!pv.empty());
        CHECK(pv.front() == best);
        CHECK(!field(*info, "ev").empty());
        for (const auto& l : lines)
            CHECK_MESSAGE(!isError(l), l);
    }
    // Exactly one: nothing more arrives after the bestmove.
    CHECK(countIf(e.sync(), "bestmove") == 0);
}

}  // namespace

TEST_SUITE("positions") {
    TEST_CASE("bestmove is legal in random positions of every ruleset") {
        std::mt19937_64 rng(20240611);
        int counterPushPlacements = 0, outcomesDue = 0, finished = 0, searched = 0;
        for (const auto& setup : kSetups) {
            Engine e;
            RuleOptions options;
            configure(e, setup, options);
            const Rules rules(options);
            const Position start = Position::startpos(rules);
            std::vector<Sample> samples;
            // Anywhere in the first turns and later in the game.
            for (int i = 0; i < 12; ++i) {
                const int length = std::uniform_int_distribution<int>(0, 60)(rng);
                samples.push_back(
                    walk(start, rng, length, [](const Position&, int) { return false; }));
            }
            // Right at a counter-push placement, decided by the player not on turn.
            for (int i = 0; i < 4; ++i) {
                samples.push_back(walk(start, rng, 400, [](const Position& p, int) {
                    return p.phase() == Phase::Placement && p.decider() != p.sideToMove();
                }));
            }
            // A push placement by the player on turn.
            samples.push_back(walk(start, rng, 400, [](const Position& p, int) {
                return p.phase() == Phase::Placement && p.decider() == p.sideToMove();
            }));
            // An outcome due, which go must refuse.
            for (int i = 0; i < 2; ++i) {
                samples.push_back(walk(start, rng, 400, [&](const Position& p, int n) {
                    return p.phase() == Phase::Outcome && n > 2 * i;
                }));
            }
            // The end of the game.
            samples.push_back(walk(start, rng, 5000, [](const Position&, int) { return false; }));

            for (const auto& s : samples) {
                if (s.pos.isOver()) {
                    ++finished;
                } else if (s.pos.phase() == Phase::Outcome) {
                    ++outcomesDue;
                } else {
                    ++searched;
                    if (s.pos.phase() == Phase::Placement && s.pos.decider() != s.pos.sideToMove())
                        ++counterPushPlacements;
                }
                checkGo(e, s, "go depth 2");
            }
            e.send("quit");
            CHECK(e.exitStatus() == 0);
        }
        // The walks must have reached every kind of position this test is about.
        CHECK(counterPushPlacements >= 10);
        CHECK(outcomesDue >= 6);
        CHECK(finished >= 3);
        CHECK(searched >= 60);
    }

    TEST_CASE("other limits and the baseline players also answer with legal events") {
        std::mt19937_64 rng(77);
        Engine e;
        RuleOptions options;
        configure(e, kSetups[0], options);
        const Rules rules(options);
        const Position start = Position::startpos(rules);
        const std::vector<std::string> gos = {"go nodes 500", "go movetime 20",
                                              "go time1 300 time2 300 inc1 10 inc2 10",
                                              "go depth 1 infinite"};
        for (int i = 0; i < 12; ++i) {
            const int length = std::uniform_int_distribution<int>(0, 40)(rng);
            const Sample s = walk(start, rng, length, [](const Position& p, int) {
                return p.phase() == Phase::Outcome;  // only searchable positions here
            });
            if (s.pos.isOver() || s.pos.phase() == Phase::Outcome) continue;
            const std::string& go = gos[static_cast<std::size_t>(i) % gos.size()];
            if (go.find("infinite") != std::string::npos) {
                // Runs past its depth until stop.
                REQUIRE(e.command(positionCommand(s)).empty());
                e.send(go);
                CHECK(countIf(e.sync(), "bestmove") == 0);
                e.send("stop");
                const std::string best = bestmoveOf(e.until("bestmove").back());
                CHECK(s.pos.parseEvent(best));
                continue;
            }
            checkGo(e, s, go);
        }
        for (const char* player : {"greedy", "random", "cautious"}) {
            REQUIRE(e.command(std::string("setoption name Player value ") + player).empty());
            for (int i = 0; i < 10; ++i) {
                const int length = std::uniform_int_distribution<int>(0, 60)(rng);
                checkGo(e, walk(start, rng, length, [](const Position&, int) { return false; }),
                        "go");
            }
        }
    }
}
