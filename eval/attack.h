// The gain of one attack: its outcomes' odds times what each outcome is worth to the
// attacker's side. The one formula behind the evaluator's threats, exposure and pending
// attack, the search's attack ordering and the greedy baseline player; each brings its own
// worths (the evaluator's attrition worths, the search's and the greedy player's ratings).
#pragma once

#include <array>

#include "dice.h"
#include "rules.h"

namespace dejarik::eval {

// What the outcomes of an attack are worth to the attacker's side.
struct AttackStakes {
    double defender = 0;  // what losing the defender costs the defender's side
    double attacker = 0;  // what losing the attacker costs the attacker's side
    // What a push that does not kill wins the attacker's side; a counter-push that does not
    // kill costs it as much.
    double displacement = 0;
};

// Which pieces have no free cell to be pushed to when the attack is settled: under
// BlockedPush such a push (kill, kill-on-push) or counter-push (kill) kills the piece.
struct Boxed {
    bool defender = false;
    bool attacker = false;
};

// The expected gain, in the stakes' units, of an attack with these outcome odds
// (Rules::combat(attacker, defender).probability).
[[nodiscard]] constexpr double attackGain(const std::array<double, 4>& odds,
                                          const AttackStakes& stakes, BlockedPush policy,
                                          Boxed boxed) {
    const bool pushKills = policy != BlockedPush::Stay && boxed.defender;
    const bool counterPushKills = policy == BlockedPush::Kill && boxed.attacker;
    const double push = odds[static_cast<int>(Outcome::Push)];
    const double counterPush = odds[static_cast<int>(Outcome::CounterPush)];
    // Added only where they kill (not as "+ 0.0", which the compiler may not drop).
    double kill = odds[static_cast<int>(Outcome::Kill)];
    double killed = odds[static_cast<int>(Outcome::CounterKill)];
    if (pushKills) kill += push;
    if (counterPushKills) killed += counterPush;
    double gain = kill * stakes.defender - killed * stakes.attacker;
    if (stakes.displacement != 0)
        gain += stakes.displacement *
                ((pushKills ? 0.0 : push) - (counterPushKills ? 0.0 : counterPush));
    return gain;
}

}  // namespace dejarik::eval
