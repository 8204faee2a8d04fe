#include "dice.h"

#include <cassert>
#include <numeric>

namespace dejarik {

namespace {

constexpr std::array<std::string_view, 4> kOutcomeNames = {"kill", "push", "counterpush",
                                                           "counterkill"};

// Kill and counter-kill need a margin of 7 (RULES §6).
constexpr int kKillMargin = 7;

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
    return kDiceModelNames[static_cast<int>(model)];
}

std::optional<DiceModel> parseDiceModel(std::string_view name) {
    for (std::size_t i = 0; i < kDiceModelNames.size(); ++i)
        if (kDiceModelNames[i] == name) return static_cast<DiceModel>(i);
    return std::nullopt;
}

std::string_view outcomeName(Outcome outcome) {
    return kOutcomeNames[static_cast<int>(outcome)];
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
    assert(rating >= 0);
    switch (model) {
        case DiceModel::Pools: {
            ScoreDistribution sum{0, {1}};
            for (int i = 0; i < rating; ++i)
                sum = convolve(sum, die(6));
            return sum;
        }
        case DiceModel::D20:
        case DiceModel::TwoD10: {
            ScoreDistribution sum{rating, {1}};
            if (model == DiceModel::D20) {
                sum = convolve(sum, die(20));
            } else {
                sum = convolve(convolve(sum, die(10)), die(10));
            }
            return convolve(sum, die(secondaryDieSides(rating)));
        }
        case DiceModel::SplitD6:
            break;
    }
    assert(false && "split-d6 has no independent score distribution");
    return {};
}

AttackOdds attackOdds(DiceModel model, int attack, int defence) {
    AttackOdds odds;
    auto add = [&odds](int margin, std::uint64_t n) {
        const Outcome o = margin >= kKillMargin   ? Outcome::Kill
                          : margin >= 1           ? Outcome::Push
                          : margin > -kKillMargin ? Outcome::CounterPush
                                                  : Outcome::CounterKill;
        odds.counts[static_cast<int>(o)] += n;
        odds.total += n;
    };
    if (model == DiceModel::SplitD6) {
        // One d6: 6 kills, 1 counter-kills, else r + attack against (7 - r) + defence.
        for (int r = 1; r <= 6; ++r) {
            if (r == 6) {
                add(kKillMargin, 1);
            } else if (r == 1) {
                add(-kKillMargin, 1);
            } else {
                add((r + attack) > (7 - r + defence) ? 1 : 0, 1);
            }
        }
        return odds;
    }
    const ScoreDistribution margins =
        marginDistribution(scoreDistribution(model, attack), scoreDistribution(model, defence));
    for (std::size_t i = 0; i < margins.counts.size(); ++i)
        add(margins.offset + static_cast<int>(i), margins.counts[i]);
    return odds;
}

ShowdownOdds showdownOdds(DiceModel model, int p1Rating, int p2Rating) {
    ShowdownOdds odds;
    if (model == DiceModel::SplitD6) {
        // Each rolls a d6 and adds the rating; the higher wins, a tie is rolled again.
        for (int r1 = 1; r1 <= 6; ++r1) {
            for (int r2 = 1; r2 <= 6; ++r2) {
                const int margin = (r1 + p1Rating) - (r2 + p2Rating);
                odds.p1Round += margin > 0;
                odds.p2Round += margin < 0;
                ++odds.total;
            }
        }
        return odds;
    }
    // Same margins as an attack: a round is decided exactly when it would kill either way.
    const AttackOdds round = attackOdds(model, p1Rating, p2Rating);
    odds.p1Round = round.count(Outcome::Kill);
    odds.p2Round = round.count(Outcome::CounterKill);
    odds.total = round.total;
    return odds;
}

Fraction ShowdownOdds::p1Wins() const {
    return drawn() ? Fraction{0, 1} : Fraction::reduced(p1Round, p1Round + p2Round);
}

Fraction ShowdownOdds::p2Wins() const {
    return drawn() ? Fraction{0, 1} : Fraction::reduced(p2Round, p1Round + p2Round);
}

}  // namespace dejarik
