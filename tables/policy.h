// Exact values of a small material set against a fixed player, with the quiet draw
// (docs/tables.md, "Against a fixed player").
//
// Player 1 (side A of the set) maximises; player 2 (side B) decides as a fixed player does,
// each of its choices equally likely: a baseline such as the uniformly random mover. Both
// sides' placements after a push are decided the same way. Unlike the tables of solver.h,
// the quiet draw is part of the game: a state is a decision state of the set's layout
// together with its quiet counter q < 2 x DrawTurns. A move or a pass raises the counter by
// one, and at 2 x DrawTurns the game is a draw; an attack resets it to 0. So the states of
// one counter value depend only on those of the next and, through attacks, on those of
// counter 0: given the values at counter 0, one sweep from the last counter down to 0
// computes them all anew, and repeating that is a contraction with the factor of the
// attacks' chance to stay in the set (a kill or counter-kill leaves it). The values are
// certified by that factor and the last step's change.
//
// What it is for: the exact score that the best possible play reaches against a baseline
// in small endings, and so, through race::bound, a proof that a goal against that
// baseline is out of reach (docs/search.md, "Against `random`").
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

#include "index.h"
#include "material.h"
#include "position.h"
#include "race.h"
#include "rules.h"
#include "solver.h"

namespace dejarik::tables {

// The decisions the fixed player chooses among at a decision or placement point, each
// equally likely (a decision listed twice weighs twice).
using PolicyChoices = std::function<void(const Position&, EventList&)>;

// Whoever decides at a decision or placement point of a solution against a fixed player:
// player 1 (who takes the best) every legal decision, each at weight 1; the fixed player
// its choices, each at 1 / their number.
struct WeightedChoices {
    EventList events;
    double weight = 1;
    bool maximiser = true;  // player 1 decides (takes the best); else the fixed player
};
// Throws std::logic_error when there is no choice.
[[nodiscard]] WeightedChoices choicesAt(const Position& pos, const PolicyChoices& policy);

// What a value measures, for player 1.
enum class Objective : std::uint8_t {
    Result,  // player 1's chance to win less player 2's: a draw is 0
    Win,     // player 1's chance to win: a draw counts as nothing
};

struct PolicyReport {
    int iterations = 0;      // sweeps over every counter value
    double residual = 0;     // the largest change of a value at counter 0 in the last sweep
    double contraction = 0;  // the most probability with which an attack stays in the set
    double error = 0;        // |V - V*| <= residual * c / (1 - c); infinity when c = 1
    bool converged = false;  // error below the tolerance within the sweep cap
};

// The state of a decision position of `material`'s set in `layout` (side A as player 1,
// whatever the position's quiet counter); nothing for a position of another set or phase.
[[nodiscard]] std::optional<std::uint32_t> locateState(const Material& material,
                                                       const Layout& layout, const Position& pos);

// What a solve asked to stop throws.
struct Cancelled : std::runtime_error {
    Cancelled() : std::runtime_error("tables: the solution was stopped") {}
};

class PolicySolver {
  public:
    // `rules` must have the quiet draw (DrawTurns > 0) and no CentreWin, and outlive the
    // solver; `smaller` answers for decision positions one piece fewer at counter 0, in the
    // objective's terms. Throws std::runtime_error when a smaller set is missing or the rules
    // do not fit. With `cancel` (which must outlive the solver), building the game and each
    // sweep go on only while it is false; then they throw Cancelled.
    PolicySolver(const Material& material, const Rules& rules, const PolicyChoices& policy,
                 Objective objective, const SmallerSets& smaller,
                 const std::atomic<bool>* cancel = nullptr);
    ~PolicySolver();
    PolicySolver(const PolicySolver&) = delete;
    PolicySolver& operator=(const PolicySolver&) = delete;

    [[nodiscard]] std::uint32_t states() const;
    // Sweeps from values 0 until the error is below `tolerance` or `maxIterations` sweeps;
    // `values` gets each state's value at counter 0. With `counters`, one more sweep keeps
    // every counter's values there, counter q of state i at q * states() + i. Each sweep on
    // `threads` threads (the same values on any number).
    PolicyReport solve(std::vector<double>& values, double tolerance, int maxIterations,
                       std::vector<float>* counters = nullptr, int threads = 1);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Which sets PolicySets solves: every set of 3 to maxPieces (at most kMaxPieces) creatures
// of the two armies, or, where `largest` names some (player 1's sub-army as side a), only
// those among the sets of maxPieces creatures; every smaller set all the same, since a
// set's solution needs those its captures lead to. `progress`, when set, hears (sets solved,
// sets in all) after each set, one call at a time, from the threads that solve them.
struct PolicyScope {
    int maxPieces = kDefaultMaxPieces;
    std::vector<Material> largest;
    std::function<void(std::size_t, std::size_t)> progress;
};

// The values at counter 0 of every set of sub-armies of `one` (player 1, maximising)
// against `two` (the fixed player) in `scope`, both sides present, solved in order of size
// on `threads` threads.
class PolicySets {
  public:
    struct Set {
        Material material;
        Layout layout;
        std::vector<double> values;
        std::vector<float> counters;  // every counter's values, when kept (PolicySolver::solve)
        PolicyReport report;
        double best = 0;  // the largest value of any state, plus the error
    };

    // With `keepCounters`, every set keeps its values at every quiet counter, so that value()
    // answers at any counter; `cancel` as PolicySolver's.
    PolicySets(const Rules& rules, const std::vector<Creature>& one,
               const std::vector<Creature>& two, const PolicyChoices& policy, Objective objective,
               double tolerance, int threads, bool keepCounters = false,
               const std::atomic<bool>* cancel = nullptr, const PolicyScope& scope = {});

    [[nodiscard]] const std::vector<Set>& sets() const { return sets_; }
    // The set of these armies (each in any order), or nothing.
    [[nodiscard]] const Set* find(const std::vector<Creature>& one,
                                  const std::vector<Creature>& two) const;
    // The value of a decision position of one of the sets at its quiet counter (kept
    // counters), or at counter 0 (the position's own counter must be 0); or nothing.
    [[nodiscard]] std::optional<double> value(const Position& pos) const;

  private:
    // The set at Material::slot() `slot`, or null.
    [[nodiscard]] const Set* atSlot(int slot) const;

    std::vector<Set> sets_;
    int maxPieces_ = kDefaultMaxPieces;
    // sets_'s index by Material::slot(), -1 where none: value() is called at every node of
    // maxPieces_ creatures or fewer of a search.
    std::vector<std::int32_t> bySlot_ = std::vector<std::int32_t>(Material::kSlotCount, -1);
};

// What two solutions of the same armies, objectives Result and Win, know of `own` against
// `other` for race::bound (race::KnownArmies): the set's best as a score ((v + 1) / 2) and a
// chance to win, each at most 1 (the error bound is added to a best); nothing where either
// lacks the set.
[[nodiscard]] std::optional<race::Bound> knownBound(const PolicySets& result, const PolicySets& win,
                                                    std::span<const Creature> own,
                                                    std::span<const Creature> other);

}  // namespace dejarik::tables
