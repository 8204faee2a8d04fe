// Where a player's games stopped being winnable on material: each record replayed, with the
// race bound (src/race.h) of the player's army against the other's after every kill; the
// kill after which it first fell below a threshold, and by whose attack (docs/arena.md,
// "Ends").
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "baselines.h"
#include "game.h"
#include "race.h"

namespace dejarik::arena {

struct EndsOptions {
    std::string player;                       // the engine whose games are read (required)
    std::optional<search::Baseline> against;  // the other side as this model (race::bound)
    race::Boxing boxing = race::Boxing::WhereArmiesAllow;
    double below = 0.6;  // the bound the fall is counted at
    int most = 12;       // the most common falls listed
};

// How the bound first fell below the threshold in a game (or did not).
enum class Fall { OwnAttackLost, TheirAttackWon, OwnAttackWon, TheirAttackLost, Never, NeverAbove };
inline constexpr int kFalls = 6;

struct EndsRow {
    std::int64_t games = 0;
    double startBound = 0;      // summed, then the mean
    double finalBound = 0;      // summed, then the mean
    std::int64_t finalLow = 0;  // games whose final armies are below the threshold
    std::array<std::int64_t, kFalls> falls{};
};

struct Ends {
    std::array<EndsRow, 3> byResult;  // the player's games won, drawn, lost
    // The armies before and after the fall ("3v1 LKS/n -> 2v1 KS/n"), whose attack, counted.
    std::map<std::string, std::int64_t> fallArmies;
};

// Reads every finished record that `options.player` plays in. Error: a record that does not
// replay, rules that decide by more than material, no game of the player.
[[nodiscard]] std::optional<Ends> analyseEnds(const std::vector<GameRecord>& records,
                                              const EndsOptions& options, std::string& error);
[[nodiscard]] std::string formatEnds(const Ends& ends, const EndsOptions& options);

}  // namespace dejarik::arena
