// Exact combat odds (RULES §7) and showdown odds (RULES §8.2).
//
// Every distribution is an exact count of equally likely rolls, built by integer
// convolution of the dice, so probabilities are exact rationals. The largest case, pools
// with 8 dice against 8 dice, has 6^16 < 2^42 rolls: 64-bit counts never overflow.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dejarik {

enum class DiceModel : std::uint8_t { Pools, D20, TwoD10, SplitD6 };
// The models' names, in DiceModel order (the values of the Dice option).
inline constexpr std::array<std::string_view, 4> kDiceModelNames = {"pools", "d20", "2d10",
                                                                    "split-d6"};

[[nodiscard]] std::string_view diceModelName(DiceModel model);
[[nodiscard]] std::optional<DiceModel> parseDiceModel(std::string_view name);

// The four combat outcomes, in the order used for every table and event list.
enum class Outcome : std::uint8_t { Kill, Push, CounterPush, CounterKill };
inline constexpr std::array<Outcome, 4> kOutcomes = {Outcome::Kill, Outcome::Push,
                                                     Outcome::CounterPush, Outcome::CounterKill};
[[nodiscard]] std::string_view outcomeName(Outcome outcome);

// A reduced non-negative fraction.
struct Fraction {
    std::uint64_t num = 0;
    std::uint64_t den = 1;

    [[nodiscard]] static Fraction reduced(std::uint64_t num, std::uint64_t den);
    [[nodiscard]] double value() const {
        return static_cast<double>(num) / static_cast<double>(den);
    }
    [[nodiscard]] std::string str() const;  // "3/4", "1", "0"
    bool operator==(const Fraction&) const = default;
};

// The distribution of one side's score: counts[i] rolls give score offset + i.
struct ScoreDistribution {
    int offset = 0;
    std::vector<std::uint64_t> counts;
    [[nodiscard]] std::uint64_t total() const;
};

// The score of a side with this rating under pools, d20 or 2d10 (split-d6 has no
// independent scores: one die serves both sides).
[[nodiscard]] ScoreDistribution scoreDistribution(DiceModel model, int rating);

// Outcome counts of one attack out of `total` equally likely rolls.
struct AttackOdds {
    std::array<std::uint64_t, 4> counts{};
    std::uint64_t total = 0;

    [[nodiscard]] std::uint64_t count(Outcome o) const { return counts[static_cast<int>(o)]; }
    [[nodiscard]] Fraction fraction(Outcome o) const { return Fraction::reduced(count(o), total); }
    [[nodiscard]] double probability(Outcome o) const {
        return static_cast<double>(count(o)) / static_cast<double>(total);
    }
};

[[nodiscard]] AttackOdds attackOdds(DiceModel model, int attack, int defence);

// One showdown round between the last two pieces, each with its highest rating.
struct ShowdownOdds {
    std::uint64_t p1Round = 0;  // rolls in which player 1's piece wins the round
    std::uint64_t p2Round = 0;
    std::uint64_t total = 0;

    // No round can ever decide: the game is drawn (RULES §8.2 decision).
    [[nodiscard]] bool drawn() const { return p1Round + p2Round == 0; }
    [[nodiscard]] Fraction p1Wins() const;
    [[nodiscard]] Fraction p2Wins() const;
};

[[nodiscard]] ShowdownOdds showdownOdds(DiceModel model, int p1Rating, int p2Rating);

}  // namespace dejarik
