// Every attack in a player's games, by who made it and how the two pieces came to stand next
// to each other, with what it removed (docs/arena.md, "Attacks"): where a baseline's attacks
// on the engine come from, and how the engine's own attacks go.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "game.h"

namespace dejarik::arena {

// How an attacker and its defender came to be next to each other, seen from the attacker's
// turn; the first that applies.
enum class AttackSource : std::uint8_t {
    Approached,           // the attacker moved there earlier in this turn
    PlacedNow,            // either piece was placed there earlier in this turn (after a push)
    DefenderMoved,        // the defender's side moved the defender there in its last turn
    AfterDefenderAttack,  // the defender's side attacked in its last turn with the defender or
                          // on the attacker, or placed either piece there
    LeftNextTo,           // they stood next to each other before the defender's last turn
};
inline constexpr int kAttackSources = 5;

struct AttackTally {
    std::int64_t attacks = 0;
    std::int64_t defenderRemoved = 0;  // a kill, or a push of a boxed-in piece that kills
    std::int64_t attackerRemoved = 0;  // a counter-kill, or such a counter-push
};

struct Attacks {
    std::int64_t games = 0;
    // [0] the player's attacks, [1] the other side's, each by AttackSource.
    std::array<std::array<AttackTally, kAttackSources>, 2> bySide{};
};

// Reads every finished record that `player` plays in. Error: a record that does not replay,
// no game of the player.
[[nodiscard]] std::optional<Attacks> analyseAttacks(const std::vector<GameRecord>& records,
                                                    const std::string& player, std::string& error);
[[nodiscard]] std::string formatAttacks(const Attacks& attacks, const std::string& player);

}  // namespace dejarik::arena
