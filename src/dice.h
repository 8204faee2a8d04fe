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

// Kill and counter-kill need a margin of 7 (RULES §6).
inline constexpr int kKillMargin = 7;
// The outcome of an attack by its margin, the attack score minus the defence score (§6).
[[nodiscard]] Outcome outcomeOfMargin(int margin);
// split-d6 (RULES §7): the outcome when the one die shows `face` (6 kills, 1 counter-kills,
// else face + attack against (7 - face) + defence).
[[nodiscard]] Outcome splitD6Outcome(int face, int attack, int defence);
// The winner of a showdown round by its margin, player 1's score minus player 2's (RULES
// §8.2): +1 player 1, -1 player 2, 0 nobody (the round is rolled again).
[[nodiscard]] int showdownRoundWinner(DiceModel model, int margin);

// The dice of one side (RULES §7): its score is `bonus` plus the faces.
struct SideDice {
    int bonus = 0;
    std::vector<int> sides;  // the kind of each die (6, 20, 10, 8, 4)
};
// pools: `rating` d6; d20: rating + d20 + the secondary die of the rating; 2d10: rating +
// 2d10 + the secondary die; split-d6: rating + one d6 (in an attack the two sides share
// the die, the defender reading 7 minus its face; in a showdown each rolls its own).
[[nodiscard]] SideDice sideDice(DiceModel model, int rating);

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

// The score of a side with this rating: the sum of sideDice(). Under split-d6 that is a
// showdown side's score; an attack's two split-d6 scores share their die instead.
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
