// Score intervals, Elo and the SPRT against values worked out independently: closed forms
// where the maximum-likelihood problem has one, otherwise a brute-force reference (nested
// one-dimensional searches over the constrained distributions, written separately in
// Python) for the trinomial numbers below.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <vector>

#include "splitmix.h"
#include "stats.h"

using namespace dejarik::arena;

TEST_SUITE("arena-unit") {
    TEST_CASE("Elo of a score and back") {
        CHECK(eloFromScore(0.75) == doctest::Approx(190.848501).epsilon(1e-8));
        CHECK(eloFromScore(0.5) == doctest::Approx(0.0));
        CHECK(eloFromScore(0.25) == doctest::Approx(-190.848501).epsilon(1e-8));
        CHECK(std::isinf(eloFromScore(1.0)));
        for (const double s : {0.1, 0.37, 0.5, 0.9})
            CHECK(scoreFromElo(eloFromScore(s)) == doctest::Approx(s));
    }

    TEST_CASE("trinomial score interval") {
        // var = (30 * 0.25 + 30 * 0.25) / 100 = 0.15 per game.
        const Interval iv = scoreInterval(Wdl{30, 40, 30});
        CHECK(iv.samples == 100);
        CHECK(iv.mean == doctest::Approx(0.5));
        CHECK(iv.stdev == doctest::Approx(std::sqrt(0.15)));
        CHECK(iv.high - iv.mean == doctest::Approx(kZ95 * std::sqrt(0.15) / 10));
        const EloEstimate e = eloEstimate(iv, false);
        CHECK(e.elo == doctest::Approx(0.0));
        // The Elo error is half the interval's width in Elo.
        CHECK(e.error == doctest::Approx((eloFromScore(iv.high) - eloFromScore(iv.low)) / 2));
        // nElo error: 1.96 / sqrt(n) in units of 800 / ln 10.
        CHECK(e.normalizedError == doctest::Approx(kZ95 / 10 * 800 / std::log(10.0)));
    }

    TEST_CASE("pentanomial score interval") {
        Pentanomial p;
        p.counts = {10, 20, 40, 20, 10};
        CHECK(p.pairs() == 100);
        // var = (10 * 0.25 + 20 * 0.0625) * 2 / 100 = 0.075 per pair.
        const Interval iv = scoreInterval(p);
        CHECK(iv.mean == doctest::Approx(0.5));
        CHECK(iv.stdev == doctest::Approx(std::sqrt(0.075)));
        CHECK(iv.high - iv.mean == doctest::Approx(kZ95 * std::sqrt(0.075) / 10));

        Pentanomial q;
        q.add(1, 1);      // 2 points
        q.add(1, 0);      // 1
        q.add(0.5, 0.5);  // 1
        q.add(0, 0.5);    // 0.5
        CHECK(q.counts == std::array<std::int64_t, 5>{0, 1, 2, 0, 1});
    }

    TEST_CASE("likelihood of superiority") {
        CHECK(likelihoodOfSuperiority(Wdl{40, 10, 40}) == doctest::Approx(0.5));
        CHECK(likelihoodOfSuperiority(Wdl{60, 0, 40}) == doctest::Approx(0.977250).epsilon(1e-5));
    }

    TEST_CASE("luck adjustment removes the variance the luck explains") {
        // score = 0.5 + 0.02 * luck + noise: the fit finds 0.02 and leaves only the noise.
        std::vector<PairSample> pairs;
        for (int i = 0; i < 200; ++i) {
            const double luck = ((i * 37) % 21 - 10) / 2.0;   // -5 .. 5, mean 0
            const double noise = ((i * 11) % 5 - 2) / 100.0;  // -0.02 .. 0.02
            pairs.push_back({0.5 + 0.02 * luck + noise, luck, 0});
        }
        const LuckAdjusted a = luckAdjusted(pairs);
        CHECK(a.coefficients[0] == doctest::Approx(0.02).epsilon(0.05));
        CHECK(a.coefficients[1] == 0);  // showdown luck never varies: left out
        CHECK(a.varianceRatio < 0.1);
        double mean = 0;
        for (const auto& p : pairs)
            mean += p.score;
        mean /= static_cast<double>(pairs.size());
        double meanLuck = 0;
        for (const auto& p : pairs)
            meanLuck += p.attackLuck;
        meanLuck /= static_cast<double>(pairs.size());
        CHECK(a.interval.mean == doctest::Approx(mean - a.coefficients[0] * meanLuck));
        double squares = 0;
        for (const auto& p : pairs)
            squares += (p.score - mean) * (p.score - mean);
        CHECK(a.plainStdev ==
              doctest::Approx(std::sqrt(squares / static_cast<double>(pairs.size()))));
        // Without luck, nothing changes.
        for (auto& p : pairs)
            p.attackLuck = 0;
        const LuckAdjusted none = luckAdjusted(pairs);
        CHECK(none.interval.mean == doctest::Approx(mean));
        CHECK(none.varianceRatio == doctest::Approx(1.0));
    }

    TEST_CASE("SPRT bounds and decisions") {
        SprtConfig c;
        c.alpha = c.beta = 0.05;
        CHECK(c.lowerBound() == doctest::Approx(-2.944439));
        CHECK(c.upperBound() == doctest::Approx(2.944439));
        CHECK(c.decide(3.0) == SprtDecision::AcceptH1);
        CHECK(c.decide(-3.0) == SprtDecision::AcceptH0);
        CHECK(c.decide(0.1) == SprtDecision::Continue);
    }

    TEST_CASE("SPRT, logistic, without draws: the binomial closed form") {
        // With wins and losses only, the constrained MLE is (1 - s, s) itself.
        SprtConfig c;
        c.model = EloModel::Logistic;
        c.elo0 = 0;
        c.elo1 = 10;
        const double s0 = scoreFromElo(0), s1 = scoreFromElo(10);
        const double expected = 60 * std::log(s1 / s0) + 40 * std::log((1 - s1) / (1 - s0));
        // The empty draw category carries the 1e-3 regularization weight: a tiny shift.
        CHECK(sprtLlr(c, Wdl{60, 0, 40}) == doctest::Approx(expected).epsilon(1e-3));
        Pentanomial pairs;
        pairs.counts = {40, 0, 0, 0, 60};
        CHECK(sprtLlr(c, pairs) == doctest::Approx(expected).epsilon(1e-3));
    }

    TEST_CASE("SPRT, trinomial, against the brute-force reference") {
        SprtConfig c;
        c.elo0 = 0;
        c.elo1 = 10;
        c.model = EloModel::Logistic;
        CHECK(sprtLlr(c, Wdl{120, 60, 90}) == doctest::Approx(0.9669258).epsilon(1e-4));
        c.model = EloModel::Normalized;
        CHECK(sprtLlr(c, Wdl{120, 60, 90}) == doctest::Approx(0.8672962).epsilon(1e-4));
        c.elo0 = -5;
        c.elo1 = 5;
        CHECK(sprtLlr(c, Wdl{1000, 1500, 900}) == doctest::Approx(3.8501646).epsilon(1e-4));
        c.model = EloModel::Logistic;
        c.elo0 = 0;
        c.elo1 = 20;
        CHECK(sprtLlr(c, Wdl{50, 10, 70}) == doctest::Approx(-1.4798138).epsilon(1e-4));
        c.elo1 = 3;
        CHECK(sprtLlr(c, Wdl{4307, 8620, 4063}) == doctest::Approx(2.9912888).epsilon(1e-4));
    }

    TEST_CASE("SPRT is antisymmetric in its hypotheses") {
        Pentanomial p;
        p.counts = {12, 80, 210, 95, 15};
        for (const EloModel model : {EloModel::Logistic, EloModel::Normalized}) {
            SprtConfig forward, backward;
            forward.model = backward.model = model;
            forward.elo0 = backward.elo1 = -3;
            forward.elo1 = backward.elo0 = 7;
            // Only the parse-time check demands elo0 < elo1; the arithmetic does not care.
            CHECK(sprtLlr(forward, p) == doctest::Approx(-sprtLlr(backward, p)));
            CHECK(sprtLlr(forward, p) > 0);  // the data lean towards +7
        }
    }

    TEST_CASE("SPRT parameters") {
        std::string error;
        const auto c = SprtConfig::parse("elo0=0 elo1=5 alpha=0.1 model=logistic", error);
        REQUIRE(c);
        CHECK(c->elo1 == 5);
        CHECK(c->alpha == 0.1);
        CHECK(c->beta == 0.05);
        CHECK(c->model == EloModel::Logistic);
        CHECK_FALSE(SprtConfig::parse("elo0=5 elo1=0", error));
        CHECK(error.find("elo0") != std::string::npos);
        CHECK_FALSE(SprtConfig::parse("elo0=0 elo1=5 model=bayes", error));
        CHECK_FALSE(SprtConfig::parse("elo0=x", error));
        CHECK_FALSE(SprtConfig::parse("alpha=0.6 beta=0.5", error));

        // Hypotheses whose LLR would be NaN, or bounds no match reaches, are refused; the
        // largest allowed give a finite LLR on lopsided and on even counts.
        CHECK_FALSE(SprtConfig::parse("elo0=0 elo1=1e300", error));
        CHECK_FALSE(SprtConfig::parse("elo0=0 elo1=201", error));
        CHECK(error.find("from -200 to 200 under the normalized model") != std::string::npos);
        CHECK_FALSE(SprtConfig::parse("elo0=-1001 elo1=0 model=logistic", error));
        CHECK_FALSE(SprtConfig::parse("elo0=0 elo1=5 alpha=1e-320", error));
        for (const char* text : {"elo0=-200 elo1=200", "elo0=0 elo1=200", "elo0=-200 elo1=0",
                                 "elo0=-1000 elo1=1000 model=logistic"}) {
            INFO(text);
            const auto extreme = SprtConfig::parse(text, error);
            REQUIRE(extreme);
            for (const Pentanomial& p :
                 {Pentanomial{{0, 0, 1, 0, 2}}, Pentanomial{{3, 10, 20, 9, 4}},
                  Pentanomial{{0, 0, 0, 0, 40}}})
                CHECK(std::isfinite(sprtLlr(*extreme, p)));
        }
    }
}

namespace {

// Pairs whose scores have the pentanomial counts `penta` and no luck.
std::vector<PairSample> pairsOf(const Pentanomial& penta) {
    std::vector<PairSample> pairs;
    for (std::size_t k = 0; k < penta.counts.size(); ++k)
        for (std::int64_t i = 0; i < penta.counts[k]; ++i)
            pairs.push_back({0.25 * static_cast<double>(k), 0, 0});
    return pairs;
}

// A standard normal deviate from a splitmix stream (Box-Muller): the same on every platform.
double normal(std::uint64_t& state) {
    const auto uniform = [&] {
        return (static_cast<double>(dejarik::splitmix64(state) >> 11) + 0.5) / 9007199254740992.0;
    };
    const double u = uniform(), v = uniform();
    return std::sqrt(-2 * std::log(u)) * std::cos(2 * std::numbers::pi * v);
}

// Runs `runs` luck-adjusted SPRTs on pairs scoring `mean` on average, most of their spread
// the luck's; returns how many accepted H1 (each run stops at a decision or 4,000 pairs).
int acceptedH1(const SprtConfig& config, double mean, int runs, std::uint64_t seed) {
    int h1 = 0;
    for (int run = 0; run < runs; ++run) {
        std::vector<PairSample> pairs;
        for (int n = 0; n < 4000; ++n) {
            const double luck = normal(seed);
            pairs.push_back({mean + 0.15 * luck + 0.05 * normal(seed), luck, 0});
            const SprtDecision d = config.decide(sprtLlr(config, pairs));
            if (d == SprtDecision::Continue) continue;
            h1 += d == SprtDecision::AcceptH1;
            break;
        }
    }
    return h1;
}

}  // namespace

TEST_SUITE("arena-unit") {
    TEST_CASE("luck-adjusted SPRT: without luck, the pentanomial test's normal approximation") {
        Pentanomial p;
        p.counts = {12, 80, 210, 95, 15};
        const auto pairs = pairsOf(p);
        for (const EloModel model : {EloModel::Logistic, EloModel::Normalized}) {
            SprtConfig c;
            c.model = model;
            c.elo0 = -3;
            c.elo1 = 7;
            CHECK(sprtLlr(c, pairs) == doctest::Approx(sprtLlr(c, p)).epsilon(0.03));
            CHECK(sprtLlr(c, pairs) > 0);
            c.elo0 = 20;
            c.elo1 = 30;  // the data lie below both: H0's side
            CHECK(sprtLlr(c, pairs) == doctest::Approx(sprtLlr(c, p)).epsilon(0.05));
            CHECK(sprtLlr(c, pairs) < 0);
        }
    }

    TEST_CASE("luck-adjusted SPRT: waits for enough pairs, and gains where the luck decides") {
        SprtConfig c;
        c.statistic = SprtStatistic::LuckAdjusted;
        c.elo0 = 0;
        c.elo1 = 10;
        std::uint64_t seed = 99;
        std::vector<PairSample> pairs;
        Pentanomial penta;
        for (std::size_t i = 0; i < kMinimumLuckPairs - 1; ++i)
            pairs.push_back({0.75, 1, 0});
        CHECK(sprtLlr(c, pairs) == 0);
        // Pair scores of 0.25 steps, mostly the luck's doing, slightly above 0.5.
        pairs.clear();
        for (int i = 0; i < 600; ++i) {
            const double luck = normal(seed);
            const double score = std::clamp(
                std::round((0.512 + 0.2 * luck + 0.05 * normal(seed)) * 4) / 4, 0.0, 1.0);
            pairs.push_back({score, luck, 0});
            penta.counts[static_cast<std::size_t>(std::lround(score * 4))] += 1;
        }
        const double adjusted = sprtLlr(c, pairs), plain = sprtLlr(c, penta);
        // The luck-adjusted test decides where the pentanomial one is still far from it.
        CHECK(adjusted > c.upperBound());
        CHECK(plain < 0.75 * c.upperBound());
    }

    TEST_CASE("luck-adjusted SPRT keeps its error rates when run sequentially") {
        // Wald's bounds promise at most alpha false H1s at elo0 and beta false H0s at elo1;
        // the variance estimated from the pairs seen so far must not spend that margin.
        for (const EloModel model : {EloModel::Logistic, EloModel::Normalized}) {
            SprtConfig c;
            c.model = model;
            c.statistic = SprtStatistic::LuckAdjusted;
            c.elo0 = 0;
            c.elo1 = 10;
            constexpr int kRuns = 200;
            double mu1 = scoreFromElo(10);
            if (model == EloModel::Normalized) {
                // The plain pair score's spread: sqrt(0.15^2 + 0.05^2).
                const double sigma = std::sqrt(0.15 * 0.15 + 0.05 * 0.05);
                mu1 = 0.5 + 10 * std::numbers::sqrt2 * sigma / (800 / std::numbers::ln10);
            }
            CHECK(acceptedH1(c, 0.5, kRuns, 7) <= kRuns / 10);
            CHECK(acceptedH1(c, mu1, kRuns, 8) >= kRuns * 9 / 10);
        }
    }

    TEST_CASE("SPRT statistic parameter") {
        std::string error;
        const auto c = SprtConfig::parse("elo0=0 elo1=5 statistic=luck-adjusted", error);
        REQUIRE(c);
        CHECK(c->statistic == SprtStatistic::LuckAdjusted);
        CHECK(c->str().find("statistic=luck-adjusted") != std::string::npos);
        const auto d = SprtConfig::parse("elo0=0 elo1=5", error);
        REQUIRE(d);
        CHECK(d->statistic == SprtStatistic::Pentanomial);
        CHECK_FALSE(SprtConfig::parse("elo0=0 elo1=5 statistic=trinomial", error));
        CHECK(error.find("luck-adjusted") != std::string::npos);
    }
}
