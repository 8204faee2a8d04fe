// Rays of Death (docs/rules.md): the option, activation cycles, the roll, the DFEN field and
// its errors, and perft numbers checked against a slow counter written here from the rules'
// text, which shares no generation code with Position.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "dfen_checks.h"
#include "perft.h"
#include "position.h"
#include "rays.h"
#include "rules.h"
#include "spec_positions.h"

using namespace dejarik;
using dejarik::test::at;
using dejarik::test::dfenError;
using test::kMelee;

namespace {

Rules raysRules(Ruleset r, bool arrange = false) {
    RuleOptions o;
    o.ruleset = r;
    REQUIRE_FALSE(o.set("RaysOfDeath", "true"));
    if (arrange) REQUIRE_FALSE(o.set("Setup", "arrange"));
    return Rules(o);
}

// The slow counter's legality, from docs/rules.md alone: simple paths by depth-first search
// over adjacent empty cells, attacks on adjacent enemies under the ruleset's restrictions
// and the combat cell, unused creatures first. Only for rules without CentreStraight.
void pathEnds(Cell at, int steps, std::uint32_t visited, const Position& pos,
              std::vector<Cell>& ends) {
    if (steps == 0) {
        if (std::find(ends.begin(), ends.end(), at) == ends.end()) ends.push_back(at);
        return;
    }
    for (int i = 0; i < Cell::kCount; ++i) {
        const Cell next(i);
        if (!board::adjacent(at).has(next) || (visited >> i & 1u) || !pos.at(next).isNone())
            continue;
        pathEnds(next, steps - 1, visited | 1u << i, pos, ends);
    }
}

std::vector<Event> actionsOf(const Position& pos, Cell from) {
    const Rules& rules = pos.rules();
    std::vector<Event> out;
    std::vector<Cell> ends;
    pathEnds(from, rules.ratings(pos.at(from).creature()).movement, 1u << from.index(), pos, ends);
    for (const Cell to : ends)
        out.push_back(Event::move(from, to));
    for (int i = 0; i < Cell::kCount; ++i) {
        const Cell to(i);
        const Piece target = pos.at(to);
        if (!board::adjacent(from).has(to) || target.isNone() || target.owner() == pos.sideToMove())
            continue;
        if (rules.safeOuterOrbit() && (from.isOuter() || to.isOuter())) continue;
        if (rules.kingOfTheCentre() && !from.isCentre() && !to.isCentre()) continue;
        const int combat = pos.combatCell();
        if (combat != rays::kNoCombat && from.index() != combat && to.index() != combat) continue;
        out.push_back(Event::attack(from, to));
    }
    return out;
}

std::vector<Event> slowEvents(const Position& pos) {
    if (pos.isOver()) return {};
    std::vector<Event> out;
    if (pos.phase() == Phase::Roll) {
        for (int d4 = 1; d4 <= 4; ++d4)
            for (int d12 = 1; d12 <= 12; ++d12) {
                const Event e = Event::roll(rays::rollCell(d4, d12));
                if (std::find(out.begin(), out.end(), e) == out.end()) out.push_back(e);
            }
        return out;
    }
    if (pos.phase() != Phase::Decision) {
        // Outcomes and placements are not Rays of Death's: the random games check them.
        EventList list;
        pos.generate(list);
        return {list.begin(), list.end()};
    }
    std::vector<Cell> fresh, all;
    for (int i = 0; i < Cell::kCount; ++i) {
        const Cell c(i);
        if (pos.at(c).isNone() || pos.at(c).owner() != pos.sideToMove()) continue;
        all.push_back(c);
        if (!pos.used().has(c)) fresh.push_back(c);
    }
    for (const Cell c : fresh) {
        const auto a = actionsOf(pos, c);
        out.insert(out.end(), a.begin(), a.end());
    }
    if (out.empty())  // no unused creature can act: any may (docs/rules.md "Blocked")
        for (const Cell c : all) {
            const auto a = actionsOf(pos, c);
            out.insert(out.end(), a.begin(), a.end());
        }
    if (out.empty()) out.push_back(Event::pass());
    return out;
}

std::vector<std::uint16_t> codes(std::vector<Event> events) {
    std::vector<std::uint16_t> c;
    for (const Event e : events)
        c.push_back(e.code());
    std::sort(c.begin(), c.end());
    return c;
}

// Counts like perft, comparing the slow event set with generate()'s at every node.
std::uint64_t slowPerft(const Position& pos, int depth) {
    if (depth == 0) return 1;
    const std::vector<Event> events = slowEvents(pos);
    EventList list;
    pos.generate(list);
    if (codes(events) != codes({list.begin(), list.end()})) {
        FAIL_CHECK("event sets differ at " << pos.dfen());
        return 0;
    }
    std::uint64_t n = 0;
    for (const Event e : events) {
        Position child = pos;
        child.apply(e);
        n += slowPerft(child, depth - 1);
    }
    return n;
}

}  // namespace

TEST_SUITE("rays of death") {
    TEST_CASE("the roll: a D4 and a D12, centre 1/2, every other cell 1/48") {
        static_assert(rays::rollCountsSumToPairs());
        int pairs = 0;
        for (int i = 0; i < Cell::kCount; ++i)
            pairs += rays::rollCount(Cell(i));
        CHECK(pairs == rays::kRollPairs);
        CHECK(rays::rollProbability(Cell::centre()) == 0.5);
        CHECK(rays::rollProbability(Cell::inner(7)) == 1.0 / 48);
        CHECK(rays::rollCell(1, 5) == Cell::centre());
        CHECK(rays::rollCell(4, 12) == Cell::centre());
        CHECK(rays::rollCell(2, 7) == Cell::inner(7));
        CHECK(rays::rollCell(3, 12) == Cell::outer(12));

        const Rules rules = raysRules(Ruleset::Kelly);
        const Position due = at(std::string(kMelee) + " rays:?/-/-", rules);
        CHECK(due.phase() == Phase::Roll);
        CHECK(due.chanceDue());
        EventList list;
        due.generate(list);
        CHECK(list.size() == rays::kRollOutcomes);
        CHECK(due.countEvents() == rays::kRollOutcomes);
        double sum = 0;
        for (const Event e : list)
            sum += due.probability(e);
        CHECK(sum == doctest::Approx(1.0).epsilon(1e-15));
    }

    TEST_CASE("roll tokens: ray:<cell>, any case; codes round-trip") {
        for (int i = 0; i < Cell::kCount; ++i) {
            const Event e = Event::roll(Cell(i));
            CHECK(Event::fromCode(e.code()) == e);
            CHECK(Event::parse(e.token()) == e);
            CHECK(e.code() != Event::outcome(Outcome::Kill).code());
        }
        CHECK(Event::roll(Cell::inner(7)).token() == "ray:b7");
        CHECK(Event::roll(Cell::centre()).token() == "ray:a");
        CHECK(Event::parse("RAY:C12") == Event::roll(Cell::outer(12)));
        CHECK_FALSE(Event::parse("ray:d1"));
        CHECK_FALSE(Event::parse("ray:"));
        // Only while a roll is due.
        const Rules rules = raysRules(Ruleset::Kelly);
        CHECK_FALSE(at(kMelee, rules).parseEvent("ray:a"));
        CHECK(at(std::string(kMelee) + " rays:?/-/-", rules).parseEvent("ray:a"));
    }

    TEST_CASE("the option: off by default, kept across Ruleset, no effect under courtier") {
        RuleOptions o;
        CHECK_FALSE(Rules(o).raysOfDeath());
        const std::uint64_t plain = Rules(o).gameFingerprint();
        REQUIRE_FALSE(o.set("raysofdeath", "TRUE"));
        CHECK(Rules(o).raysOfDeath());
        CHECK(Rules(o).gameFingerprint() != plain);
        CHECK(Rules(o).describe().find(" RaysOfDeath=true") != std::string::npos);
        REQUIRE_FALSE(o.set("Ruleset", "dalsian"));
        CHECK(Rules(o).raysOfDeath());
        REQUIRE_FALSE(o.set("Ruleset", "courtier"));
        CHECK(o.raysOfDeath);
        CHECK_FALSE(Rules(o).raysOfDeath());
        REQUIRE_FALSE(o.set("Ruleset", "kelly"));
        CHECK(Rules(o).raysOfDeath());
        REQUIRE_FALSE(o.set("RaysOfDeath", "false"));
        CHECK(Rules(o).gameFingerprint() == plain);
        CHECK(o.set("RaysOfDeath", "maybe"));
        // The start position is the ruleset's: no roll before the first round.
        const Rules rays = raysRules(Ruleset::Kelly);
        CHECK(Position::startpos(rays).dfen() == "./............/.GHSN..mltk. 1 2 0 1");
    }

    TEST_CASE("a round: each creature once, then the roll after both players' cycles") {
        const Rules rules = raysRules(Ruleset::Kelly);
        Position pos = Position::startpos(rules);
        for (int action = 0; action < 8; ++action) {
            REQUIRE(pos.phase() == Phase::Decision);
            EventList list;
            pos.generate(list);
            for (const Event e : list)
                CHECK_FALSE(pos.used().has(e.from()));  // a used creature waits its turn
            pos.apply(list[0]);
            // The mark follows the creature, until its player's fourth creature (actions 5 and
            // 7, player 1 acting in 0, 1, 4, 5) ends the cycle.
            if (action != 5 && action != 7) CHECK(pos.used().has(list[0].to()));
        }
        CHECK(pos.phase() == Phase::Roll);
        CHECK(pos.used().empty());
        CHECK(pos.dfen().ends_with(" 1 2 8 5 rays:?/-/-"));
        pos.apply(*pos.parseEvent("ray:b7"));
        CHECK(pos.phase() == Phase::Decision);
        CHECK(pos.combatCell() == Cell::inner(7).index());
        CHECK(pos.dfen().ends_with(" 1 2 8 5 rays:b7/-/-"));
        CHECK(pos.quiet() == 8u);
    }

    TEST_CASE("blocked: no unused creature can act, so the cycle ends and a used one acts") {
        const Rules rules = raysRules(Ruleset::Kelly);
        // N on c1 is boxed in and the combat cell a allows it no attack; S on b6 is used.
        const Position pos = at("./l....S....../Nk.........t 1 2 0 1 rays:a/b6/-", rules);
        EventList list;
        pos.generate(list);
        REQUIRE_FALSE(list.empty());
        for (const Event e : list)
            CHECK(e.from() == Cell::inner(6));
        Position child = pos;
        child.apply(list[0]);
        CHECK(child.cycled() == 1);
        CHECK(child.used() == Bitboard::of(list[0].to()));
    }

    TEST_CASE("a dead creature leaves the cycle; the kill can end the round mid-turn") {
        const Rules rules = raysRules(Ruleset::Kelly);
        // Player 2's unused k dies: l and t are used, so its cycle ends; player 1 is done.
        Position pos = at("./l....S....../Nk.........t 1 2 0 1 rays:-/b1c12/1", rules);
        pos.apply(*pos.parseEvent("c1xc2"));
        const auto kill = pos.parseEvent("kill");
        REQUIRE(kill);
        pos.apply(*kill);
        CHECK(pos.phase() == Phase::Roll);
        CHECK(pos.actionsLeft() == 1);
        // Player 1's cycle goes on into the next round: N stays used.
        CHECK(pos.used() == Bitboard::of(Cell::outer(1)));
        CHECK(pos.dfen() == "./l....S....../N..........t 1 1 0 1 rays:?/c1/-");
    }

    TEST_CASE("attacks only into or out of the combat cell; moves are free") {
        const Rules plain = Rules::preset(Ruleset::Kelly);
        const Rules rules = raysRules(Ruleset::Kelly);
        const Position before = at(kMelee, rules), free = at(kMelee, plain);
        const Position onA = at(std::string(kMelee) + " rays:a/-/-", rules);
        EventList a, b, c;
        before.generate(a);
        free.generate(b);
        onA.generate(c);
        CHECK(codes({a.begin(), a.end()}) == codes({b.begin(), b.end()}));  // no roll yet
        int attacks = 0, moves = 0;
        for (const Event e : c) {
            if (e.kind() == EventKind::Attack) {
                ++attacks;
                CHECK((e.from().isCentre() || e.to().isCentre()));
            }
            if (e.kind() == EventKind::Move) ++moves;
        }
        int freeMoves = 0;
        for (const Event e : b)
            if (e.kind() == EventKind::Move) ++freeMoves;
        CHECK(attacks > 0);
        CHECK(moves == freeMoves);
    }

    TEST_CASE("perft numbers, checked by the slow counter") {
        struct Case {
            Ruleset ruleset;
            std::string dfen;
            std::vector<std::uint64_t> counts;  // depth 1, 2, ...
            int slowDepth;
        };
        const std::vector<Case> cases = {
            {Ruleset::Kelly, "startpos", {10, 71, 1688, 25218, 111400}, 4},
            {Ruleset::Dalsian, "startpos", {10, 71, 1675, 24845, 103880}, 4},
            {Ruleset::Kelly, std::string(kMelee) + " rays:?/-/-", {25, 468, 3798, 98059}, 3},
            {Ruleset::Kelly, std::string(kMelee) + " rays:a/b1/-", {21, 149, 3819, 76221}, 3},
            {Ruleset::Kelly, std::string(kMelee) + " rays:b2/ac1/2", {6, 22, 151, 1251}, 4},
            {Ruleset::Kelly, std::string(kMelee) + " rays:c12/-/1", {18, 140, 3804, 75589}, 3},
        };
        for (const Case& k : cases) {
            const Rules rules = raysRules(k.ruleset);
            const Position pos =
                k.dfen == "startpos" ? Position::startpos(rules) : at(k.dfen, rules);
            CAPTURE(k.dfen);
            for (std::size_t d = 0; d < k.counts.size(); ++d) {
                CAPTURE(d + 1);
                CHECK(perft(pos, static_cast<int>(d) + 1) == k.counts[d]);
                if (static_cast<int>(d) < k.slowDepth)
                    CHECK(slowPerft(pos, static_cast<int>(d) + 1) == k.counts[d]);
            }
            Position copy = pos;
            CHECK(perftUnmake(copy, 3) == k.counts[2]);
        }
    }

    TEST_CASE("DFEN: the rays: field round-trips; absent means none") {
        const Rules rules = raysRules(Ruleset::Kelly);
        for (const char* field :
             {"rays:?/-/-", "rays:a/b1/-", "rays:b2/ac1/2", "rays:c12/-/1", "rays:-/b1b7/2"}) {
            const std::string dfen = std::string(kMelee) + ' ' + field;
            CHECK(at(dfen, rules).dfen() == dfen);
        }
        CHECK(at(std::string(kMelee) + " rays:-/-/-", rules).dfen() == kMelee);
        CHECK(at(std::string(kMelee) + " 0/0 rays:a/-/-", rules).dfen() ==
              std::string(kMelee) + " rays:a/-/-");
        CHECK(at(kMelee, rules).key() == at(std::string(kMelee) + " rays:-/-/-", rules).key());
        CHECK(at(kMelee, rules).key() != at(std::string(kMelee) + " rays:a/-/-", rules).key());
        CHECK(at(kMelee, rules).key() != at(std::string(kMelee) + " rays:-/a/-", rules).key());
        CHECK(at(kMelee, rules).key() != at(std::string(kMelee) + " rays:-/-/1", rules).key());
    }

    TEST_CASE("DFEN: every invalid rays: field, with its message") {
        const Rules rules = raysRules(Ruleset::Kelly);
        const std::string m = kMelee;
        const std::pair<std::string, std::string> cases[] = {
            {m + " rays:a/-", "DFEN rays: expected rays:<combat>/<marked>/<done>, got 'rays:a/-'"},
            {m + " rays:a/-/-/-",
             "DFEN rays: expected rays:<combat>/<marked>/<done>, got 'rays:a/-/-/-'"},
            {m + " rays:d4/-/-", "DFEN rays: combat cell 'd4' is not '-', '?' or a cell"},
            {m + " rays:/-/-", "DFEN rays: combat cell '' is not '-', '?' or a cell"},
            {m + " rays:a/b13/-", "DFEN rays: 'b13' in the marked cells is not a cell"},
            {m + " rays:a/x/-", "DFEN rays: 'x' in the marked cells is not a cell"},
            {m + " rays:a/aa/-", "DFEN rays: cell a is marked twice"},
            {m + " rays:a/b3/-", "DFEN rays: marked cell b3 has no creature"},
            {"./l....S....../Nk.........t 1 2 0 1 rays:a/b1c2c12/-",
             "DFEN rays: every creature of player 2 is marked (its cycle would have ended)"},
            {m + " rays:a/-/3", "DFEN rays: done must be '-', '1' or '2', got '3'"},
            {m + " rays:a/-/12", "DFEN rays: done must be '-', '1' or '2', got '12'"},
            {m + " rays:?/-/1", "DFEN rays: a roll is due ('?'), so no player can be done"},
            {m + " 0/0 x rays:-/-/-",
             "DFEN: expected 5 or 6 fields (cells side actions quiet turn [holds]) and an "
             "optional rays: field, got 8"},
        };
        for (const auto& c : cases) {
            CAPTURE(c.first);
            CHECK(dfenError(c.first, rules) == c.second);
        }
        CHECK(dfenError(m + " rays:-/-/-", Rules::preset(Ruleset::Kelly)) ==
              "DFEN rays: the rays: field needs RaysOfDeath=true");
        CHECK(dfenError("./............/............/SGHNmtkl 1 2 0 1 rays:-/-/-",
                        raysRules(Ruleset::Kelly, true)) ==
              "DFEN rays: no rays: field while a set-up is pending");
    }
}
