// The exact solution of a deterministic two-player game with exits, where play that never
// exits is worth 0: the attack-free game of one material set (docs/tables.md, "Solver").
//
// Each node belongs to the maximiser or the minimiser (values are from one fixed player's
// view, so two nodes of one player in a row need no negation). A node's options are its
// successors and at most one exit of fixed value (the best of its exits for its owner: the
// others can never matter). Plain value iteration cannot tell a node that stalls forever
// from one that waits for a good exit; the attractor construction can:
//
// - positive values, in decreasing order: an exit event (v, n) or the settling of a
//   successor at v offers v to a node; a maximiser's node settles at the first value
//   offered (the largest it can force), a minimiser's when the last of its options is
//   offered (all of them are then positive, the last the smallest);
// - negative values the same way with the roles exchanged, in increasing order;
// - every node settled in neither pass can be held to 0 by one player and kept from
//   anything below 0 by the other: its value is 0 (play goes on forever, or exits at 0).
//
// With the values come distances: the number of moves before an exit that the player the
// value serves (the winner: the maximiser for a positive value) can force without the
// other player's help. The loser never takes an exit of its own while it can move (under
// the game's quiet draw it waits for the draw instead), so its node is settled when every
// successor is, from the farthest; the winner's node from its nearest successor, or its own
// exit, worth its value within kForcedTolerance (an exit a hair worse still realises the
// value). A node of value 0 needs no exit: distance 0; a winner who cannot force an exit
// at all gets kUnforced. (Distances along the value-optimal line alone, the loser included,
// let the loser's own attack set the distance: in kelly 2v1 the winner shuffled until the
// quiet draw, waiting for an attack the loser never made.)
//
// Each pass touches each edge once: O(nodes + edges + exits log exits).
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace dejarik::tables {

// A game graph in compressed rows: successors and, transposed, predecessors. Successor
// lists must not repeat a node (a repeated edge would count twice for the minimiser).
class GameGraph {
  public:
    // successors[n] lists n's successors; maximiser[n] says who owns n.
    GameGraph(const std::vector<std::vector<std::uint32_t>>& successors,
              std::vector<std::uint8_t> maximiser);
    // The same from compressed rows already built (start has nodes + 1 entries).
    GameGraph(std::vector<std::uint32_t> start, std::vector<std::uint32_t> targets,
              std::vector<std::uint8_t> maximiser);

    [[nodiscard]] std::uint32_t nodes() const {
        return static_cast<std::uint32_t>(maximiser_.size());
    }
    [[nodiscard]] bool maximiser(std::uint32_t n) const { return maximiser_[n] != 0; }
    [[nodiscard]] std::span<const std::uint32_t> successors(std::uint32_t n) const {
        return {succ_.data() + succStart_[n], succStart_[n + 1] - succStart_[n]};
    }
    [[nodiscard]] std::span<const std::uint32_t> predecessors(std::uint32_t n) const {
        return {pred_.data() + predStart_[n], predStart_[n + 1] - predStart_[n]};
    }
    [[nodiscard]] std::uint64_t edges() const { return succ_.size(); }

  private:
    void transpose();

    std::vector<std::uint32_t> succStart_, succ_, predStart_, pred_;
    std::vector<std::uint8_t> maximiser_;
};

// The winner's exits within this much of its value count as realising it (distances).
inline constexpr double kForcedTolerance = 0.01;
// Whether a winner's option worth `option` realises its value `value` (no option of the
// winner is worth more than its value, so the gap is the shortfall).
[[nodiscard]] inline bool realises(double value, double option) {
    return std::abs(option - value) <= kForcedTolerance;
}
// The distance of a value the winner cannot force.
inline constexpr std::uint32_t kUnforced = 0xFFFF;

// Solves the game for given exits; keeps its work arrays between calls.
class AttackFreeSolver {
  public:
    static constexpr std::uint32_t kNoSource = 0xFFFFFFFF;

    explicit AttackFreeSolver(const GameGraph& graph) : graph_(graph) {}

    // exits[n]: the value of n's best exit for its owner, NaN when n has none. Writes every
    // node's value to `values`, to `sources` the node whose exit that value is (kNoSource
    // for the value 0 of a node settled in neither pass) and to `distances` the moves
    // before that exit (see above).
    void solve(std::span<const double> exits, std::span<double> values,
               std::span<std::uint32_t> sources, std::span<std::uint32_t> distances);

  private:
    void pass(std::span<const double> exits, std::span<double> values,
              std::span<std::uint32_t> sources, bool positive);
    // The forced distances of the values found (see above).
    void forcedDistances(std::span<const double> exits, std::span<const double> values,
                         std::span<std::uint32_t> distances);

    const GameGraph& graph_;
    std::vector<std::uint32_t> remaining_;
    std::vector<std::uint8_t> settled_;
    std::vector<std::pair<double, std::uint32_t>> events_;
    std::vector<std::uint32_t> queue_;
};

}  // namespace dejarik::tables
