#include "race.h"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>
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

// The number of boards forcedTargets walks: the side's first piece on one cell of each ring
// (every board is a rotation of one of those), its others on any free cell in turn, and the
// other side's pieces on any set of the remaining cells.
double forcedBoards(int sidePieces, int others) {
    double boards = 3;
    int free = Cell::kCount - 1;
    for (int i = 1; i < sidePieces; ++i)
        boards *= free--;
    for (int i = 0; i < others; ++i)
        boards = boards * (free - i) / (i + 1);
    return boards;
}

// The walk behind forcedTargets: each board's targets where the side has no path.
class ForcedWalk {
  public:
    ForcedWalk(const Rules& rules, std::span<const int> steps, int others)
        : rules_(rules), steps_(steps.begin(), steps.end()), others_(others) {}

    std::set<ForcedTargets> run() {
        placeSide(Bitboard());
        return found_;
    }

  private:
    void placeSide(Bitboard occupied) {
        if (side_.size() == steps_.size()) return placeOthers(occupied, 0);
        const Bitboard choices = side_.empty()
                                     ? Bitboard::of(Cell::centre()) | Bitboard::of(Cell::inner(1)) |
                                           Bitboard::of(Cell::outer(1))
                                     : ~occupied;
        for (const Cell c : choices) {
            side_.push_back(c);
            placeSide(occupied | Bitboard::of(c));
            side_.pop_back();
        }
    }

    // The other side's pieces go on cells above `from`, in increasing order: each set once.
    void placeOthers(Bitboard occupied, int from) {
        if (static_cast<int>(othersCells_.size()) == others_) return record(occupied);
        for (int i = from; i < Cell::kCount; ++i) {
            if (occupied.has(Cell(i))) continue;
            othersCells_.push_back(Cell(i));
            placeOthers(occupied | Bitboard::of(Cell(i)), i + 1);
            othersCells_.pop_back();
        }
    }

    void record(Bitboard occupied) {
        const Bitboard empty = ~occupied;
        for (std::size_t i = 0; i < side_.size(); ++i)
            if (movegen::destinations(side_[i], steps_[i], empty, rules_.centreStraight()).any())
                return;
        ForcedTargets targets;
        for (const Cell c : othersCells_) {
            std::uint16_t attackers = 0;
            for (std::size_t i = 0; i < side_.size(); ++i)
                if (movegen::attackTargets(side_[i], Bitboard::of(c), rules_).has(c))
                    attackers |= static_cast<std::uint16_t>(1u << i);
            targets.push_back(attackers);
        }
        std::ranges::sort(targets);
        found_.insert(std::move(targets));
    }

    const Rules& rules_;
    std::vector<int> steps_;
    int others_;
    std::vector<Cell> side_, othersCells_;
    std::set<ForcedTargets> found_;
};

class Race {
  public:
    Race(const Rules& rules, std::span<const Creature> own, std::span<const Creature> other,
         const Opponent& opponent, Boxing boxing, WithoutMoveCache& withoutMove,
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
        // The model's preference depends on the two creatures only: asked once a pair, not in
        // every order of every board of every state.
        if (opponent_.forced)
            for (std::size_t j = 0; j < other_.size(); ++j)
                for (std::size_t i = 0; i < own_.size(); ++i)
                    preference_[j][i] = opponent_.forced(other_[j], own_[i]);
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
        // forced[j] >> i & 1: the other side's piece j may be made to attack the player's i.
        const std::array<unsigned, kMaxArmy> forced = forcedAttacks(own, other);
        for (std::size_t i = 0; i < own_.size(); ++i) {
            if (!(own >> i & 1)) continue;
            for (std::size_t j = 0; j < other_.size(); ++j) {
                if (!(other >> j & 1)) continue;
                const unsigned ownLoss = own & ~(1u << i), otherLoss = other & ~(1u << j);
                if (const auto q = attackerWins(rules_, own_[i], other_[j], boxable))
                    consider(*q, ownLoss, otherLoss);
                if (opponent_.mayChoose && !opponent_.mayChoose(other_[j], own_[i]) &&
                    !(forced[j] >> i & 1))
                    continue;
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

    static std::vector<std::size_t> indices(unsigned mask) {
        std::vector<std::size_t> out;
        for (unsigned m = mask; m != 0; m &= m - 1)
            out.push_back(static_cast<std::size_t>(std::countr_zero(m)));
        return out;
    }

    // The attacks of the other side's pieces (`other`) on the player's (`own`) that a model
    // lets happen because that side, left without a move, must attack: none where it cannot
    // be left so (or the bound leaves boxing out); with a preference, the attacks it values
    // best (within the preference's range) on some board without a move, for some order of
    // the player's pieces on that board's cells; without one, or when the boards are too many
    // to walk, every attack.
    std::array<unsigned, kMaxArmy> forcedAttacks(unsigned own, unsigned other) {
        std::array<unsigned, kMaxArmy> forced{};
        if (!opponent_.mayChoose || boxing_ == Boxing::Never) return forced;
        if (boxing_ == Boxing::LonePiece && std::popcount(other) > 1) return forced;
        const int ownCount = std::popcount(own);
        if (!withoutMove_(rules_, members(other_, other), ownCount)) return forced;
        const std::optional<std::set<ForcedTargets>>* boards =
            opponent_.forced ? &withoutMove_.targets(rules_, members(other_, other), ownCount)
                             : nullptr;
        if (!boards || !*boards) {
            forced.fill(own);
            return forced;
        }
        const std::vector<std::size_t> js = indices(other);
        std::vector<std::size_t> is = indices(own);
        for (const ForcedTargets& targets : **boards) {
            // Every order of the player's pieces on the cells; `is` comes back sorted.
            do {
                double bestLow = -std::numeric_limits<double>::infinity();
                for (std::size_t c = 0; c < targets.size(); ++c)
                    for (std::size_t k = 0; k < js.size(); ++k)
                        if (targets[c] >> k & 1)
                            bestLow = std::max(bestLow, preference_[js[k]][is[c]].first);
                constexpr double kTolerance = 1e-9;  // wider than the baselines' own ties
                for (std::size_t c = 0; c < targets.size(); ++c)
                    for (std::size_t k = 0; k < js.size(); ++k)
                        if ((targets[c] >> k & 1) &&
                            preference_[js[k]][is[c]].second >= bestLow - kTolerance)
                            forced[js[k]] |= 1u << is[c];
            } while (std::next_permutation(is.begin(), is.end()));
        }
        return forced;
    }

    const Rules& rules_;
    const Opponent& opponent_;
    const KnownArmies& known_;
    Boxing boxing_;
    WithoutMoveCache& withoutMove_;
    std::vector<Creature> own_, other_;
    std::vector<Bound> memo_;
    // preference_[j][i]: the model's range for the other side's piece j on the player's i.
    std::array<std::array<std::pair<double, double>, kMaxArmy>, kMaxArmy> preference_{};
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

std::optional<std::set<ForcedTargets>> forcedTargets(const Rules& rules,
                                                     std::span<const Creature> side, int others) {
    if (side.empty() || others < 0) return std::set<ForcedTargets>{};
    if (side.size() > 16) return std::nullopt;  // more than a ForcedTargets mask holds
    if (static_cast<int>(side.size()) + others > Cell::kCount) return std::set<ForcedTargets>{};
    if (forcedBoards(static_cast<int>(side.size()), others) > kMaxForcedBoards) return std::nullopt;
    const std::vector<int> steps = movements(rules, side);
    return ForcedWalk(rules, steps, others).run();
}

const std::optional<std::set<ForcedTargets>>& WithoutMoveCache::targets(
    const Rules& rules, std::span<const Creature> side, int others) {
    const auto [at, added] =
        targets_.try_emplace({movements(rules, side), others, rules.centreStraight(),
                              rules.safeOuterOrbit(), rules.kingOfTheCentre()},
                             std::nullopt);
    if (added) at->second = forcedTargets(rules, side, others);
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
                           std::span<const Creature> other, const Opponent& opponent, Boxing boxing,
                           WithoutMoveCache* cache, const KnownArmies& known) {
    if (!materialDecides(rules)) return std::nullopt;
    if (own.empty() || other.empty()) return std::nullopt;
    if (own.size() > kMaxArmy || other.size() > kMaxArmy) return std::nullopt;
    const auto rated = [&](Creature c) { return static_cast<int>(c) < rules.creatureCount(); };
    if (!std::ranges::all_of(own, rated) || !std::ranges::all_of(other, rated)) return std::nullopt;
    WithoutMoveCache local;
    return Race(rules, own, other, opponent, boxing, cache ? *cache : local, known).solve();
}

}  // namespace dejarik::race
