// The perft numbers of ../shared/spec/PERFT.md (RULES.md v1.3), from an independent
// implementation: startpos and the positions here; Courtier's in test_courtier.cpp, the
// set-up decisions' in test_setup.cpp. Counts above kDeepLeaves run in the "deep" test case
// only.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "perft.h"
#include "position.h"
#include "rules.h"

using namespace dejarik;

namespace {

constexpr std::uint64_t kDeepLeaves = 50'000'000;

struct Case {
    const char* name;
    const char* ruleset;
    std::vector<const char*> options;
    const char* dfen;  // nullptr: startpos
    const char* moves;
    std::vector<std::uint64_t> counts;  // depth 1, 2, ...
};

const std::vector<Case>& cases() {
    static const std::vector<Case> all = {
        {"startpos kelly",
         "kelly",
         {},
         nullptr,
         "",
         {10, 175, 4611, 140147, 2280747, 42438758, 1218749886}},
        {"startpos dalsian-classic",
         "dalsian-classic",
         {},
         nullptr,
         "",
         {10, 175, 4611, 140150, 2281315, 42451017}},
        {"startpos dalsian",
         "dalsian",
         {},
         nullptr,
         "",
         {10, 174, 4563, 137953, 2189183, 40708246}},
        {"startpos holochess",
         "holochess",
         {},
         nullptr,
         "",
         {14, 248, 3142, 50142, 770459, 12824253, 186326085}},
        {"melee",
         "kelly",
         {},
         "S/Hk...mN....l/tG.........g 1 2 0 1",
         "",
         {27, 395, 9005, 250874, 4438382}},
        {"melee-deathpush",
         "kelly",
         {"BlockedPush=kill-on-push"},
         "S/Hk...mN....l/tG.........g 1 2 0 1",
         "",
         {27, 395, 9003, 250763, 4433550}},
        {"melee-king",
         "kelly",
         {"KingOfTheCentre=true"},
         "S/Hk...mN....l/tG.........g 1 2 0 1",
         "",
         {21, 264, 6808, 194118, 2773374}},
        {"melee-mid-counterpush",
         "kelly",
         {},
         "S/Hk...mN....l/tG.........g 1 2 0 1",
         "axb2 counterpush",
         {7, 146, 3579, 100449, 1795282, 28956275}},
        {"centre",
         "holochess",
         {},
         "./L..m.....t../...S..G..k.. 1 2 0 1",
         "",
         {18, 322, 4715, 72870, 1144269, 18756370}},
        {"safe",
         "dalsian",
         {},
         "./SmKl......../tNh......... 1 2 0 1",
         "",
         {21, 390, 12154, 414031, 8359460}},
        {"showdown",
         "kelly",
         {},
         "L/n.........../...S........ 1 2 0 1",
         "",
         {26, 388, 1550, 8597, 123440, 2163106, 8663211, 47542016}},
        {"centrewin-p1",
         "dalsian-classic",
         {},
         "N/..k........./...G....mt.. 1 2 0 9 2/2",
         "",
         {15, 134, 3375, 125147, 1077705, 12951205}},
        {"centrewin-p2",
         "dalsian-classic",
         {},
         "N/..k........./...G....mt.. 2 2 0 10 2/0",
         "",
         {14, 216, 3051, 26807, 679734, 25682633}},
        {"quiet78",
         "kelly",
         {},
         "./Sn........../.....H..t... 1 2 78 79",
         "",
         {17, 252, 54, 650, 12928, 151195, 2019860, 32389822}},
        {"pass",
         "dalsian",
         {},
         "./t....s....../Hg..mNl....k 1 2 0 1",
         "",
         {1, 1, 49, 2346, 3859, 15263, 614745, 27266738}},
        {"zeroprob",
         "kelly",
         {},
         "./Tn.lL......./........k... 1 2 0 1",
         "",
         {30, 773, 14721, 275924, 6052974}},
    };
    return all;
}

void runCases(bool deep) {
    for (const Case& c : cases()) {
        RuleOptions options;
        REQUIRE_FALSE(options.set("Ruleset", c.ruleset));
        for (const char* o : c.options)
            REQUIRE_FALSE(options.setAssignment(o));
        const Rules rules(options);
        std::string error;
        const auto start = c.dfen ? Position::fromDfen(c.dfen, rules, &error)
                                  : std::optional(Position::startpos(rules));
        REQUIRE_MESSAGE(start, error);
        const auto pos = playTokens(*start, c.moves, &error);
        REQUIRE_MESSAGE(pos, error);
        for (std::size_t d = 1; d <= c.counts.size(); ++d) {
            if ((c.counts[d - 1] > kDeepLeaves) != deep) continue;
            CAPTURE(c.name);
            CAPTURE(d);
            CHECK(perft(*pos, static_cast<int>(d)) == c.counts[d - 1]);
        }
    }
}

}  // namespace

TEST_CASE("PERFT.md: every count up to 50M leaves") {
    runCases(false);
}

TEST_CASE("PERFT.md: deep counts") {
    runCases(true);
}

TEST_CASE("PERFT.md: divides of melee and melee-mid-counterpush at depth 2") {
    const Rules rules;
    const auto melee = Position::fromDfen("S/Hk...mN....l/tG.........g 1 2 0 1", rules);
    REQUIRE(melee);
    const std::vector<std::pair<std::string, std::uint64_t>> expected = {
        {"a-b3", 20},  {"a-b4", 21},  {"a-b5", 22},  {"a-b8", 20},  {"a-b9", 21},  {"a-b10", 21},
        {"a-b11", 21}, {"a-c3", 13},  {"a-c4", 15},  {"a-c5", 16},  {"a-c8", 16},  {"a-c9", 17},
        {"a-c10", 16}, {"a-c11", 16}, {"b7-b8", 26}, {"b7-c7", 28}, {"c2-b3", 25}, {"c2-c4", 26},
        {"axb2", 4},   {"axb6", 4},   {"axb12", 3},  {"b1xb2", 4},  {"b1xb12", 4}, {"b1xc1", 4},
        {"b7xb6", 4},  {"c2xb2", 4},  {"c2xc1", 4}};
    auto asSet = [](const auto& rows) {
        std::vector<std::pair<std::string, std::uint64_t>> out;
        for (const auto& [e, n] : rows)
            out.emplace_back(e.token(), n);
        std::sort(out.begin(), out.end());
        return out;
    };
    auto sortedExpected = expected;
    std::sort(sortedExpected.begin(), sortedExpected.end());
    CHECK(asSet(perftDivide(*melee, 2)) == sortedExpected);

    const auto mid = playTokens(*melee, "axb2 counterpush");
    REQUIRE(mid);
    CHECK(mid->phase() == Phase::Placement);
    CHECK(mid->decider() == Player::Two);
    std::vector<std::pair<std::string, std::uint64_t>> midExpected = {
        {"a-b3", 20}, {"a-b4", 21},  {"a-b5", 22}, {"a-b8", 20},
        {"a-b9", 21}, {"a-b10", 21}, {"a-b11", 21}};
    std::sort(midExpected.begin(), midExpected.end());
    CHECK(asSet(perftDivide(*mid, 2)) == midExpected);
}
