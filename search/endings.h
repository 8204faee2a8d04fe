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

    // Whether decide() would answer `pos` from the sets it holds, without a solution (so at
    // once, and never cancelled).
    [[nodiscard]] bool solvedFor(const Position& pos, Baseline against) const;

  private:
    struct Solved {
        std::uint64_t rules = 0;
        Baseline against = Baseline::Random;
        std::vector<Creature> decider, other;  // the armies solved, the decider's first
        std::unique_ptr<tables::PolicySets> sets;
    };
    // Whether the sets solved last value `seen` (the decider as player 1).
    [[nodiscard]] bool holds(const Position& seen, Baseline against) const;
    // The sets that value `seen`, solved now if not already.
    const tables::PolicySets& setsFor(const Position& seen, Baseline against,
                                      const std::atomic<bool>* cancel, bool& solved);

    std::optional<Solved> last_;
};

}  // namespace dejarik::search
