// The baseline players (search/baselines.h). Both are deliberately shallow: they exist
// to give the strength table fixed, reproducible reference points, so every choice here
// favours a definition that is easy to state over playing strength.
#include "baselines.h"

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <string>

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
double material(const Rules& rules, Creature c) {
    const Ratings& r = rules.ratings(c);
    return r.attack + r.defence;
}

// The expected material swing, for the attacker's player, of an attack of `attacker` on
// `defender`. A push onto a boxed-in defender (or a counter-push of a boxed-in attacker)
// kills under the BlockedPush rules that say so, which makes those outcomes worth a kill.
double attackGain(const Rules& rules, Creature attacker, Creature defender, eval::Boxed boxed) {
    return eval::attackGain(rules.combat(attacker, defender).probability,
                            {material(rules, defender), material(rules, attacker)},
                            rules.blockedPush(), boxed);
}

// The same for the attack from -> to of a position.
double attackGain(const Position& pos, Cell from, Cell to) {
    return attackGain(pos.rules(), pos.at(from).creature(), pos.at(to).creature(),
                      eval::boxedIn(pos, from, to));
}

// The least and the most greedy's attackGain of `attacker` on `defender` can be, over every
// arrangement of boxed-in pieces (which a board decides and the creatures alone do not).
std::pair<double, double> gainRange(const Rules& rules, Creature attacker, Creature defender) {
    double low = std::numeric_limits<double>::infinity(), high = -low;
    for (const bool boxedDefender : {false, true})
        for (const bool boxedAttacker : {false, true}) {
            const double gain =
                attackGain(rules, attacker, defender, {boxedDefender, boxedAttacker});
            low = std::min(low, gain);
            high = std::max(high, gain);
        }
    return {low, high};
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

// Whether the attacker wins the roll of the attack from -> to (kill or push) at least as
// often as it loses it (counter-push or counter-kill). What a push kills under BlockedPush
// changes the stakes, not who won the roll, so it does not enter here.
bool evenOdds(const Rules& rules, Creature attacker, Creature defender) {
    const auto& odds = rules.combat(attacker, defender).probability;
    return odds[static_cast<int>(Outcome::Kill)] + odds[static_cast<int>(Outcome::Push)] >=
           odds[static_cast<int>(Outcome::CounterPush)] +
               odds[static_cast<int>(Outcome::CounterKill)];
}

bool evenOdds(const Position& pos, Cell from, Cell to) {
    return evenOdds(pos.rules(), pos.at(from).creature(), pos.at(to).creature());
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

// What the greedy player makes of a decision; `cautious` leaves out the attacks below even
// odds (nothing: they count as no decision at all, so the player moves instead).
std::optional<double> greedyValue(const Position& pos, Event e, bool cautious) {
    if (pos.rules().courtier()) {
        // Courtier has no attacks: a step is worth what it takes (a Guard 1; the King ends
        // the game), less the mover if it goes in a double capture.
        const Player decider = pos.decider();
        Position child = pos;
        child.apply(e);
        const double won =
            child.isOver()
                ? 100.0 * (child.winProbability(decider) - child.winProbability(opponent(decider)))
                : 0.0;
        const int taken =
            pos.pieces(opponent(decider)).count() - child.pieces(opponent(decider)).count();
        const int lost = pos.pieces(decider).count() - child.pieces(decider).count();
        return won + taken - lost;
    }
    switch (e.kind()) {
        case EventKind::Attack:
            if (cautious && !evenOdds(pos, e.from(), e.to())) return std::nullopt;
            return attackGain(pos, e.from(), e.to());
        case EventKind::Place: {
            // The pushed piece is always the decider's enemy: put it where it threatens
            // least and is most exposed.
            const Player decider = pos.decider();
            Position child = pos;
            child.apply(e);
            return bestThreat(child, decider) - bestThreat(child, opponent(decider));
        }
        default:
            return 0.0;
    }
}

// The greedy choice, ties broken by rngState.
Event bestDecision(const Position& pos, std::uint64_t& rngState, bool cautious) {
    if (pos.isOver() || pos.chanceDue()) return Event();
    EventList events;
    pos.generate(events);
    BestPicker picker(rngState);
    bool offered = false;
    for (const Event e : events)
        if (const auto v = greedyValue(pos, e, cautious)) {
            picker.offer(e, *v);
            offered = true;
        }
    // Only attacks below even odds are legal (a piece boxed in with one action left): one
    // must be chosen, so the best of them it is.
    if (!offered) return bestDecision(pos, rngState, false);
    return picker.choice();
}

// The events tied for greedy's best value (BestPicker's tolerance).
void bestChoices(const Position& pos, bool cautious, EventList& out) {
    EventList events;
    pos.generate(events);
    std::array<std::optional<double>, EventList::kCapacity> values;
    double best = 0;
    bool any = false;
    for (int i = 0; i < events.size(); ++i)
        if ((values[i] = greedyValue(pos, events[i], cautious))) {
            best = any ? std::max(best, *values[i]) : *values[i];
            any = true;
        }
    if (!any) return bestChoices(pos, false, out);
    constexpr double kTolerance = 1e-12;
    for (int i = 0; i < events.size(); ++i)
        if (values[i] && *values[i] >= best - kTolerance) out.push(events[i]);
}

}  // namespace

std::optional<Baseline> parseBaseline(std::string_view name) {
    for (std::size_t i = 0; i < kBaselineNames.size(); ++i)
        if (kBaselineNames[i] == name) return static_cast<Baseline>(i);
    return std::nullopt;
}

std::string notABaseline(std::string_view name) {
    std::string list;
    for (const auto baseline : kBaselineNames)
        list += (list.empty() ? "" : ", ") + std::string(baseline);
    return "'" + std::string(name) + "' is not a baseline player (" + list + ")";
}

Event randomDecision(const Position& pos, std::uint64_t& rngState) {
    if (pos.isOver() || pos.chanceDue()) return Event();
    EventList events;
    pos.generate(events);
    if (events.empty()) return Event();
    return events[static_cast<int>(
        uniformBelow(rngState, static_cast<std::uint64_t>(events.size())))];
}

Event greedyDecision(const Position& pos, std::uint64_t& rngState) {
    return bestDecision(pos, rngState, false);
}

Event cautiousDecision(const Position& pos, std::uint64_t& rngState) {
    return bestDecision(pos, rngState, true);
}

void baselineChoices(Baseline player, const Position& pos, EventList& out) {
    out.clear();
    if (pos.isOver() || pos.chanceDue()) return;
    if (player == Baseline::Random)
        pos.generate(out);
    else
        bestChoices(pos, player == Baseline::Cautious, out);
}

bool mayChooseAttack(Baseline player, const Rules& rules, Creature attacker, Creature defender) {
    if (player == Baseline::Random) return true;
    if (player == Baseline::Cautious && !evenOdds(rules, attacker, defender)) return false;
    // Moves are worth 0 to greedy: an attack is chosen only at a gain of 0 or more, in some
    // arrangement of boxed-in pieces.
    return gainRange(rules, attacker, defender).second >= 0;
}

race::Opponent raceModel(Baseline player, const Rules& rules) {
    race::Opponent model;
    model.mayChoose = [player, &rules](Creature attacker, Creature defender) {
        return mayChooseAttack(player, rules, attacker, defender);
    };
    // Random declares any of a boxed-in side's attacks; greedy and cautious one of the best
    // (bestChoices: cautious those at even odds first, if it has any).
    if (player == Baseline::Random) return model;
    model.forced = [player, &rules](Creature attacker, Creature defender) {
        // Above any difference of two gains: the even-odds attacks come first.
        constexpr double kEvenFirst = 1e3;
        const auto [low, high] = gainRange(rules, attacker, defender);
        const double first =
            player == Baseline::Cautious && evenOdds(rules, attacker, defender) ? kEvenFirst : 0;
        return std::pair{low + first, high + first};
    };
    return model;
}

ChoicesModel choicesModel(Baseline player) {
    return [player](const Position& pos, EventList& out) { baselineChoices(player, pos, out); };
}

Event baselineDecision(Baseline player, const Position& pos, std::uint64_t& rngState) {
    switch (player) {
        case Baseline::Random:
            return randomDecision(pos, rngState);
        case Baseline::Greedy:
            return greedyDecision(pos, rngState);
        case Baseline::Cautious:
            return cautiousDecision(pos, rngState);
    }
    return Event();
}

}  // namespace dejarik::search
