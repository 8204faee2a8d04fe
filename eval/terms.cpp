// The terms (docs/eval.md). Everything is measured in one currency: the logit of player 1's
// chance to win, L = atanh(2W - 1) = ln(W / (1 - W)) / 2, so that tanh(L) is the expected
// result. The backbone is the attrition model (material); the other terms are the expected
// material changes of the attacks each side can make soon, converted to the same logit,
// plus small positional and ruleset terms.
#include "terms.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "attack.h"
#include "attrition.h"
#include "board_material.h"
#include "fastmath.h"
#include "geometry.h"
#include "movegen.h"

namespace dejarik::eval {

namespace {

constexpr std::array<double, kMaxPieces + 1> kInverse = [] {
    std::array<double, kMaxPieces + 1> t{};
    for (std::size_t i = 1; i < t.size(); ++i)
        t[i] = 1.0 / static_cast<double>(i);
    return t;
}();

// Who may attack what, and what each attack is worth (in changes of player 1's attrition
// win chance, seen from the attacker).
struct AttackSummary {
    double bestDirect = 0;  // best and second-best positive in-place attack
    double secondDirect = 0;
    double second = 0;     // running second best
    double exposed = 0;    // every profitable in-place attack, summed
    double bestReach = 0;  // best positive attack after one move
    double bestAny = -1;   // best attack of any sign, in place or after a move (forced play)
    bool anyDirect = false;
    bool anyReach = false;
    int attacks = 0;
};

// Everything about one position that the terms share. Per-cell arrays are indexed by the
// cell of a piece and filled for occupied cells only, never zeroed.
class Evaluator {
  public:
    Evaluator(const Position& pos, const Tunables& tunables, Memo* memo)
        : pos_(pos),
          rules_(pos.rules()),
          t_(tunables),
          w_(tunables.evalWeights(rules_.ruleset())),
          empty_(pos.emptyCells()),
          planes_(empty_) {
        restricted_ = rules_.safeOuterOrbit() || rules_.kingOfTheCentre();
        int code = 0;
        std::uint32_t seen = 0;
        // The attrition tables are built from a ruleset's own ratings: a creature file's
        // armies are solved from their ratings (custom armies, eval/board_material.h).
        bool unique = !rules_.fromCreatureFile();
        const int cap = w_.mobilityCap;  // a local: the stores below might alias a member
        for (const Player p : {Player::One, Player::Two}) {
            all_[index(p)] = pos.pieces(p);
            const int digit = p == Player::One ? 1 : 2;
            for (const Cell c : all_[index(p)]) {
                const Creature creature = pos.at(c).creature();
                gather(c, creature);
                mobility_[index(p)] += std::min(std::popcount(reach_[c.index()]), cap);
                const std::uint32_t bit = 1u << static_cast<int>(creature);
                unique = unique && !(seen & bit);
                seen |= bit;
                if (unique) code += digit * kPow3[static_cast<int>(creature)];
            }
        }
        readMaterial(rules_, Army{all_, creature_, code, unique}, w_.slopeFloor, memo, m_);
    }

    [[nodiscard]] double calibration() const { return w_.calibration; }

    // Terms of a decision point where `mover` has `actions` left, or of an attack whose
    // outcome is due (`pending`: then the pair is left out of the attack lists).
    void score(Scores& s, Player mover, int actions, bool pending) {
        Details& d = s.details;
        d.n1 = all_[0].count();
        d.n2 = all_[1].count();
        d.win = m_.win;
        s.term[kMaterial] = {std::max(m_.logitWin, 0.0), std::max(-m_.logitWin, 0.0)};
        if (pending) pendingAttack(s);

        const Player waiter = opponent(mover);
        // Attacks after a move count for the waiting side (its next turn has two actions)
        // and for the mover with two actions left; CentreWin wants to know of them always.
        const bool allReach = rules_.centreWin() > 0;
        const auto withReach = [&](Player p) { return allReach || p == waiter || actions >= 2; };
        const std::array<AttackSummary, 2> attacks = {
            collectAttacks(Player::One, withReach(Player::One), pending),
            collectAttacks(Player::Two, withReach(Player::Two), pending)};

        // Threats: what each side can take, in the order it gets to act.
        const AttackSummary& m = attacks[index(mover)];
        double now = m.bestDirect;
        if (actions >= 2)
            now = std::max(m.bestDirect + w_.secondAttack * m.secondDirect,
                           w_.reachAttack * m.bestReach);
        const AttackSummary& w = attacks[index(waiter)];
        const double next =
            std::max(w.bestDirect + w_.secondAttack * w.secondDirect, w_.reachAttack * w.bestReach);
        const double later = actions >= 2 ? w_.laterAfterTwoActions : w_.laterAfterOneAction;
        s.term[kThreats][index(mover)] = exactGainLogit(mover, now);
        s.term[kThreats][index(waiter)] = later * exactGainLogit(waiter, next);
        d.attacks = {attacks[0].attacks, attacks[1].attacks};

        // Exposure: every attack the enemy can make in place with profit, not just the best.
        for (const Player p : {Player::One, Player::Two})
            s.term[kExposureTerm][index(p)] =
                -w_.exposure * gainLogit(attacks[index(opponent(p))].exposed);

        // Mobility, and the centre when every attack goes through it.
        for (const Player p : {Player::One, Player::Two}) {
            const int cells = mobility_[index(p)];
            d.cells[index(p)] = cells;
            s.term[kMobility][index(p)] = w_.mobilityPerCell * cells;
            if (rules_.kingOfTheCentre() && all_[index(p)].has(Cell::centre()))
                s.term[kCentreTerm][index(p)] =
                    t_.centreKing * (1.0 + t_.centreWorth * std::max(0.0, m_.worth[0]));
        }

        if (rules_.safeOuterOrbit()) safeRing(s);
        if (rules_.centreWin() > 0) hold(s, mover, actions, attacks);
        // The draw can come before anyone can attack: the mover acts alone until it, with an
        // attack in place, or (two actions away) a move and an attack.
        drawClock(s, actions, m.anyDirect, actions >= 2 && m.anyReach);
    }

  private:
    void gather(Cell c, Creature creature) {
        const int i = c.index();
        const int steps = rules_.ratings(creature).movement;
        const Bitboard free = board::adjacent(c) & empty_;
        Bitboard reach, range;
        if (steps >= 1 && steps <= 3 && i != 0) {
            const MoveArea& area = kMoveArea[i][steps - 1][planes_.pattern(i)];
            reach = area.reach;
            range = area.range;
        } else if (steps >= 1 && steps <= 3) {
            for (const Cell first : free) {
                reach |= kBall[first.index()][steps - 1];
                range |= kBall[first.index()][steps];
            }
        } else if (steps > 3) {
            reach = movegen::destinations(c, steps, empty_, rules_.centreStraight());
            range = board::neighbours(reach);
        }
        reach &= empty_;
        if (restricted_) range = restrictedRange(reach, rules_);
        creature_[i] = creature;
        free_[i] = free.bits();
        reach_[i] = reach.bits();
        range_[i] = range.bits();
    }

    // The gain, in attrition win chance, of the attack from `from` on `to`, seen from the
    // attacker, with the boxed-in pieces as they stand.
    [[nodiscard]] double gainOf(Cell from, Cell to) const {
        const int f = from.index(), t = to.index();
        return attackGain(rules_.combat(creature_[f], creature_[t]).probability,
                          {m_.worth[t], m_.worth[f]}, rules_.blockedPush(),
                          {free_[t] == 0, free_[f] == 0});
    }

    // The pending attack valued by its outcomes: the expected attrition win chance after
    // them (the material after each outcome, weighted by its odds), as an exact logit change.
    void pendingAttack(Scores& s) const {
        const Cell from = pos_.pendingFrom(), to = pos_.pendingTo();
        const Player attacker = pos_.at(from).owner();
        s.term[kPending][index(attacker)] = exactGainLogit(attacker, gainOf(from, to));
    }

    // A change of the attrition win chance worth `gain` to its player, in logits: the
    // slope of the logit at the current chance, 1 / (2 W (1 - W)), capped where the game is
    // decided anyway. A first-order change, cheap and the same for both players.
    [[nodiscard]] double gainLogit(double gain) const { return m_.slope * gain; }

    // The same exactly: the logit of the chance after the gain less the logit now. Large
    // gains (a kill that leaves a won showdown) need it; the slope overstates them far from
    // an even game.
    [[nodiscard]] double exactGainLogit(Player p, double gain) const {
        if (gain == 0) return 0;
        return perspective(p) * (logit(m_.win + perspective(p) * gain) - m_.logitWin);
    }

    // Every attack of p's pieces, in place and (withReach) after a move.
    // Returned by value, accumulated in a local: through a reference the compiler must
    // assume each store may change the worths read next, and keeps every maximum in memory.
    [[nodiscard]] AttackSummary collectAttacks(Player p, bool withReach, bool pending) const {
        switch (rules_.blockedPush()) {
            case BlockedPush::Stay:
                return collectAttacks<BlockedPush::Stay>(p, withReach, pending);
            case BlockedPush::Kill:
                return collectAttacks<BlockedPush::Kill>(p, withReach, pending);
            case BlockedPush::KillOnPush:
                break;
        }
        return collectAttacks<BlockedPush::KillOnPush>(p, withReach, pending);
    }
    // One loop per BlockedPush policy: with the policy a constant, attackGain() drops what
    // cannot happen (under Stay, the boxed-in tests and their additions).
    template <BlockedPush policy>
    [[nodiscard]] AttackSummary collectAttacks(Player p, bool withReach, bool pending) const {
        const Bitboard enemies = all_[index(opponent(p))];
        AttackSummary sum;
        for (const Cell from : all_[index(p)]) {
            const int f = from.index();
            Bitboard direct = movegen::attackTargets(from, enemies, rules_);
            // The attack whose outcome is due is not there to be made again.
            if (pending && (from == pos_.pendingFrom() || from == pos_.pendingTo()))
                direct &= ~Bitboard::of(pos_.pendingFrom()) & ~Bitboard::of(pos_.pendingTo());
            const Bitboard reach = withReach ? Bitboard(range_[f]) & enemies & ~direct : Bitboard();
            const auto* row = &rules_.combat(creature_[f], Creature::Savrip);
            const double worth = m_.worth[f];
            const bool boxed = free_[f] == 0;
            for (const Cell to : direct) {
                const int t = to.index();
                const double g = attackGain(row[static_cast<int>(creature_[t])].probability,
                                            {m_.worth[t], worth}, policy, {free_[t] == 0, boxed});
                sum.second = std::max(sum.second, std::min(sum.bestDirect, g));
                sum.bestDirect = std::max(sum.bestDirect, g);
                sum.bestAny = std::max(sum.bestAny, g);
                sum.exposed += std::max(g, 0.0);
            }
            for (const Cell to : reach) {
                const int t = to.index();
                // The attacker moves into one of the target's free cells: with one left, the
                // target is boxed in when the attack comes. Where the attacker stands then is
                // only roughly known: taken as not boxed in.
                const double g =
                    attackGain(row[static_cast<int>(creature_[t])].probability,
                               {m_.worth[t], worth}, policy, {std::popcount(free_[t]) == 1, false});
                sum.bestReach = std::max(sum.bestReach, g);
                sum.bestAny = std::max(sum.bestAny, g);
            }
            sum.attacks += direct.count() + reach.count();
            sum.anyDirect |= direct.any();  // no branches: this runs for every piece
            sum.anyReach |= reach.any();
        }
        sum.secondDirect = sum.second;
        return sum;
    }

    // SafeOuterOrbit: a piece on the outer ring can be neither attacked nor attack, so the
    // side behind can hide there and play for the quiet draw. The lead shrinks with the share
    // of the trailing side's pieces that are hidden (or one move from hiding).
    void safeRing(Scores& s) const {
        for (const Player p : {Player::One, Player::Two}) {
            double hidden = 0;
            for (const Cell c : all_[index(p)])
                hidden += c.isOuter()                                                   ? 1.0
                          : (Bitboard(reach_[c.index()]) & Bitboard::outerRing()).any() ? 0.5
                                                                                        : 0.0;
            const int n = all_[index(p)].count();
            s.details.hide[index(p)] = n > 0 ? hidden * kInverse[n] : 0;
        }
        const double lead = s.term[kMaterial][0] - s.term[kMaterial][1];
        const Player leader = lead >= 0 ? Player::One : Player::Two;
        s.term[kSafeRingTerm][index(leader)] =
            -t_.safeRing * s.details.hide[index(opponent(leader))] * std::abs(lead);
    }

    // CentreWin N: at the end of its own turn a player on `a` counts one more, and N wins;
    // any attack on one of its pieces resets the count.
    void hold(Scores& s, Player mover, int actions,
              const std::array<AttackSummary, 2>& attacks) const {
        const auto n = static_cast<std::uint32_t>(rules_.centreWin());
        const Player waiter = opponent(mover);
        for (const Player p : {Player::One, Player::Two}) {
            const bool onA = all_[index(p)].has(Cell::centre());
            const std::uint32_t next = pos_.hold(p) + 1;
            double value = 0;
            bool wins = false;
            if (p == mover) {
                bool reachesA = onA;
                for (const Cell c : all_[index(p)])
                    reachesA = reachesA || Bitboard(reach_[c.index()]).has(Cell::centre());
                if (!reachesA) continue;
                // Nothing can stop the count during the player's own turn.
                if (next >= n) {
                    wins = true;
                } else {
                    const AttackSummary& w = attacks[index(waiter)];
                    const bool contested = w.anyDirect || w.anyReach;
                    value = t_.holdStep * next / n * (contested ? t_.holdContested : 1.0);
                }
            } else {
                if (!onA) continue;
                const AttackSummary& m = attacks[index(mover)];
                const bool contested = m.anyDirect || (actions >= 2 && m.anyReach);
                if (next >= n && !contested) {
                    wins = true;
                } else if (next >= n) {
                    // The mover must attack something now, however bad its best attack is.
                    value = t_.holdStep * t_.holdContested + gainLogit(std::max(0.0, -m.bestAny));
                } else {
                    value = t_.holdStep * next / n * (contested ? t_.holdContested : 1.0);
                }
            }
            if (wins) {
                double rest = 0;
                for (int t = 0; t < kTermCount; ++t)
                    if (t != kHold) rest += s.term[t][index(p)] - s.term[t][index(opponent(p))];
                value = std::max(0.0, t_.holdWin + t_.holdWinRest * rest - rest);
                s.details.holdWin = true;
            }
            s.term[kHold][index(p)] = value;
        }
    }

    // The quiet draw (RULES §8.4): as it nears, every term shrinks toward a draw, and it is
    // certain when it comes within the mover's actions and the mover cannot attack by then.
    // Depends on the quiet counter only through min(actions left before the draw, kQuietCap).
    void drawClock(Scores& s, int actions, bool attackInPlace, bool attackAfterMove) const {
        const int left = actionsToDraw(pos_);
        double scale = quietFade(left, t_.quietHorizon);
        // Only an attack resets the counter: with one action before the draw an attack in
        // place is needed; with two, a move and an attack will do.
        if (left <= actions && !attackInPlace && (left < 2 || !attackAfterMove)) scale = 0;
        s.details.actionsToDraw = left;
        s.details.quietScale = scale;
        if (scale == 1) return;
        for (const int p : {0, 1}) {
            double sum = 0;
            for (int t = 0; t < kDrawClock; ++t)
                sum += s.term[t][p];
            s.term[kDrawClock][p] = -(1.0 - scale) * sum;
        }
    }

    const Position& pos_;
    const Rules& rules_;
    const Tunables& t_;
    const EvalWeights w_;  // the ruleset's of t_
    Bitboard empty_;
    FreePlanes planes_;
    bool restricted_ = false;
    std::array<Bitboard, 2> all_;
    std::array<int, 2> mobility_{};  // cells each side's pieces can move to, capped per piece
    std::array<Creature, Cell::kCount> creature_;
    Material m_;  // the attrition model: W, its logit and slope, what each piece is worth
    // Where one move can end, roughly: the first step exact, then the empty-board cells
    // within `movement` steps (a superset of the exact destinations, which need simple paths
    // of exactly that length, unblocked, straight through `a` under CentreStraight).
    std::array<std::uint32_t, Cell::kCount> reach_;
    std::array<std::uint32_t, Cell::kCount> range_;  // where an attack after that move lands
    std::array<std::uint32_t, Cell::kCount> free_;   // empty neighbours
};

// A finished game: the exact result, as a material logit.
void scoreOver(const Position& pos, Scores& s) {
    const double value = pos.winProbability(Player::One) - pos.winProbability(Player::Two);
    const double l = logit(0.5 + 0.5 * value);
    s.term[kMaterial] = {std::max(l, 0.0), std::max(-l, 0.0)};
    s.details.win = 0.5 + 0.5 * value;
}

}  // namespace

void scoreAt(const Position& pos, Scores& s, const Tunables& tunables, Memo* memo) {
    if (pos.isOver()) return scoreOver(pos, s);
    Evaluator e(pos, tunables, memo);
    if (pos.phase() == Phase::Outcome) {
        // After the outcome the attacker's turn goes on with one action fewer.
        const int left = pos.actionsLeft() - 1;
        const Player mover = left > 0 ? pos.sideToMove() : opponent(pos.sideToMove());
        e.score(s, mover, left > 0 ? left : 2, true);
    } else {
        e.score(s, pos.sideToMove(), pos.actionsLeft(), false);
    }
    s.calibration = e.calibration();
}

double scoredValue(const Position& pos, const Tunables& tunables, Memo* memo) {
    Scores s;
    scoreAt(pos, s, tunables, memo);
    return squash(s.raw());
}

}  // namespace dejarik::eval
