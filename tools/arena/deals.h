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

// A deal file: one DFEN a line; blank lines and lines starting with '#' are skipped. Every
// DFEN must parse under `rules` and name a game that is not over yet.
[[nodiscard]] std::optional<std::vector<std::string>> parseDeals(std::string_view text,
                                                                 const Rules& rules,
                                                                 std::string& error);
[[nodiscard]] std::optional<std::vector<std::string>> readDealFile(const std::string& path,
                                                                   const Rules& rules,
                                                                   std::string& error);

}  // namespace dejarik::arena
