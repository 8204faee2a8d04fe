// Time management: how long one search may think, from the limits of `go`, and whether it
// starts another iteration. Pure functions of the limits and the time elapsed, so that the
// allocation is tested without searching; the search polls the deadline and the node budget
// while it runs and asks between iterations.
#pragma once

#include <cstdint>

#include "position.h"
#include "search.h"

namespace dejarik::search {

// What the limits of one search allow. Times are milliseconds since the search started.
struct TimePlan {
    std::int64_t hardMs = 0;     // the search is stopped here; 0: no deadline
    std::int64_t softMs = 0;     // no iteration is started after this; 0: none
    std::uint64_t maxNodes = 0;  // the search is stopped at this many nodes; 0: none
    bool timed = false;          // a movetime or the decider's clock governs the search
    bool untilStopped = false;   // `go infinite`, or no limit at all: only stop() ends it
};

// `movetime` is used up to 5 ms less. With the decider's clock, the optimum is a thirtieth
// of the time left plus three quarters of the increment (at most a fifth of the time left);
// no iteration starts after 60% of it, and the search is stopped at three times it (at most
// a third of the time left), less 10 ms; a decider without a clock in a game with one (only
// the other player's given) has an empty clock. `infinite` overrides every limit but the
// depth.
[[nodiscard]] TimePlan planTime(const Limits& limits, Player decider);

// What the iterations so far say about the decision being searched.
struct Progress {
    std::int64_t elapsedMs = 0;  // since the search started, at the end of the last iteration
    bool solved = false;         // every root decision is proven
    int decisions = 0;           // legal decisions at the root
    bool critical = false;       // criticalDecision() of the root and its best decision so far
    double instability = 0;      // changes of the best decision, halved at every iteration
};

// An attack, the placement of a pushed piece and a set-up are choices the dice or the board
// make final; a move can be taken back next turn. The best decision found so far is what
// the search is about to play.
[[nodiscard]] bool criticalDecision(const Position& root, Event best);

// The instability after an iteration: the last one halved, plus one if the best decision
// changed (after the first iteration, which has nothing to change from).
[[nodiscard]] double nextInstability(double instability, bool bestChanged);

// After an iteration: whether to start the next one. A search that runs until stopped
// always goes on; otherwise it ends once every root decision is proven (proven values do not
// change with depth), when a clock or movetime governs it and there is only one decision to
// make, or past the soft limit. On a clock the soft limit is stretched for a critical
// decision (x2) and shrunk for a move (x0.85), so that a game spends about as much of the
// clock as with a flat limit (kelly self-play: 5% more a decision), and is stretched
// further by (1 + instability).
[[nodiscard]] bool anotherIteration(const TimePlan& plan, const Progress& progress);

}  // namespace dejarik::search
