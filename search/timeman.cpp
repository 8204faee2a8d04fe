#include "timeman.h"

#include <algorithm>

namespace dejarik::search {

namespace {

constexpr std::int64_t kMovetimeMarginMs = 5;  // answer this much before movetime runs out
constexpr std::int64_t kClockMarginMs = 10;    // the same for the hard limit on a clock

}  // namespace

TimePlan planTime(const Limits& limits, Player decider) {
    TimePlan plan;
    plan.untilStopped = limits.infinite || limits.unlimited();
    if (limits.infinite) return plan;
    plan.maxNodes = limits.nodes;
    if (limits.movetimeMs > 0) {
        plan.hardMs = std::max<std::int64_t>(1, limits.movetimeMs - kMovetimeMarginMs);
    } else if (const std::int64_t left = limits.timeMs[index(decider)]; left >= 0) {
        const std::int64_t inc = limits.incMs[index(decider)];
        const std::int64_t optimum = std::min(left / 30 + inc * 3 / 4, left / 5);
        plan.hardMs = std::max<std::int64_t>(1, std::min(optimum * 3, left / 3) - kClockMarginMs);
        plan.softMs = std::max<std::int64_t>(1, optimum * 6 / 10);
    }
    plan.timed = plan.hardMs > 0;
    return plan;
}

bool anotherIteration(const TimePlan& plan, std::int64_t elapsedMs, bool solved, int decisions) {
    if (plan.untilStopped) return true;
    if (solved || (plan.timed && decisions == 1)) return false;
    return plan.softMs == 0 || elapsedMs < plan.softMs;
}

}  // namespace dejarik::search
