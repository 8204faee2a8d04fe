// Small endings played exactly against a baseline player (docs/search.md, "Endings against
// a baseline"): with four creatures or fewer on the board, the decision whose value against
// that player, solved with the quiet draw (tables/policy.h), is the best. Not a search:
// against a sound opponent these decisions can be bad ones; it is what an engine told which
// baseline it faces can do in the endings, where no search horizon reaches the quiet draw.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>

#include "baselines.h"
#include "policy.h"
#include "position.h"

namespace dejarik::search {

// The exact values against a baseline of every ending one capture away from a root of
// five creatures, for the search to use at its nodes of four creatures or fewer
// (docs/search.md, "Endings against a baseline"): the player the sets were solved for
// maximises, the other plays the baseline. Read-only once made, so search threads share it.
class EndingValues {
  public:
    EndingValues(std::shared_ptr<const tables::PolicySets> sets, Player maximiser,
                 std::uint64_t rules)
        : sets_(std::move(sets)), maximiser_(maximiser), rules_(rules) {}
    [[nodiscard]] Player maximiser() const { return maximiser_; }
    [[nodiscard]] std::uint64_t rules() const { return rules_; }
    // Player 1's expected result at a decision position of one of the sets, at its quiet
    // counter; nothing for any other position.
    [[nodiscard]] std::optional<double> value(const Position& pos) const;

  private:
    std::shared_ptr<const tables::PolicySets> sets_;
    Player maximiser_;
    std::uint64_t rules_;
};

struct EndingDecision {
    Event best;
    double value = 0;     // the decider's expected result against the baseline, in [-1, 1]
    bool solved = false;  // the ending's sets were solved for this decision (not remembered)
};

class EndingPlayer {
  public:
    // Whether decide() answers for `pos`: a decision or placement point with three or four
    // creatures, under rules with the quiet draw, without CentreWin, Rays of Death or Courtier.
    [[nodiscard]] static bool applies(const Position& pos);

    // The best decision of the player to decide at `pos` against `against`. Solves the
    // ending's sets (the position's and those its captures lead to) the first time, and
    // remembers them for the rest of the ending. Throws tables::Cancelled when `cancel`
    // is set during a solution. Nothing when it does not apply.
    [[nodiscard]] std::optional<EndingDecision> decide(const Position& pos, Baseline against,
                                                       const std::atomic<bool>* cancel = nullptr);

    // Whether valuesFor() answers for `pos`: the rules as for applies(), a decision or
    // placement point with one creature more than the endings hold.
    [[nodiscard]] static bool valuesApply(const Position& pos);

    // The values of the endings the captures from `root` lead to, for its decider as the
    // maximiser: those already solved, or (with `solve`) solved now, as decide() does.
    // Null when they do not apply or are not solved.
    [[nodiscard]] std::shared_ptr<const EndingValues> valuesFor(
        const Position& root, Baseline against, bool solve,
        const std::atomic<bool>* cancel = nullptr);

  private:
    struct Solved {
        std::uint64_t rules = 0;
        Baseline against = Baseline::Random;
        std::vector<Creature> decider, other;  // the armies solved, the decider's first
        std::shared_ptr<const tables::PolicySets> sets;
        // The sets as values for a search, made on demand: one object while the maximiser
        // stays, so that a search sees its values unchanged.
        std::shared_ptr<const EndingValues> values;
    };
    // The solution that covers `seen` (the decider as player 1), if any.
    [[nodiscard]] bool covers(const Position& seen, Baseline against) const;
    // The sets that value `seen` (the decider as player 1), solved now if not already.
    const tables::PolicySets& setsFor(const Position& seen, Baseline against,
                                      const std::atomic<bool>* cancel, bool& solved);
    // `pos` with its decider as player 1.
    [[nodiscard]] static Position seenByDecider(const Position& pos);

    std::optional<Solved> last_;
};

}  // namespace dejarik::search
