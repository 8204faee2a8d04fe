// The two baseline players (search/baselines.h). Both are deliberately shallow: they exist
// to give the strength table fixed, reproducible reference points, so every choice here
// favours a definition that is easy to state over playing strength.
#include "baselines.h"

#include <algorithm>

#include "attack.h"
#include "movegen.h"
#include "splitmix.h"

namespace dejarik::search {

namespace {

// Uniform in [0, n) by rejection, so that "uniform" holds exactly whatever n is.
std::uint64_t uniformBelow(std::uint64_t& state, std::uint64_t n) {
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    std::uint64_t x = splitmix64(state);
    while (x >= limit)
        x = splitmix64(state);
    return x % n;
}

// A creature's material worth: the sum of its combat ratings. Movement is left out because
// the greedy player never plans a move; what it weighs is what an attack can win or lose.
double material(const Rules& rules, Piece p) {
    const Ratings& r = rules.ratings(p.creature());
    return r.attack + r.defence;
}

// The expected material swing, for the attacker's player, of the attack from -> to.
// A push onto a boxed-in defender (or a counter-push of a boxed-in attacker) kills under
// the BlockedPush rules that say so, which makes those outcomes worth a kill.
double attackGain(const Position& pos, Cell from, Cell to) {
    const Rules& rules = pos.rules();
    const Piece attacker = pos.at(from), defender = pos.at(to);
    const Bitboard empty = pos.emptyCells();
    return eval::attackGain(
        rules.combat(attacker.creature(), defender.creature()).probability,
        {material(rules, defender), material(rules, attacker)}, rules.blockedPush(),
        {(board::adjacent(to) & empty).empty(), (board::adjacent(from) & empty).empty()});
}

// The best expected gain of any attack `player` could declare here, whoever is on turn;
// zero when no attack gains anything (a player need not attack).
double bestThreat(const Position& pos, Player player) {
    const Bitboard enemies = pos.pieces(opponent(player));
    double best = 0;
    for (const Cell from : pos.pieces(player))
        for (const Cell to : movegen::attackTargets(from, enemies, pos.rules()))
            best = std::max(best, attackGain(pos, from, to));
    return best;
}

// Keeps the best-valued event seen so far, breaking exact ties uniformly at random
// (reservoir sampling over the tied events, so no list is needed).
class BestPicker {
  public:
    explicit BestPicker(std::uint64_t& rng) : rng_(rng) {}

    void offer(Event e, double value) {
        constexpr double kTolerance = 1e-12;
        if (ties_ == 0 || value > best_ + kTolerance) {
            best_ = value;
            choice_ = e;
            ties_ = 1;
        } else if (value >= best_ - kTolerance) {
            ++ties_;
            if (uniformBelow(rng_, ties_) == 0) choice_ = e;
        }
    }
    [[nodiscard]] Event choice() const { return choice_; }

  private:
    std::uint64_t& rng_;
    Event choice_;
    double best_ = 0;
    std::uint64_t ties_ = 0;
};

}  // namespace

Event randomDecision(const Position& pos, std::uint64_t& rngState) {
    if (pos.isOver() || pos.phase() == Phase::Outcome) return Event();
    EventList events;
    pos.generate(events);
    if (events.empty()) return Event();
    return events[static_cast<int>(
        uniformBelow(rngState, static_cast<std::uint64_t>(events.size())))];
}

Event greedyDecision(const Position& pos, std::uint64_t& rngState) {
    if (pos.isOver() || pos.phase() == Phase::Outcome) return Event();
    EventList events;
    pos.generate(events);
    BestPicker picker(rngState);
    const Player decider = pos.decider();
    for (const Event e : events) {
        if (pos.rules().courtier()) {
            // Courtier has no attacks: a step is worth what it takes (a Guard 1; the King
            // ends the game), less the mover if it goes in a double capture.
            Position child = pos;
            child.apply(e);
            const double won = child.isOver() ? 100.0 * (child.winProbability(decider) -
                                                         child.winProbability(opponent(decider)))
                                              : 0.0;
            const int taken =
                pos.pieces(opponent(decider)).count() - child.pieces(opponent(decider)).count();
            const int lost = pos.pieces(decider).count() - child.pieces(decider).count();
            picker.offer(e, won + taken - lost);
            continue;
        }
        switch (e.kind()) {
            case EventKind::Attack:
                picker.offer(e, attackGain(pos, e.from(), e.to()));
                break;
            case EventKind::Place: {
                // The pushed piece is always the decider's enemy: put it where it threatens
                // least and is most exposed.
                Position child = pos;
                child.apply(e);
                picker.offer(e, bestThreat(child, decider) - bestThreat(child, opponent(decider)));
                break;
            }
            default:
                picker.offer(e, 0.0);
                break;
        }
    }
    return picker.choice();
}

}  // namespace dejarik::search
