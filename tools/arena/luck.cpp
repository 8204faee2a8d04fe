#include "luck.h"

#include <fmt/format.h>

#include <algorithm>

#include <cassert>

#include "attack.h"
#include "names.h"
#include "rays.h"

namespace dejarik::arena {

namespace {

using U128 = unsigned __int128;

constexpr NameTable<DiceMode, 2> kDiceModeNames{{"duplicate", "independent"}};

// Separate the attack and showdown streams of the same round.
constexpr std::uint64_t kAttackTag = 0xA77AC4ull;
constexpr std::uint64_t kShowdownTag = 0x5D0ull;
constexpr std::uint64_t kRayTag = 0x5A75ull;

// After this many undecided showdown rounds the exact odds decide instead; the chance of
// getting here with any ratings of the rulesets is far below 10^-100.
constexpr int kMaxShowdownRounds = 100000;

// counts[s] = the number of face tuples of `sides` summing to s (s from 0, the unused low
// sums stay zero).
std::vector<std::uint64_t> faceSumCounts(const std::vector<int>& sides) {
    std::vector<std::uint64_t> counts{1};
    for (const int n : sides) {
        std::vector<std::uint64_t> next(counts.size() + static_cast<std::size_t>(n), 0);
        for (std::size_t s = 0; s < counts.size(); ++s)
            for (int v = 1; v <= n; ++v)
                next[s + static_cast<std::size_t>(v)] += counts[s];
        counts = std::move(next);
    }
    return counts;
}

// The face tuple of rank `rank` (lexicographic) among the tuples of `sides` summing to sum.
std::vector<int> unrankFaces(const std::vector<int>& sides, int sum, std::uint64_t rank) {
    const std::size_t n = sides.size();
    // suffix[i][s]: tuples of dice i..n-1 summing to s.
    std::vector<std::vector<std::uint64_t>> suffix(n + 1);
    suffix[n] = {1};
    for (std::size_t i = n; i-- > 0;) {
        const auto& tail = suffix[i + 1];
        std::vector<std::uint64_t> here(tail.size() + static_cast<std::size_t>(sides[i]), 0);
        for (std::size_t s = 0; s < tail.size(); ++s)
            for (int v = 1; v <= sides[i]; ++v)
                here[s + static_cast<std::size_t>(v)] += tail[s];
        suffix[i] = std::move(here);
    }
    std::vector<int> faces;
    int remaining = sum;
    for (std::size_t i = 0; i < n; ++i) {
        const auto& tail = suffix[i + 1];
        for (int v = 1; v <= sides[i]; ++v) {
            const int rest = remaining - v;
            const std::uint64_t block =
                rest >= 0 && static_cast<std::size_t>(rest) < tail.size() ? tail[rest] : 0;
            if (rank < block) {
                faces.push_back(v);
                remaining = rest;
                break;
            }
            rank -= block;
        }
    }
    assert(faces.size() == n && remaining == 0);
    return faces;
}

// A side's dice (dice.h) before the roll.
SideRoll unrolled(DiceModel model, int rating) {
    SideDice dice = sideDice(model, rating);
    return {dice.bonus, std::move(dice.sides), {}};
}

std::uint64_t rollDie(std::uint64_t word, int sides) {
    return 1 +
           static_cast<std::uint64_t>((static_cast<U128>(word) * static_cast<U128>(sides)) >> 64);
}

}  // namespace

std::uint64_t Uniform::below(std::uint64_t n) const {
    const U128 x = static_cast<U128>(hi) * n + ((static_cast<U128>(lo) * n) >> 64);
    return static_cast<std::uint64_t>(x >> 64);
}

double Uniform::value() const {
    return static_cast<double>(hi) * 0x1.0p-64 + static_cast<double>(lo) * 0x1.0p-128;
}

std::uint64_t mixKey(std::uint64_t key, std::uint64_t value) {
    std::uint64_t z = key ^ (value * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    // A second round, so that nearby keys and values never give related outputs.
    z = (z ^ (z >> 32)) * 0xD6E8FEB86659FD93ull;
    return z ^ (z >> 32);
}

std::string_view diceModeName(DiceMode mode) {
    return kDiceModeNames.name(mode);
}

std::optional<DiceMode> parseDiceMode(std::string_view name) {
    return kDiceModeNames.parse(name);
}

int SideRoll::score() const {
    int s = bonus;
    for (const int f : faces)
        s += f;
    return s;
}

std::string SideRoll::str() const {
    std::string s;
    if (bonus != 0 || faces.empty()) s += std::to_string(bonus);
    for (const int f : faces) {
        if (!s.empty()) s += '+';
        s += std::to_string(f);
    }
    return s + "=" + std::to_string(score());
}

std::string AttackRoll::describe(char attackerLetter, char defenderLetter) const {
    if (model == DiceModel::SplitD6) {
        if (die == 6 || die == 1) return fmt::format("die {}", die);
        return fmt::format("die {}: {} {} vs {} {}", die, attackerLetter, attacker.str(),
                           defenderLetter, defender.str());
    }
    return fmt::format("{} {} vs {} {}", attackerLetter, attacker.str(), defenderLetter,
                       defender.str());
}

std::uint64_t rollCount(DiceModel model, int attack, int defence) {
    if (model == DiceModel::SplitD6) return 6;  // one die for both sides
    // At most 6^16 rolls (pools, 8 dice against 8): the product fits 64 bits.
    std::uint64_t n = 1;
    for (const int sides : sideDice(model, attack).sides)
        n *= static_cast<std::uint64_t>(sides);
    for (const int sides : sideDice(model, defence).sides)
        n *= static_cast<std::uint64_t>(sides);
    return n;
}

AttackRoll rollAttack(DiceModel model, int attack, int defence, Uniform u) {
    return rollAttackRank(model, attack, defence, u.below(rollCount(model, attack, defence)));
}

AttackRoll rollAttackRank(DiceModel model, int attack, int defence, std::uint64_t rank) {
    AttackRoll roll;
    roll.model = model;
    if (model == DiceModel::SplitD6) {
        // Faces from 6 down to 1: kill, then the pushes (r + attack > 7 - r + defence holds
        // for the high faces), the counter-pushes, and counter-kill last.
        const int r = 6 - static_cast<int>(rank);
        roll.die = r;
        roll.attacker = unrolled(model, attack);
        roll.attacker.faces = {r};
        roll.defender = unrolled(model, defence);
        roll.defender.faces = {7 - r};
        roll.outcome = splitD6Outcome(r, attack, defence);
        return roll;
    }

    roll.attacker = unrolled(model, attack);
    roll.defender = unrolled(model, defence);
    const auto countA = faceSumCounts(roll.attacker.sides);
    const auto countD = faceSumCounts(roll.defender.sides);
    const int maxA = static_cast<int>(countA.size()) - 1,
              maxD = static_cast<int>(countD.size()) - 1;
    const int bonusDiff = roll.attacker.bonus - roll.defender.bonus;
    // Margins from best to worst; within a margin, higher attack sums first.
    for (int margin = bonusDiff + maxA; margin >= bonusDiff - maxD; --margin) {
        for (int sa = maxA; sa >= 0; --sa) {
            const int sd = bonusDiff + sa - margin;
            if (sd < 0 || sd > maxD || countA[sa] == 0 || countD[sd] == 0) continue;
            const std::uint64_t block = countA[sa] * countD[sd];
            if (rank >= block) {
                rank -= block;
                continue;
            }
            roll.attacker.faces = unrankFaces(roll.attacker.sides, sa, rank / countD[sd]);
            roll.defender.faces = unrankFaces(roll.defender.sides, sd, rank % countD[sd]);
            roll.outcome = outcomeOfMargin(roll.attacker.score() - roll.defender.score());
            return roll;
        }
    }
    assert(false && "rank beyond the number of rolls");
    return roll;
}

LuckStream::LuckStream(std::uint64_t seed, std::uint64_t round, int gameInPair, DiceMode mode) {
    const std::uint64_t game =
        mode == DiceMode::Independent ? static_cast<std::uint64_t>(gameInPair) + 1 : 0;
    attackKey_ = mixKey(mixKey(mixKey(seed, kAttackTag), round), game);
    showdownKey_ = mixKey(mixKey(mixKey(seed, kShowdownTag), round), game);
    rayKey_ = mixKey(mixKey(mixKey(seed, kRayTag), round), game);
}

Cell LuckStream::RayRoll::cell() const {
    return rays::rollCell(d4, d12);
}

std::string LuckStream::RayRoll::describe() const {
    return "d4 " + std::to_string(d4) + " d12 " + std::to_string(d12);
}

LuckStream::RayRoll LuckStream::rayRoll(std::uint64_t index) const {
    return {static_cast<int>(rollDie(mixKey(rayKey_, 2 * index), 4)),
            static_cast<int>(rollDie(mixKey(rayKey_, 2 * index + 1), 12))};
}

Uniform LuckStream::attack(Player attacker, std::uint64_t index) const {
    const std::uint64_t key =
        mixKey(attackKey_, static_cast<std::uint64_t>(dejarik::index(attacker)));
    return {mixKey(key, 2 * index), mixKey(key, 2 * index + 1)};
}

std::uint64_t LuckStream::showdownWord(std::uint64_t round, std::uint64_t die) const {
    return mixKey(mixKey(showdownKey_, round), die);
}

std::array<double, 4> outcomeMaterial(const Position& pos) {
    const Rules& rules = pos.rules();
    const Cell from = pos.pendingFrom(), to = pos.pendingTo();
    const auto worth = [&](Cell c) {
        const Ratings& r = rules.ratings(pos.at(c).creature());
        return static_cast<double>(r.attack + r.defence);
    };
    const eval::Boxed boxed = eval::boxedIn(pos, from, to);
    const BlockedPush policy = rules.blockedPush();
    std::array<double, 4> value{};
    value[static_cast<int>(Outcome::Kill)] = worth(to);
    value[static_cast<int>(Outcome::CounterKill)] = -worth(from);
    if (eval::pushKills(policy, boxed)) value[static_cast<int>(Outcome::Push)] = worth(to);
    if (eval::counterPushKills(policy, boxed))
        value[static_cast<int>(Outcome::CounterPush)] = -worth(from);
    return value;
}

double attackLuck(const Position& pos, Outcome outcome) {
    const auto value = outcomeMaterial(pos);
    const auto& p =
        pos.rules()
            .combat(pos.at(pos.pendingFrom()).creature(), pos.at(pos.pendingTo()).creature())
            .probability;
    double expected = 0;
    for (int o = 0; o < 4; ++o)
        expected += p[o] * value[o];
    return value[static_cast<int>(outcome)] - expected;
}

ShowdownRoll rollShowdown(const Rules& rules, Creature p1, Creature p2, const LuckStream& luck) {
    const auto best = [&](Creature c) {
        return std::max(rules.ratings(c).attack, rules.ratings(c).defence);
    };
    const int r1 = best(p1), r2 = best(p2);
    const char l1 = rules.letter(Piece(Player::One, p1)), l2 = rules.letter(Piece(Player::Two, p2));
    ShowdownRoll result;
    result.comment = fmt::format("showdown {} {} vs {} {}:", l1, r1, l2, r2);
    const auto& odds = rules.showdown(p1, p2).exact;
    if (odds.drawn()) {
        result.comment += " no round can decide, draw";
        return result;
    }
    const DiceModel model = rules.dice();
    constexpr int kListedRounds = 12;
    for (int round = 0; round < kMaxShowdownRounds; ++round) {
        SideRoll s1 = unrolled(model, r1), s2 = unrolled(model, r2);
        std::uint64_t die = 0;
        for (const int sides : s1.sides)
            s1.faces.push_back(static_cast<int>(rollDie(luck.showdownWord(round, die++), sides)));
        for (const int sides : s2.sides)
            s2.faces.push_back(static_cast<int>(rollDie(luck.showdownWord(round, die++), sides)));
        const int margin = s1.score() - s2.score();
        result.rounds = round + 1;
        if (showdownRoundWinner(model, margin) != 0) {
            result.winner = margin > 0 ? Player::One : Player::Two;
            result.comment += fmt::format(" {} vs {}, player {} wins in round {}", s1.str(),
                                          s2.str(), margin > 0 ? 1 : 2, round + 1);
            return result;
        }
        if (round < kListedRounds) {
            result.comment += fmt::format(" {}-{}", s1.score(), s2.score());
        } else if (round == kListedRounds) {
            result.comment += " ...";
        }
    }
    // Unreachable in practice (see kMaxShowdownRounds): decide by the exact odds.
    const Uniform u{luck.showdownWord(kMaxShowdownRounds, 0),
                    luck.showdownWord(kMaxShowdownRounds, 1)};
    result.winner = u.below(odds.p1Round + odds.p2Round) < odds.p1Round ? Player::One : Player::Two;
    result.comment +=
        fmt::format(" undecided after {} rounds, settled by the exact odds", kMaxShowdownRounds);
    return result;
}

}  // namespace dejarik::arena
