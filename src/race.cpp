#include "race.h"

#include <algorithm>
#include <bit>
#include <vector>

#include "board.h"
#include "movegen.h"

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

struct OpenPaths {
    std::optional<Bitboard> first;  // the first piece's path that is still open
    int disjoint = 0;               // open paths that share no cell: each takes its own cell
};

OpenPaths openPaths(std::span<const Cell> cells, std::span<const int> steps, Bitboard occupied,
                    bool centreStraight) {
    const Bitboard empty = ~occupied & Bitboard(Bitboard::kAllBits);
    OpenPaths open;
    Bitboard onPaths;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        const auto path = movegen::anyPath(cells[i], steps[i], empty, centreStraight);
        if (!path) continue;
        if (!open.first) open.first = path;
        if ((*path & onPaths).empty()) ++open.disjoint;
        onPaths |= *path;
    }
    return open;
}

// Whether taking at most `budget` more cells leaves every piece (on `cells`, moving `steps`)
// without a path. A bounded hitting set: any such choice must take a cell of each path still
// open, so branching on the cells of one of them misses none.
bool immobilisable(std::span<const Cell> cells, std::span<const int> steps, Bitboard occupied,
                   int budget, bool centreStraight) {
    const OpenPaths open = openPaths(cells, steps, occupied, centreStraight);
    if (!open.first) return true;
    if (open.disjoint > budget) return false;
    for (const Cell x : *open.first)
        if (immobilisable(cells, steps, occupied | Bitboard::of(x), budget - 1, centreStraight))
            return true;
    return false;
}

// What canBeLeftWithoutMove depends on of a side: each piece's movement (RULES §5).
std::vector<int> movements(const Rules& rules, std::span<const Creature> side) {
    std::vector<int> steps;
    for (const Creature c : side)
        steps.push_back(rules.ratings(c).movement);
    return steps;
}

// Places pieces placed..end of `steps` (sorted) on every free cell, then asks
// immobilisable. Pieces of one movement are interchangeable, so each stands on a later cell
// than the one before it of its movement; and every board is a rotation of one with the first
// piece on a, b1 or c1: of the pieces of the first movement, the one nearest the centre,
// turned to its ring's first cell, comes before the others in the cells' order.
bool someBoard(std::vector<Cell>& cells, std::span<const int> steps, Bitboard occupied, int budget,
               bool centreStraight) {
    const std::size_t placed = cells.size();
    if (placed == steps.size())
        return immobilisable(cells, steps, occupied, budget, centreStraight);
    Bitboard choices = placed == 0 ? Bitboard::of(Cell::centre()) | Bitboard::of(Cell::inner(1)) |
                                         Bitboard::of(Cell::outer(1))
                                   : ~occupied & Bitboard(Bitboard::kAllBits);
    if (placed > 0 && steps[placed] == steps[placed - 1])
        choices &= Bitboard(Bitboard::kAllBits & ~((2u << cells.back().index()) - 1));
    for (const Cell c : choices) {
        cells.push_back(c);
        const bool found =
            someBoard(cells, steps, occupied | Bitboard::of(c), budget, centreStraight);
        cells.pop_back();
        if (found) return true;
    }
    return false;
}

class Race {
  public:
    Race(const Rules& rules, std::span<const Creature> own, std::span<const Creature> other,
         const OpponentAttacks& opponent, Boxing boxing, WithoutMoveCache& withoutMove,
         const KnownArmies& known)
        : rules_(rules),
          opponent_(opponent),
          known_(known),
          boxing_(boxing),
          withoutMove_(withoutMove),
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
        if (known_) {
            if (const auto b = known_(members(own_, own), members(other_, other))) {
                slot = *b;
                return slot;
            }
        }
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
        // Where the other side may be left without a move, any of its attacks may be forced.
        const bool modelHolds = !opponent_ || boxing_ == Boxing::Never ||
                                !mayBeLeftWithoutMove(other, std::popcount(own));
        for (std::size_t i = 0; i < own_.size(); ++i) {
            if (!(own >> i & 1)) continue;
            for (std::size_t j = 0; j < other_.size(); ++j) {
                if (!(other >> j & 1)) continue;
                const unsigned ownLoss = own & ~(1u << i), otherLoss = other & ~(1u << j);
                if (const auto q = attackerWins(rules_, own_[i], other_[j], boxable))
                    consider(*q, ownLoss, otherLoss);
                if (modelHolds && opponent_ && !opponent_(other_[j], own_[i])) continue;
                if (const auto q = defenderWins(rules_, other_[j], own_[i], boxable))
                    consider(*q, ownLoss, otherLoss);
            }
        }
        slot = best;
        return slot;
    }

    static std::vector<Creature> members(const std::vector<Creature>& army, unsigned mask) {
        std::vector<Creature> out;
        for (std::size_t i = 0; i < army.size(); ++i)
            if (mask >> i & 1) out.push_back(army[i]);
        return out;
    }

    bool mayBeLeftWithoutMove(unsigned other, int ownCount) {
        return withoutMove_(rules_, members(other_, other), ownCount);
    }

    const Rules& rules_;
    const OpponentAttacks& opponent_;
    const KnownArmies& known_;
    Boxing boxing_;
    WithoutMoveCache& withoutMove_;
    std::vector<Creature> own_, other_;
    std::vector<Bound> memo_;
};

}  // namespace

bool canBeLeftWithoutMove(const Rules& rules, std::span<const Creature> side, int others) {
    if (side.empty()) return false;
    std::vector<int> steps = movements(rules, side);
    std::ranges::sort(steps);  // someBoard places the pieces of one movement in turn
    std::vector<Cell> cells;
    return someBoard(cells, steps, Bitboard(), std::max(0, others), rules.centreStraight());
}

bool WithoutMoveCache::operator()(const Rules& rules, std::span<const Creature> side, int others) {
    std::vector<int> steps = movements(rules, side);
    std::ranges::sort(steps);
    const auto [at, added] =
        known_.try_emplace({std::move(steps), others, rules.centreStraight()}, false);
    if (added) at->second = canBeLeftWithoutMove(rules, side, others);
    return at->second;
}

std::string armyText(const Rules& rules, std::span<const Creature> army, Player owner) {
    std::string s;
    for (const Creature c : army)
        s += rules.letter(Piece(owner, c));
    return s;
}

bool materialDecides(const Rules& rules) {
    return !rules.courtier() && rules.centreWin() == 0 && !rules.raysOfDeath();
}

std::optional<Bound> bound(const Rules& rules, std::span<const Creature> own,
                           std::span<const Creature> other, const OpponentAttacks& opponent,
                           Boxing boxing, WithoutMoveCache* cache, const KnownArmies& known) {
    if (!materialDecides(rules)) return std::nullopt;
    if (own.empty() || other.empty()) return std::nullopt;
    if (own.size() > kMaxArmy || other.size() > kMaxArmy) return std::nullopt;
    const auto rated = [&](Creature c) { return static_cast<int>(c) < rules.creatureCount(); };
    if (!std::ranges::all_of(own, rated) || !std::ranges::all_of(other, rated)) return std::nullopt;
    WithoutMoveCache local;
    return Race(rules, own, other, opponent, boxing, cache ? *cache : local, known).solve();
}

}  // namespace dejarik::race
