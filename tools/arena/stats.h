// Match statistics: score intervals, Elo, pentanomial (game-pair) counts and the SPRT.
//
// Conventions follow fastchess so numbers can be compared with it: the 95% interval is
// mean +- 1.96 standard errors of the score; Elo is logistic, 400 log10(s / (1 - s)), with
// the error the half-width of the interval mapped to Elo; normalized Elo is
// (s - 0.5) / sigma * 800 / ln 10, sigma the standard deviation of one game's score (for
// pairs: of one pair's mean score divided by sqrt 2). The SPRT is the generalized SPRT of
// fishtest and fastchess: the log-likelihood ratio of the maximum-likelihood distributions
// (trinomial or pentanomial) constrained to the score of elo0 and of elo1.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dejarik::arena {

// Wins, draws and losses from the first engine's view.
struct Wdl {
    std::int64_t wins = 0;
    std::int64_t draws = 0;
    std::int64_t losses = 0;
    [[nodiscard]] std::int64_t games() const { return wins + draws + losses; }
    [[nodiscard]] double points() const { return static_cast<double>(wins) + 0.5 * draws; }
    // Counts one game in which the player scored `points` (1, 0.5 or 0).
    void add(double points) {
        if (points == 1) {
            ++wins;
        } else if (points == 0) {
            ++losses;
        } else {
            ++draws;
        }
    }
};

// Game pairs by the first engine's points over the pair: 0, 0.5, 1, 1.5, 2. A pair of one
// win and one loss and a pair of two draws both score 1 and share counts[2].
struct Pentanomial {
    std::array<std::int64_t, 5> counts{};
    [[nodiscard]] std::int64_t pairs() const;
    // Adds the pair of the first engine's two game points (0, 0.5 or 1 each).
    void add(double first, double second);
};

struct Interval {
    double mean = 0.5;
    double low = 0.5;
    double high = 0.5;
    double stdev = 0;  // of one sample (a game, or a pair's mean score)
    std::int64_t samples = 0;
};

inline constexpr double kZ95 = 1.959963984540054;

[[nodiscard]] Interval scoreInterval(const Wdl& wdl);
[[nodiscard]] Interval scoreInterval(const Pentanomial& penta);

// Logistic Elo of a score; +-infinity at 1 and 0.
[[nodiscard]] double eloFromScore(double score);
[[nodiscard]] double scoreFromElo(double elo);

struct EloEstimate {
    double elo = 0;
    double error = 0;  // half the width of the 95% interval
    double normalized = 0;
    double normalizedError = 0;
};
[[nodiscard]] EloEstimate eloEstimate(const Interval& interval, bool pairs);

// Likelihood of superiority (probability that the first engine is the stronger).
[[nodiscard]] double likelihoodOfSuperiority(const Wdl& wdl);

// A complete pair: the first engine's mean score over the two games and its luck in them
// (the mean of its luck as player 1 in game 1 and as player 2 in game 2).
struct PairSample {
    double score = 0.5;
    double attackLuck = 0;    // material points
    double showdownLuck = 0;  // result points
};

// The score corrected for luck with control variates (the variance reduction of GNU
// Backgammon's rollouts and luck analysis, with the dice's luck measured exactly): the
// luck has expectation zero whatever the players do, so score - b . luck has the same
// expectation as the score for any b; b is the least-squares fit over the pairs, which
// removes the part of the score's variance that the luck explains.
struct LuckAdjusted {
    Interval interval;         // of the adjusted mean pair score, stdev per pair
    double varianceRatio = 1;  // adjusted variance / plain variance
    double plainStdev = 0;     // of the plain pair scores (over n, as scoreInterval's)
    std::array<double, 2> coefficients{};
};
[[nodiscard]] LuckAdjusted luckAdjusted(const std::vector<PairSample>& pairs);
// The fit of two coefficients needs this many pairs to mean anything: fewer, and neither the
// luck-adjusted score is reported nor the luck-adjusted SPRT decides.
inline constexpr std::size_t kMinimumLuckPairs = 30;

enum class EloModel : std::uint8_t { Logistic, Normalized };
[[nodiscard]] std::string_view eloModelName(EloModel model);

enum class SprtDecision : std::uint8_t { Continue, AcceptH0, AcceptH1 };

// What the SPRT is computed from: the pentanomial counts of the pairs, or their luck-adjusted
// scores (far fewer pairs where the dice decide most games; docs/arena.md, "SPRT").
enum class SprtStatistic : std::uint8_t { Pentanomial, LuckAdjusted };
[[nodiscard]] std::string_view sprtStatisticName(SprtStatistic statistic);

struct SprtConfig {
    double elo0 = 0;
    double elo1 = 5;
    double alpha = 0.05;
    double beta = 0.05;
    EloModel model = EloModel::Normalized;
    SprtStatistic statistic = SprtStatistic::Pentanomial;

    [[nodiscard]] double lowerBound() const;  // log(beta / (1 - alpha))
    [[nodiscard]] double upperBound() const;  // log((1 - beta) / alpha)
    [[nodiscard]] SprtDecision decide(double llr) const;
    // "key=value" words of elo0, elo1, alpha, beta, model (logistic, normalized) and
    // statistic (pentanomial, luck-adjusted), e.g. "elo0=0 elo1=5 statistic=luck-adjusted".
    [[nodiscard]] static std::optional<SprtConfig> parse(std::string_view text, std::string& error);
    [[nodiscard]] std::string str() const;
};

[[nodiscard]] double sprtLlr(const SprtConfig& config, const Wdl& wdl);
[[nodiscard]] double sprtLlr(const SprtConfig& config, const Pentanomial& penta);
// The luck-adjusted SPRT: the log-likelihood ratio of two normal models of the adjusted pair
// scores, with the means elo0 and elo1 make and the residual variance of the fit (the normal
// approximation of the GSPRT, applied to a continuous score). Under the normalized model
// the means are set by the plain scores' spread, so elo0 and elo1 mean what they mean to
// the pentanomial test. 0 below kMinimumLuckPairs pairs.
[[nodiscard]] double sprtLlr(const SprtConfig& config, const std::vector<PairSample>& pairs);

}  // namespace dejarik::arena
