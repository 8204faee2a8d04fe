// The gain of one attack: its outcomes' odds times what each outcome is worth to the
// attacker's side. The one formula behind the evaluator's threats, exposure and pending
// attack, the search's attack ordering and the greedy baseline player; each brings its own
// worths (the evaluator's attrition worths, the search's and the greedy player's ratings).
#pragma once

#include <array>

#include "board.h"
#include "dice.h"
#include "position.h"
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

// Which pieces of the attack `from` -> `to` in `pos` have no free cell next to them.
[[nodiscard]] inline Boxed boxedIn(const Position& pos, Cell from, Cell to) {
    const Bitboard empty = pos.emptyCells();
    return {(board::adjacent(to) & empty).empty(), (board::adjacent(from) & empty).empty()};
}

// Whether a push kills the defender, and a counter-push the attacker: the one statement of
// BlockedPush's kill rule, for every caller that values an attack's outcomes.
[[nodiscard]] constexpr bool pushKills(BlockedPush policy, Boxed boxed) {
    return policy != BlockedPush::Stay && boxed.defender;
}
[[nodiscard]] constexpr bool counterPushKills(BlockedPush policy, Boxed boxed) {
    return policy == BlockedPush::Kill && boxed.attacker;
}

// The chances that an attack with these outcome odds removes the defender (a kill, or a push
// that kills it) and the attacker (a counter-kill, or a counter-push that kills it).
struct DecisiveOdds {
    double defenderDies = 0;
    double attackerDies = 0;
};

[[nodiscard]] constexpr DecisiveOdds decisiveOdds(const std::array<double, 4>& odds,
                                                  BlockedPush policy, Boxed boxed) {
    DecisiveOdds d{odds[static_cast<int>(Outcome::Kill)],
                   odds[static_cast<int>(Outcome::CounterKill)]};
    // Added only where they kill (not as "+ 0.0", which the compiler may not drop).
    if (pushKills(policy, boxed)) d.defenderDies += odds[static_cast<int>(Outcome::Push)];
    if (counterPushKills(policy, boxed))
        d.attackerDies += odds[static_cast<int>(Outcome::CounterPush)];
    return d;
}

// The attacker's share of the attack's decisive outcomes: the chance that, if it removes a
// piece, the piece is the defender; one half when it can remove none.
[[nodiscard]] constexpr double decisiveShare(const std::array<double, 4>& odds, BlockedPush policy,
                                             Boxed boxed) {
    const DecisiveOdds d = decisiveOdds(odds, policy, boxed);
    const double decisive = d.defenderDies + d.attackerDies;
    return decisive > 0 ? d.defenderDies / decisive : 0.5;
}

// The expected gain, in the stakes' units, of an attack with these outcome odds
// (Rules::combat(attacker, defender).probability).
[[nodiscard]] constexpr double attackGain(const std::array<double, 4>& odds,
                                          const AttackStakes& stakes, BlockedPush policy,
                                          Boxed boxed) {
    const DecisiveOdds d = decisiveOdds(odds, policy, boxed);
    double gain = d.defenderDies * stakes.defender - d.attackerDies * stakes.attacker;
    if (stakes.displacement != 0) {
        const double push = odds[static_cast<int>(Outcome::Push)];
        const double counterPush = odds[static_cast<int>(Outcome::CounterPush)];
        gain += stakes.displacement * ((pushKills(policy, boxed) ? 0.0 : push) -
                                       (counterPushKills(policy, boxed) ? 0.0 : counterPush));
    }
    return gain;
}

}  // namespace dejarik::eval
