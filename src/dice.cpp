#include "dice.h"

#include <cassert>
#include <numeric>

#include "names.h"

namespace dejarik {

namespace {

constexpr NameTable<DiceModel, 4> kModelNames{kDiceModelNames};
constexpr NameTable<Outcome, 4> kOutcomeNames{{"kill", "push", "counterpush", "counterkill"}};

ScoreDistribution die(int sides) {
    return ScoreDistribution{1, std::vector<std::uint64_t>(static_cast<std::size_t>(sides), 1)};
}

ScoreDistribution convolve(const ScoreDistribution& x, const ScoreDistribution& y) {
    ScoreDistribution r{x.offset + y.offset,
                        std::vector<std::uint64_t>(x.counts.size() + y.counts.size() - 1, 0)};
    for (std::size_t i = 0; i < x.counts.size(); ++i)
        for (std::size_t j = 0; j < y.counts.size(); ++j)
            r.counts[i + j] += x.counts[i] * y.counts[j];
    return r;
}

// The secondary die of the d20 and 2d10 models, chosen by the rating (RULES §7).
int secondaryDieSides(int rating) {
    if (rating >= 7) return 4;
    if (rating >= 5) return 6;
    if (rating >= 3) return 8;
    return 10;
}

// Counts of each margin (first score minus second), indexed from `offset`.
ScoreDistribution marginDistribution(const ScoreDistribution& first,
                                     const ScoreDistribution& second) {
    ScoreDistribution negated{
        -(second.offset + static_cast<int>(second.counts.size()) - 1),
        std::vector<std::uint64_t>(second.counts.rbegin(), second.counts.rend())};
    return convolve(first, negated);
}

}  // namespace

std::string_view diceModelName(DiceModel model) {
    return kModelNames.name(model);
}

std::optional<DiceModel> parseDiceModel(std::string_view name) {
    return kModelNames.parse(name);
}

std::string_view outcomeName(Outcome outcome) {
    return kOutcomeNames.name(outcome);
}

Outcome outcomeOfMargin(int margin) {
    if (margin >= kKillMargin) return Outcome::Kill;
    if (margin >= 1) return Outcome::Push;
    if (margin > -kKillMargin) return Outcome::CounterPush;
    return Outcome::CounterKill;
}

Outcome splitD6Outcome(int face, int attack, int defence) {
    if (face == 6) return Outcome::Kill;
    if (face == 1) return Outcome::CounterKill;
    return face + attack > 7 - face + defence ? Outcome::Push : Outcome::CounterPush;
}

int showdownRoundWinner(DiceModel model, int margin) {
    // Under pools, d20 and 2d10 a round is decided exactly when it would kill either way.
    const int needed = model == DiceModel::SplitD6 ? 1 : kKillMargin;
    return margin >= needed ? 1 : margin <= -needed ? -1 : 0;
}

SideDice sideDice(DiceModel model, int rating) {
    assert(rating >= 0);
    switch (model) {
        case DiceModel::Pools:
            return {0, std::vector<int>(static_cast<std::size_t>(rating), 6)};
        case DiceModel::D20:
            return {rating, {20, secondaryDieSides(rating)}};
        case DiceModel::TwoD10:
            return {rating, {10, 10, secondaryDieSides(rating)}};
        case DiceModel::SplitD6:
            break;
    }
    return {rating, {6}};
}

Fraction Fraction::reduced(std::uint64_t num, std::uint64_t den) {
    assert(den != 0);
    const std::uint64_t g = std::gcd(num, den);
    return g == 0 ? Fraction{0, 1} : Fraction{num / g, den / g};
}

std::string Fraction::str() const {
    if (num == 0) return "0";
    if (den == 1) return std::to_string(num);
    return std::to_string(num) + "/" + std::to_string(den);
}

std::uint64_t ScoreDistribution::total() const {
    return std::accumulate(counts.begin(), counts.end(), std::uint64_t{0});
}

ScoreDistribution scoreDistribution(DiceModel model, int rating) {
    const SideDice dice = sideDice(model, rating);
    ScoreDistribution sum{dice.bonus, {1}};
    for (const int sides : dice.sides)
        sum = convolve(sum, die(sides));
    return sum;
}

AttackOdds attackOdds(DiceModel model, int attack, int defence) {
    AttackOdds odds;
    auto add = [&odds](Outcome o, std::uint64_t n) {
        odds.counts[static_cast<int>(o)] += n;
        odds.total += n;
    };
    if (model == DiceModel::SplitD6) {
        for (int face = 1; face <= 6; ++face)
            add(splitD6Outcome(face, attack, defence), 1);
        return odds;
    }
    const ScoreDistribution margins =
        marginDistribution(scoreDistribution(model, attack), scoreDistribution(model, defence));
    for (std::size_t i = 0; i < margins.counts.size(); ++i)
        add(outcomeOfMargin(margins.offset + static_cast<int>(i)), margins.counts[i]);
    return odds;
}

ShowdownOdds showdownOdds(DiceModel model, int p1Rating, int p2Rating) {
    ShowdownOdds odds;
    const ScoreDistribution margins =
        marginDistribution(scoreDistribution(model, p1Rating), scoreDistribution(model, p2Rating));
    for (std::size_t i = 0; i < margins.counts.size(); ++i) {
        const std::uint64_t n = margins.counts[i];
        const int winner = showdownRoundWinner(model, margins.offset + static_cast<int>(i));
        if (winner > 0) odds.p1Round += n;
        if (winner < 0) odds.p2Round += n;
        odds.total += n;
    }
    return odds;
}

Fraction ShowdownOdds::p1Wins() const {
    return drawn() ? Fraction{0, 1} : Fraction::reduced(p1Round, p1Round + p2Round);
}

Fraction ShowdownOdds::p2Wins() const {
    return drawn() ? Fraction{0, 1} : Fraction::reduced(p2Round, p1Round + p2Round);
}

}  // namespace dejarik
