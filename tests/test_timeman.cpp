// Time management: the budget a search gets from the limits of `go`, and whether it starts
// another iteration. Pure functions, checked without searching.
#include <doctest/doctest.h>

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
    SUBCASE("only the other player's clock: no time limit, but not until stopped") {
        const TimePlan plan = planTime(clocks(-1, 5000), Player::One);
        CHECK(plan.hardMs == 0);
        CHECK(plan.softMs == 0);
        CHECK_FALSE(plan.timed);
        CHECK_FALSE(plan.untilStopped);
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

TEST_CASE("another iteration: solved, a lone decision, the soft limit") {
    const TimePlan clock = planTime(clocks(30000, 30000), Player::One);  // soft 600
    CHECK(anotherIteration(clock, 599, false, 5));
    CHECK_FALSE(anotherIteration(clock, 600, false, 5));
    CHECK_FALSE(anotherIteration(clock, 10, true, 5));   // proven values do not change
    CHECK_FALSE(anotherIteration(clock, 10, false, 1));  // a lone decision needs no thought

    Limits movetime;
    movetime.movetimeMs = 1000;  // no soft limit: the deadline ends the search
    const TimePlan fixedTime = planTime(movetime, Player::One);
    CHECK(anotherIteration(fixedTime, 5000, false, 5));
    CHECK_FALSE(anotherIteration(fixedTime, 10, false, 1));

    Limits depth;
    depth.depth = 8;  // untimed: a lone decision is still searched to the depth asked
    const TimePlan fixedDepth = planTime(depth, Player::One);
    CHECK(anotherIteration(fixedDepth, 100000, false, 1));
    CHECK_FALSE(anotherIteration(fixedDepth, 10, true, 3));

    Limits none;
    const TimePlan untilStopped = planTime(none, Player::One);
    CHECK(anotherIteration(untilStopped, 100000, true, 1));
}
