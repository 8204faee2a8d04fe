// Deals (RULES §3): the "openings" of a tournament.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules.h"

namespace dejarik::arena {

// The deal of a round, a function of seed and round alone, as a DFEN. The eight creatures
// are split four and four at random and put in random order on c2..c5 (player 1) and
// c8..c11 (player 2): a uniform permutation, so each of the 70 x 24 x 24 deals is equally
// likely. Holochess keeps its two groups (group 1 for player 1) and shuffles each. Courtier
// has one start (RULES §14.3) and no dice: its deals are the start after kCourtierOpening
// random moves, so that the rounds of deterministic engines differ.
[[nodiscard]] std::string randomDeal(Ruleset ruleset, std::uint64_t seed, std::uint64_t round);
inline constexpr int kCourtierOpening = 4;

// The same under the rules in force: with a creature file (RULES §16) each player keeps the
// creatures of its start group, shuffled (a set's designer chose the groups; a mirror set
// stays a mirror); otherwise randomDeal(rules.ruleset(), ...). With Setup arrange (RULES
// §15) the same creatures go into the players' reserves, set-up pending.
[[nodiscard]] std::string randomDeal(const Rules& rules, std::uint64_t seed, std::uint64_t round);

// A deal file: one DFEN a line; blank lines and lines starting with '#' are skipped. Every
// DFEN must parse under `rules` and name a game that is not over yet.
[[nodiscard]] std::optional<std::vector<std::string>> parseDeals(std::string_view text,
                                                                 const Rules& rules,
                                                                 std::string& error);
[[nodiscard]] std::optional<std::vector<std::string>> readDealFile(const std::string& path,
                                                                   const Rules& rules,
                                                                   std::string& error);

}  // namespace dejarik::arena
