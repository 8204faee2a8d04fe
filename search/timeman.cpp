#include "timeman.h"

#include <algorithm>

namespace dejarik::search {

namespace {

constexpr std::int64_t kMovetimeMarginMs = 5;  // answer this much before movetime runs out
constexpr std::int64_t kClockMarginMs = 10;    // the same for the hard limit on a clock
constexpr double kCriticalScale = 2.0;         // the soft limit of a critical decision
constexpr double kQuietScale = 0.85;           // and of a move

}  // namespace

TimePlan planTime(const Limits& limits, Player decider) {
    TimePlan plan;
    plan.untilStopped = limits.infinite || limits.unlimited();
    if (limits.infinite) return plan;
    plan.maxNodes = limits.nodes;
    if (limits.movetimeMs > 0) {
        plan.hardMs = std::max<std::int64_t>(1, limits.movetimeMs - kMovetimeMarginMs);
    } else if (limits.timeMs[0] >= 0 || limits.timeMs[1] >= 0) {
        // A game on the clock in which the decider's clock was not given (a GUI's slip)
        // counts it as empty: the shortest think, not a search that runs to the depth cap,
        // which no player waits for.
        const std::int64_t left = std::max<std::int64_t>(0, limits.timeMs[index(decider)]);
        const std::int64_t inc = limits.incMs[index(decider)];
        const std::int64_t optimum = std::min(left / 30 + inc * 3 / 4, left / 5);
        plan.hardMs = std::max<std::int64_t>(1, std::min(optimum * 3, left / 3) - kClockMarginMs);
        plan.softMs = std::max<std::int64_t>(1, optimum * 6 / 10);
    }
    plan.timed = plan.hardMs > 0;
    return plan;
}

bool criticalDecision(const Position& root, Event best) {
    if (root.phase() != Phase::Decision)
        return root.phase() == Phase::Placement || root.phase() == Phase::Setup;
    return best.kind() == EventKind::Attack || best.kind() == EventKind::CaptureMove;
}

double nextInstability(double instability, bool bestChanged) {
    return instability / 2 + (bestChanged ? 1.0 : 0.0);
}

bool anotherIteration(const TimePlan& plan, const Progress& progress) {
    if (plan.untilStopped) return true;
    if (progress.solved || (plan.timed && progress.decisions == 1)) return false;
    if (plan.softMs == 0) return true;
    const double scale =
        (progress.critical ? kCriticalScale : kQuietScale) * (1 + progress.instability);
    return static_cast<double>(progress.elapsedMs) < static_cast<double>(plan.softMs) * scale;
}

}  // namespace dejarik::search
