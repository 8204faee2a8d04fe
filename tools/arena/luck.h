// The arena's dice: seeded, reproducible, and shared between the two games of a pair.
//
// Every attack is decided by one uniform number u in [0, 1). All rolls of the attack's dice
// (every tuple of faces, equally likely) are put in one order, from the attacker's best
// margin to its worst, and u picks the roll at its quantile. So u alone fixes the real dice,
// the outcome follows from them exactly as RULES §6–§7 say, and the outcome has exactly the
// probabilities of dice.h; the dice are a uniform sample of the rolls that give that
// outcome. Two attacks decided by the same u are equally lucky for their attackers, which is
// what the duplicate format relies on: game 1 and game 2 of a pair read the same u_k for
// their k-th attack.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dice.h"
#include "position.h"
#include "rules.h"

namespace dejarik::arena {

// A 128-bit fraction of one: u = (hi * 2^64 + lo) / 2^128. With 128 bits, picking a roll
// out of at most 6^16 is exact to within 2^-86.
struct Uniform {
    std::uint64_t hi = 0;
    std::uint64_t lo = 0;
    // floor(u * n), for n >= 1.
    [[nodiscard]] std::uint64_t below(std::uint64_t n) const;
    [[nodiscard]] double value() const;
    bool operator==(const Uniform&) const = default;
};

// A stateless keyed generator: the same key and index always give the same number.
[[nodiscard]] std::uint64_t mixKey(std::uint64_t key, std::uint64_t value);

enum class DiceMode : std::uint8_t {
    Duplicate,    // both games of a pair share the attack numbers u_k
    Independent,  // each game has its own numbers: the baseline the duplicate format beats
};
[[nodiscard]] std::string_view diceModeName(DiceMode mode);
[[nodiscard]] std::optional<DiceMode> parseDiceMode(std::string_view name);

// One side's dice in an attack or a showdown round: its score is `bonus` plus the faces.
struct SideRoll {
    int bonus = 0;
    std::vector<int> sides;  // the kind of each die (6, 20, 10, 4 ...)
    std::vector<int> faces;  // what each die shows
    [[nodiscard]] int score() const;
    // "6+5+1=12", or "6+14+3=23" where 6 is the rating of d20 and 2d10
    [[nodiscard]] std::string str() const;
};

// A rolled attack. For split-d6 the one die is `die`, and the scores are r + attack and
// (7 - r) + defence unless the die itself decides (6 kills, 1 counter-kills).
struct AttackRoll {
    DiceModel model = DiceModel::Pools;
    Outcome outcome = Outcome::Kill;
    SideRoll attacker;
    SideRoll defender;
    int die = 0;  // split-d6 only
    // The record comment, e.g. "L 6+5+4+1+3+2+6+5=32 vs t 3+3+2+1+4+5+6=24".
    [[nodiscard]] std::string describe(char attackerLetter, char defenderLetter) const;
};

// The number of equally likely rolls of an attack (face tuples of both sides).
[[nodiscard]] std::uint64_t rollCount(DiceModel model, int attack, int defence);

// The roll of rank `rank` (0 <= rank < rollCount) in the order of all rolls of `attack`
// against `defence` from the attacker's best margin to its worst (split-d6: faces 6 down
// to 1); within a margin, higher attack scores first, then the face tuples in
// lexicographic order.
[[nodiscard]] AttackRoll rollAttackRank(DiceModel model, int attack, int defence,
                                        std::uint64_t rank);

// The roll at quantile u: rollAttackRank(floor(u * rollCount)).
[[nodiscard]] AttackRoll rollAttack(DiceModel model, int attack, int defence, Uniform u);

// The u of each attack of a game: keyed by seed and round, and by the game within the pair
// only in the independent mode.
class LuckStream {
  public:
    LuckStream(std::uint64_t seed, std::uint64_t round, int gameInPair, DiceMode mode);
    // The number of `attacker`'s index-th attack (counted per player, from 0).
    [[nodiscard]] Uniform attack(Player attacker, std::uint64_t index) const;
    // The showdown's own stream: a number per die, per round.
    [[nodiscard]] std::uint64_t showdownWord(std::uint64_t round, std::uint64_t die) const;
    // Rays of Death: the index-th roll of the game, a D4 and a D12 (docs/rules.md).
    struct RayRoll {
        int d4 = 1;
        int d12 = 1;
        // The combat cell the pair rolls (rays::rollCell).
        [[nodiscard]] Cell cell() const;
        // The record comment, e.g. "d4 2 d12 7": the arena's and the GUI's.
        [[nodiscard]] std::string describe() const;
    };
    [[nodiscard]] RayRoll rayRoll(std::uint64_t index) const;

  private:
    std::uint64_t attackKey_;
    std::uint64_t showdownKey_;
    std::uint64_t rayKey_;
};

// The material the attacking player gains by each outcome of the pending attack of `pos`
// (an outcome is due), a piece being worth the sum of its attack and defence ratings;
// pushes are worth nothing unless the pushed piece is boxed in and BlockedPush kills it.
// The luck of an outcome is its value minus the expected value: zero on average, whatever
// the players do, which is what makes it a control variate (tournament statistics).
[[nodiscard]] std::array<double, 4> outcomeMaterial(const Position& pos);
[[nodiscard]] double attackLuck(const Position& pos, Outcome outcome);

// A showdown played out with real dice (RULES §8.2).
struct ShowdownRoll {
    // Player 1 wins, player 2 wins, or neither (no round can ever decide: a draw).
    std::optional<Player> winner;
    int rounds = 0;
    std::string comment;
    // Player 1's result: +1, 0 or -1.
    [[nodiscard]] double result() const { return winner ? perspective(*winner) : 0.0; }
};
[[nodiscard]] ShowdownRoll rollShowdown(const Rules& rules, Creature p1, Creature p2,
                                        const LuckStream& luck);

}  // namespace dejarik::arena
