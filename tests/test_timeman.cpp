// Time management: the budget a search gets from the limits of `go`, and whether it starts
// another iteration. Pure functions, checked without searching.
#include <doctest/doctest.h>

#include "spec_positions.h"
#include "timeman.h"

using namespace dejarik;
using namespace dejarik::search;

namespace {

Limits clocks(std::int64_t time1, std::int64_t time2, std::int64_t inc1 = 0,
              std::int64_t inc2 = 0) {
    Limits l;
    l.timeMs = {time1, time2};
    l.incMs = {inc1, inc2};
    return l;
}

}  // namespace

TEST_CASE("movetime is used up to 5 ms less, with no soft limit") {
    Limits l;
    l.movetimeMs = 1000;
    const TimePlan plan = planTime(l, Player::One);
    CHECK(plan.hardMs == 995);
    CHECK(plan.softMs == 0);
    CHECK(plan.timed);
    CHECK_FALSE(plan.untilStopped);

    l.movetimeMs = 3;  // never a deadline at or before the start
    CHECK(planTime(l, Player::One).hardMs == 1);

    // movetime decides even when clocks are given too.
    Limits both = clocks(30000, 30000);
    both.movetimeMs = 500;
    CHECK(planTime(both, Player::One).hardMs == 495);
    CHECK(planTime(both, Player::One).softMs == 0);
}

TEST_CASE("a clock: a thirtieth of the time left plus 3/4 of the increment") {
    SUBCASE("no increment") {
        // optimum 1000: soft 60% of it, hard three times it less 10 ms.
        const TimePlan plan = planTime(clocks(30000, 30000), Player::One);
        CHECK(plan.softMs == 600);
        CHECK(plan.hardMs == 2990);
        CHECK(plan.timed);
    }
    SUBCASE("with an increment") {
        // optimum 1000 + 1500.
        const TimePlan plan = planTime(clocks(30000, 30000, 2000, 2000), Player::One);
        CHECK(plan.softMs == 1500);
        CHECK(plan.hardMs == 7490);
    }
    SUBCASE("the optimum is at most a fifth of the time left, the hard limit a third") {
        // 333 + 7500 is capped to 2000; 3 * 2000 is capped to 3333.
        const TimePlan plan = planTime(clocks(10000, 10000, 10000, 10000), Player::One);
        CHECK(plan.softMs == 1200);
        CHECK(plan.hardMs == 3323);
    }
    SUBCASE("the decider's clock, not the side's who moved first") {
        const TimePlan two = planTime(clocks(30000, 3000, 0, 0), Player::Two);
        CHECK(two.softMs == 60);
        CHECK(two.hardMs == 290);
        const TimePlan one = planTime(clocks(3000, 30000, 0, 0), Player::One);
        CHECK(one.hardMs == two.hardMs);
    }
    SUBCASE("an empty clock still gets a deadline after the start") {
        const TimePlan plan = planTime(clocks(0, 0), Player::One);
        CHECK(plan.hardMs == 1);
        CHECK(plan.softMs == 1);
    }
    SUBCASE("only the other player's clock: the decider's counts as empty") {
        // Without it the search had no limit but the depth cap: `go time1 100` with player
        // 2 to decide never answered.
        for (const auto& [l, decider] :
             {std::pair{clocks(-1, 5000), Player::One}, std::pair{clocks(100, -1), Player::Two}}) {
            const TimePlan plan = planTime(l, decider);
            CHECK(plan.hardMs == 1);
            CHECK(plan.softMs == 1);
            CHECK(plan.timed);
            CHECK_FALSE(plan.untilStopped);
        }
    }
}

TEST_CASE("infinite overrides every limit; no limit at all means until stopped") {
    Limits l = clocks(30000, 30000);
    l.movetimeMs = 100;
    l.nodes = 5000;
    l.infinite = true;
    const TimePlan infinite = planTime(l, Player::One);
    CHECK(infinite.untilStopped);
    CHECK(infinite.hardMs == 0);
    CHECK(infinite.softMs == 0);
    CHECK(infinite.maxNodes == 0);

    CHECK(planTime(Limits{}, Player::One).untilStopped);

    Limits depth;
    depth.depth = 6;
    const TimePlan fixed = planTime(depth, Player::Two);
    CHECK_FALSE(fixed.untilStopped);
    CHECK_FALSE(fixed.timed);

    Limits nodes;
    nodes.nodes = 5000;
    CHECK(planTime(nodes, Player::One).maxNodes == 5000);
    CHECK_FALSE(planTime(nodes, Player::One).untilStopped);
}

Progress after(std::int64_t elapsedMs, int decisions, bool solved = false) {
    Progress p;
    p.elapsedMs = elapsedMs;
    p.decisions = decisions;
    p.solved = solved;
    return p;
}

TEST_CASE("another iteration: solved, a lone decision, the soft limit") {
    const TimePlan clock = planTime(clocks(30000, 30000), Player::One);  // soft 600
    // A move: 0.85 of the soft limit, 510 ms.
    CHECK(anotherIteration(clock, after(509, 5)));
    CHECK_FALSE(anotherIteration(clock, after(510, 5)));
    CHECK_FALSE(anotherIteration(clock, after(10, 5, true)));  // proven values do not change
    CHECK_FALSE(anotherIteration(clock, after(10, 1)));        // a lone decision needs no thought

    Limits movetime;
    movetime.movetimeMs = 1000;  // no soft limit: the deadline ends the search
    const TimePlan fixedTime = planTime(movetime, Player::One);
    CHECK(anotherIteration(fixedTime, after(5000, 5)));
    CHECK_FALSE(anotherIteration(fixedTime, after(10, 1)));

    Limits depth;
    depth.depth = 8;  // untimed: a lone decision is still searched to the depth asked
    const TimePlan fixedDepth = planTime(depth, Player::One);
    CHECK(anotherIteration(fixedDepth, after(100000, 1)));
    CHECK_FALSE(anotherIteration(fixedDepth, after(10, 3, true)));

    Limits none;
    const TimePlan untilStopped = planTime(none, Player::One);
    CHECK(anotherIteration(untilStopped, after(100000, 1, true)));
}

TEST_CASE("a critical or unsettled decision gets more of the clock") {
    const TimePlan clock = planTime(clocks(30000, 30000), Player::One);  // soft 600
    Progress critical = after(1199, 5);
    critical.critical = true;  // twice the soft limit: 1200 ms
    CHECK(anotherIteration(clock, critical));
    critical.elapsedMs = 1200;
    CHECK_FALSE(anotherIteration(clock, critical));

    // The best decision changed in the last iteration and the one before: 1.5 more.
    const double instability = nextInstability(nextInstability(0, true), true);
    CHECK(instability == doctest::Approx(1.5));
    CHECK(nextInstability(instability, false) == doctest::Approx(0.75));
    Progress unsettled = after(1274, 5);  // 600 x 0.85 x 2.5 = 1275
    unsettled.instability = instability;
    CHECK(anotherIteration(clock, unsettled));
    unsettled.elapsedMs = 1275;
    CHECK_FALSE(anotherIteration(clock, unsettled));

    Limits movetime;
    movetime.movetimeMs = 1000;  // a fixed time is the deadline, whatever the decision
    CHECK(anotherIteration(planTime(movetime, Player::One), critical));
}

TEST_CASE("critical decisions: attacks, placements, set-ups") {
    const Rules rules;
    const Position melee = *Position::fromDfen(test::kMelee, rules);
    CHECK(melee.phase() == Phase::Decision);
    CHECK(criticalDecision(melee, Event::attack(Cell::centre(), *Cell::parse("b2"))));
    CHECK_FALSE(criticalDecision(melee, Event::move(*Cell::parse("b2"), *Cell::parse("b3"))));
    CHECK_FALSE(criticalDecision(melee, Event::pass()));

    const Position push = *playTokens(melee, "axb2 push");
    REQUIRE(push.phase() == Phase::Placement);
    CHECK(criticalDecision(push, Event::place(*Cell::parse("b2"), *Cell::parse("b3"))));

    RuleOptions o;
    REQUIRE_FALSE(o.set("Setup", "arrange"));
    const Rules arrange(o);
    const Position setup = Position::startpos(arrange);
    REQUIRE(setup.phase() == Phase::Setup);
    CHECK(criticalDecision(setup, Event::setup(0)));
}
