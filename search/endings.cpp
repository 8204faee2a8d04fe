#include "endings.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "symmetry.h"

namespace dejarik::search {

namespace {

// The solutions' tolerance: far below any difference a decision turns on.
constexpr double kTolerance = 1e-7;

// The value, for player 1, of any position of the ending at any phase: finished games by
// their result, chance nodes by their outcomes' weights, placements as the solution weighs
// them (tables::choicesAt: player 1 the best, the baseline each of its choices equally),
// decisions from the solved sets at their quiet counter.
double valueOf(const Position& pos, const tables::PolicySets& sets,
               const tables::PolicyChoices& policy) {
    if (pos.isOver()) return pos.winProbability(Player::One) - pos.winProbability(Player::Two);
    switch (pos.phase()) {
        case Phase::Outcome:
            return *expectOverOutcomes(pos, [&](const Position& after) {
                return std::optional<double>(valueOf(after, sets, policy));
            });
        case Phase::Placement: {
            const auto [events, weight, mine] = tables::choicesAt(pos, policy);
            double best = -std::numeric_limits<double>::infinity(), sum = 0;
            for (const Event q : events) {
                Position placed = pos;
                placed.apply(q);
                const double v = valueOf(placed, sets, policy);
                best = std::max(best, v);
                sum += v;
            }
            return mine ? best : sum * weight;
        }
        case Phase::Decision:
            if (const auto v = sets.value(pos)) return *v;
            throw std::logic_error("endings: no solved value for " + pos.dfen());
        default:
            throw std::logic_error("endings: a phase the endings do not have at " + pos.dfen());
    }
}

std::vector<Creature> sorted(std::vector<Creature> army) {
    std::ranges::sort(army);
    return army;
}

// The decider as player 1: the colours swapped when it is player 2 (the events stay the
// same, a swap moves no cell).
Position deciderFirst(const Position& pos) {
    return pos.decider() == Player::Two ? transform(pos, Transform{{}, true}) : pos;
}

}  // namespace

bool EndingPlayer::applies(const Position& pos) {
    const Rules& rules = pos.rules();
    if (rules.drawTurns() <= 0 || rules.centreWin() > 0 || rules.raysOfDeath() || rules.courtier())
        return false;
    if (pos.isOver() || (pos.phase() != Phase::Decision && pos.phase() != Phase::Placement))
        return false;
    const int n = pos.occupied().count();
    return n >= 3 && n <= tables::kDefaultMaxPieces;
}

bool EndingPlayer::holds(const Position& seen, Baseline against) const {
    // The ending solved before holds every set its captures reach.
    return last_ && last_->rules == seen.rules().fingerprint() && last_->against == against &&
           std::ranges::includes(last_->decider, sorted(seen.army(Player::One))) &&
           std::ranges::includes(last_->other, sorted(seen.army(Player::Two)));
}

bool EndingPlayer::solvedFor(const Position& pos, Baseline against) const {
    return applies(pos) && holds(deciderFirst(pos), against);
}

const tables::PolicySets& EndingPlayer::setsFor(const Position& seen, Baseline against,
                                                const std::atomic<bool>* cancel, bool& solved) {
    solved = false;
    if (holds(seen, against)) return *last_->sets;
    const std::vector<Creature> mine = sorted(seen.army(Player::One));
    const std::vector<Creature> theirs = sorted(seen.army(Player::Two));
    const tables::PolicyChoices policy = choicesModel(against);
    auto sets = std::make_unique<tables::PolicySets>(
        seen.rules(), mine, theirs, policy, tables::Objective::Result, kTolerance, 1, true, cancel);
    last_ = Solved{seen.rules().fingerprint(), against, mine, theirs, std::move(sets)};
    solved = true;
    return *last_->sets;
}

std::optional<EndingDecision> EndingPlayer::decide(const Position& pos, Baseline against,
                                                   const std::atomic<bool>* cancel) {
    if (!applies(pos)) return std::nullopt;
    const Position seen = deciderFirst(pos);
    EndingDecision out;
    const tables::PolicySets& sets = setsFor(seen, against, cancel, out.solved);
    const tables::PolicyChoices policy = choicesModel(against);
    EventList events;
    seen.generate(events);
    double best = -std::numeric_limits<double>::infinity();
    for (const Event e : events) {
        Position child = seen;
        child.apply(e);
        const double v = valueOf(child, sets, policy);
        if (v > best) {
            best = v;
            out.best = e;
        }
    }
    out.value = best;
    return out;
}

}  // namespace dejarik::search
