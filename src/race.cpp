#include "race.h"

#include <algorithm>
#include <bit>
#include <vector>

#include "board.h"

namespace dejarik::race {

namespace {

// A pushed piece is boxed in only when every cell next to it is taken, and the cells with
// the fewest neighbours have this many: a push can kill only with more pieces on the board.
constexpr int kFewestNeighbours = [] {
    int fewest = Cell::kCount;
    for (int i = 0; i < Cell::kCount; ++i)
        fewest = std::min(fewest, board::adjacent(Cell(i)).count());
    return fewest;
}();

// The share of the decisive outcomes that `won` makes up; nothing when none is decisive.
std::optional<double> decisiveShare(double won, double lost) {
    if (won + lost <= 0) return std::nullopt;
    return won / (won + lost);
}

// The chance that an attack of `attacker` on `defender`, once it ends decisively, removes
// the defender.
std::optional<double> attackerWins(const Rules& rules, Creature attacker, Creature defender,
                                   bool boxable) {
    const auto& p = rules.combat(attacker, defender).probability;
    const auto at = [&](Outcome o) { return p[static_cast<int>(o)]; };
    // A push kills a boxed-in defender under both killing rules; counted whenever there are
    // pieces enough to box it in (generous: wherever they stand). A counter-push kills a
    // boxed-in attacker under BlockedPush=kill; the bound's player never lets that happen
    // to its own pieces.
    const bool pushKills = boxable && rules.blockedPush() != BlockedPush::Stay;
    return decisiveShare(at(Outcome::Kill) + (pushKills ? at(Outcome::Push) : 0),
                         at(Outcome::CounterKill));
}

// The chance that the other side's attack of `attacker` on the player's `defender`, once it
// ends decisively, removes the attacker (the defender is never left boxed in).
std::optional<double> defenderWins(const Rules& rules, Creature attacker, Creature defender,
                                   bool boxable) {
    const auto& p = rules.combat(attacker, defender).probability;
    const auto at = [&](Outcome o) { return p[static_cast<int>(o)]; };
    const bool counterPushKills = boxable && rules.blockedPush() == BlockedPush::Kill;
    return decisiveShare(
        at(Outcome::CounterKill) + (counterPushKills ? at(Outcome::CounterPush) : 0),
        at(Outcome::Kill));
}

class Race {
  public:
    Race(const Rules& rules, std::span<const Creature> own, std::span<const Creature> other,
         const OpponentAttacks& opponent)
        : rules_(rules),
          opponent_(opponent),
          own_(own.begin(), own.end()),
          other_(other.begin(), other.end()) {
        const std::size_t states = std::size_t{1} << (own_.size() + other_.size());
        memo_.assign(states, Bound{-1, -1});
    }

    Bound solve() { return value(full(own_), full(other_)); }

  private:
    static unsigned full(const std::vector<Creature>& army) { return (1u << army.size()) - 1; }

    Bound value(unsigned own, unsigned other) {
        if (other == 0) return {1, 1};
        if (own == 0) return {0, 0};
        Bound& slot = memo_[own | (other << own_.size())];
        if (slot.score >= 0) return slot;
        if (std::has_single_bit(own) && std::has_single_bit(other)) {
            // RULES §8.2: the showdown of the last two pieces.
            const auto& s =
                rules_.showdown(own_[std::countr_zero(own)], other_[std::countr_zero(other)]);
            slot = {s.p1Wins + (1 - s.p1Wins - s.p2Wins) / 2, s.p1Wins};
            return slot;
        }
        Bound best{0.5, 0};  // a draw, had the player the means to force one
        const auto consider = [&](double q, unsigned ownAfterLoss, unsigned otherAfterWin) {
            const Bound w = value(own, otherAfterWin), l = value(ownAfterLoss, other);
            best.score = std::max(best.score, q * w.score + (1 - q) * l.score);
            best.win = std::max(best.win, q * w.win + (1 - q) * l.win);
        };
        const bool boxable = std::popcount(own) + std::popcount(other) > kFewestNeighbours;
        for (std::size_t i = 0; i < own_.size(); ++i) {
            if (!(own >> i & 1)) continue;
            for (std::size_t j = 0; j < other_.size(); ++j) {
                if (!(other >> j & 1)) continue;
                const unsigned ownLoss = own & ~(1u << i), otherLoss = other & ~(1u << j);
                if (const auto q = attackerWins(rules_, own_[i], other_[j], boxable))
                    consider(*q, ownLoss, otherLoss);
                if (opponent_ && !opponent_(other_[j], own_[i])) continue;
                if (const auto q = defenderWins(rules_, other_[j], own_[i], boxable))
                    consider(*q, ownLoss, otherLoss);
            }
        }
        slot = best;
        return slot;
    }

    const Rules& rules_;
    const OpponentAttacks& opponent_;
    std::vector<Creature> own_, other_;
    std::vector<Bound> memo_;
};

}  // namespace

bool materialDecides(const Rules& rules) {
    return !rules.courtier() && rules.centreWin() == 0 && !rules.raysOfDeath();
}

std::optional<Bound> bound(const Rules& rules, std::span<const Creature> own,
                           std::span<const Creature> other, const OpponentAttacks& opponent) {
    if (!materialDecides(rules)) return std::nullopt;
    if (own.empty() || other.empty()) return std::nullopt;
    if (own.size() > kMaxArmy || other.size() > kMaxArmy) return std::nullopt;
    const auto known = [&](Creature c) { return static_cast<int>(c) < rules.creatureCount(); };
    if (!std::ranges::all_of(own, known) || !std::ranges::all_of(other, known)) return std::nullopt;
    return Race(rules, own, other, opponent).solve();
}

}  // namespace dejarik::race
