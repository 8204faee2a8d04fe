// Combat and showdown odds as text: the protocol's `odds` lines and the exact tables of the
// `odds` subcommand (the format of PERFT.md "Odds samples").
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "baselines.h"
#include "dice.h"
#include "material.h"
#include "position.h"
#include "race.h"

namespace dejarik::protocol {

// num/den rounded half up to `places` decimals, computed exactly rather than through a
// double, so ties such as 1/128 round the same way everywhere.
[[nodiscard]] std::string decimal(Fraction f, int places);

// `odds b4xa kill 0.231500 push ... counterkill ...`: the outcome chances of an attack
// between the pieces on `attack`'s cells under the position's rules.
[[nodiscard]] std::string oddsLine(const Position& pos, Event attack);

// `odds roll a 0.500000 b1 0.020833 ...`: the chances of Rays of Death's roll of the
// combat cell, a D4 and a D12 (docs/rules.md), every cell in board order.
[[nodiscard]] std::string rollOddsLine(const Position& pos);

// The exact outcome table of an attack rating against a defence rating:
//   dice=pools attack=2 defence=2
//   kill                              35/1296  0.027006
//   ...
//   sum                                     1
[[nodiscard]] std::vector<std::string> oddsTable(DiceModel model, int attack, int defence);

// The showdown of player 1's piece (best rating p1) against player 2's: the round odds and
// each player's chance to win the game.
[[nodiscard]] std::vector<std::string> showdownTable(DiceModel model, int p1Rating, int p2Rating);

// The race bound (src/race.h) as text: with `armies` (player 1's creatures, player 2's) one
// line for each player; without, one line for each split of the creatures a deal makes
// (RULES §3: every four of the eight for player 1, equally likely; holochess and a creature
// file keep their start groups) and, when there are several, their mean, for player 1.
// Empty when the rules decide games by more than material.
struct Armies {
    std::vector<Creature> one, two;
};
// With `opponent`, the other side makes only the attacks the model allows, where `boxing`
// says (race::bound). With `exact` (and `armies`, or rules with one split), the armies of
// up to `maxPieces` creatures (four unless asked) take the most the player scores from any of
// their positions against that baseline, solved exactly with the quiet draw on `threads`
// threads (tables/policy.h): a bound against that baseline only, and a tighter one. Where
// `largest` names sets of maxPieces creatures (the player's sub-army as side a, either
// player's), only those of that size are solved, the others keep the race's value; a set
// of neither player's armies is an error. `progress` hears each solution's sets as they are
// solved: what is being solved, sets done, sets in all.
struct ExactEndings {
    search::Baseline player;
    int threads = 1;
    int maxPieces = tables::kDefaultMaxPieces;
    std::vector<tables::Material> largest;
    std::function<void(const std::string&, std::size_t, std::size_t)> progress;
};
[[nodiscard]] std::vector<std::string> raceLines(
    const Rules& rules, const std::optional<Armies>& armies, const race::Opponent& opponent = {},
    race::Boxing boxing = race::Boxing::WhereArmiesAllow,
    const std::optional<ExactEndings>& exact = std::nullopt);

}  // namespace dejarik::protocol
