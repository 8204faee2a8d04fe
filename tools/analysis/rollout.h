// Rollouts: a position settled by Monte Carlo playouts with the engine as both players, as
// GNU Backgammon settles hard positions.
//
// Every candidate decision is played out over the same games, and game g of every candidate
// rolls the same dice: the arena's duplicate dice (tools/arena/luck.h), keyed by the seed
// and g, the k-th attack of each player decided by the same uniform number. The luck of
// each playout (the arena's material luck of the attacks and the showdown's luck) has
// expectation zero, so it serves as a control variate: the luck-adjusted mean has the same
// expectation with less variance (tools/arena/stats.h, luckAdjusted). Playouts are
// independent of each other and of the order they run in, so the numbers depend on the seed
// alone, not on the number of threads (with a depth limit: a time limit is not repeatable).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "position_search.h"

namespace dejarik::analysis {

struct RolloutConfig {
    SearchSettings search;  // the engine's searches; one search thread per playout
    int games = 100;        // playouts per candidate
    std::uint64_t seed = 1;
    // A playout is valued by the engine's search of the position (its evaluator at the
    // rollout's depth, or the endgame tables) after this many actions (0: never), or when it
    // is still going after maxTurns turns: a truncated playout.
    int truncate = 0;
    int maxTurns = 400;
    int threads = 1;  // playouts at once
};

// A root decision to roll out, or none: the engine decides at the root too.
struct Candidate {
    std::string name;
    std::optional<Event> decision;
};

enum class PlayoutEnd : std::uint8_t { Win, Draw, Loss, Truncated };

// One playout, in the view of the player who decides at the root (the attacker when the
// root's outcome is due).
struct Playout {
    double result = 0;        // +1, 0, -1, or the search's value when truncated
    double attackLuck = 0;    // material points
    double showdownLuck = 0;  // result points
    PlayoutEnd end = PlayoutEnd::Draw;
    int actions = 0;
};

struct Estimate {
    double mean = 0;
    double stdError = 0;
    double low = 0;  // the 95% interval
    double high = 0;
};

struct CandidateResult {
    Candidate candidate;
    std::vector<Playout> playouts;  // by game
    Estimate plain;
    Estimate adjusted;          // luck-adjusted
    double varianceRatio = 1;   // adjusted variance / plain variance
    std::array<int, 4> ends{};  // by PlayoutEnd
};

struct RolloutResult {
    Player view = Player::One;
    std::vector<CandidateResult> candidates;  // in the given order
    std::uint64_t playouts = 0;
    std::uint64_t decisions = 0;  // searched by the engine
    std::int64_t timeMs = 0;
};

// Called from the worker threads, one at a time, after each playout.
using RolloutProgress = std::function<void(std::uint64_t done, std::uint64_t total)>;

// Rolls out each candidate (legal decisions of `root`, or one without a decision) over
// config.games games. `root` is a position of a game not over.
[[nodiscard]] RolloutResult rollout(const Position& root, const std::vector<Candidate>& candidates,
                                    const RolloutConfig& config,
                                    const RolloutProgress& progress = {});

// The statistics of a candidate's playouts (filled into `result` from its playouts).
void summarise(CandidateResult& result);

// a's mean result minus b's, luck-adjusted, from the differences game by game: game g of
// both rolls the same dice, which narrows the difference's interval the longer the two
// games stay alike (both must have the same number of playouts).
[[nodiscard]] Estimate difference(const CandidateResult& a, const CandidateResult& b);

}  // namespace dejarik::analysis
