// Baseline players for measuring the engine (issue: arena): no search at all.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "position.h"
#include "race.h"

namespace dejarik::search {

// The baseline players, each named as the `Player` option and the arena's `builtin=` call it.
enum class Baseline : std::uint8_t { Random, Greedy, Cautious };
inline constexpr std::array<std::string_view, 3> kBaselineNames = {"random", "greedy", "cautious"};
[[nodiscard]] std::optional<Baseline> parseBaseline(std::string_view name);
// What a command says of a name parseBaseline refuses: "'timid' is not a baseline player
// (random, greedy, cautious)".
[[nodiscard]] std::string notABaseline(std::string_view name);
// The values of an option that is `first` or a baseline's name, `first` the default.
[[nodiscard]] constexpr std::array<std::string_view, kBaselineNames.size() + 1> withBaselines(
    std::string_view first) {
    std::array<std::string_view, kBaselineNames.size() + 1> names{first};
    for (std::size_t i = 0; i < kBaselineNames.size(); ++i)
        names[i + 1] = kBaselineNames[i];
    return names;
}

// A uniformly random legal decision of the position (decision or placement point).
[[nodiscard]] Event randomDecision(const Position& pos, std::uint64_t& rngState);

// The decision with the best immediate expected material gain for the deciding player
// (attacks by their exact outcome odds, placements by what they expose; in Courtier the
// pieces a step captures, a King capture above all), no look-ahead; ties broken by
// rngState.
[[nodiscard]] Event greedyDecision(const Position& pos, std::uint64_t& rngState);

// The greedy player that never attacks below even odds: an attack is declared only when the
// attacker wins the roll (kill or push) at least as often as it loses it (counter-push or
// counter-kill), a push onto a boxed-in piece that kills counting as a kill. A passive
// opponent, which exposes a player that cannot convert a lead it is handed.
[[nodiscard]] Event cautiousDecision(const Position& pos, std::uint64_t& rngState);

// The decisions `player` chooses among, each equally likely: every legal one for random, the
// ones tied for the best value for greedy and cautious. What a search that models this
// player averages over (search::Options::opponent).
void baselineChoices(Baseline player, const Position& pos, EventList& out);

// Whether `player` may ever choose an attack of its `attacker` on the other side's `defender`
// while it has a legal move (random: always; greedy: when it gains material in expectation
// for some arrangement of boxed-in pieces; cautious: that, and at even odds). Without a legal
// move a player must attack whatever the odds (RULES §4). What race::bound's opponent model
// is made of.
[[nodiscard]] bool mayChooseAttack(Baseline player, const Rules& rules, Creature attacker,
                                   Creature defender);

// mayChooseAttack as race::bound's opponent model, with what `player` declares when it must
// attack (greedy and cautious: bestChoices' values of the attacks); `rules` must outlive it.
[[nodiscard]] race::Opponent raceModel(Baseline player, const Rules& rules);

// baselineChoices as the fixed player of an exact solution (tables::PolicyChoices, whose
// type this is: the tables do not know the baselines).
using ChoicesModel = std::function<void(const Position&, EventList&)>;
[[nodiscard]] ChoicesModel choicesModel(Baseline player);

// The decision of `player`.
[[nodiscard]] Event baselineDecision(Baseline player, const Position& pos, std::uint64_t& rngState);

}  // namespace dejarik::search
