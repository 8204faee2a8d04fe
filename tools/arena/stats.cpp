#include "stats.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>
#include <vector>

#include "names.h"
#include "number.h"

namespace dejarik::arena {

namespace {

constexpr NameTable<EloModel, 2> kEloModelNames{{"logistic", "normalized"}};
constexpr NameTable<SprtStatistic, 2> kSprtStatisticNames{{"pentanomial", "luck-adjusted"}};

// Elo per unit of normalized t: 800 / ln 10.
const double kNormalizedScale = 800.0 / std::numbers::ln10;

// Empty categories get this weight in the SPRT, as in fishtest and fastchess: without it
// the constrained maximum-likelihood problem has no interior solution for lopsided counts.
constexpr double kRegularization = 1e-3;

template <std::size_t N>
Interval interval(const std::array<double, N>& scores, const std::array<std::int64_t, N>& counts) {
    Interval r;
    std::int64_t n = 0;
    double sum = 0;
    for (std::size_t i = 0; i < N; ++i) {
        n += counts[i];
        sum += scores[i] * static_cast<double>(counts[i]);
    }
    r.samples = n;
    if (n == 0) {
        r.low = 0;
        r.high = 1;
        return r;
    }
    r.mean = sum / static_cast<double>(n);
    double var = 0;
    for (std::size_t i = 0; i < N; ++i)
        var += static_cast<double>(counts[i]) * (scores[i] - r.mean) * (scores[i] - r.mean);
    var /= static_cast<double>(n);
    r.stdev = std::sqrt(var);
    const double half = kZ95 * r.stdev / std::sqrt(static_cast<double>(n));
    r.low = std::max(0.0, r.mean - half);
    r.high = std::min(1.0, r.mean + half);
    return r;
}

// Finds the root of a decreasing function on the open interval (lo, hi) by bisection; the
// function runs from +infinity at lo to -infinity at hi, so there is exactly one root.
template <typename F>
double decreasingRoot(F f, double lo, double hi) {
    for (int i = 0; i < 200; ++i) {
        const double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi) break;
        (f(mid) > 0 ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

template <std::size_t N>
using Vec = std::array<double, N>;

// The distribution closest (in likelihood) to the empirical `phat` whose mean is `s`
// (Van den Bergh, "Comments on normalized Elo", proposition 1.1): p_i = phat_i / (1 +
// theta (a_i - s)) with theta solving sum phat_i (a_i - s) / (1 + theta (a_i - s)) = 0.
template <std::size_t N>
Vec<N> mleWithMean(const Vec<N>& a, const Vec<N>& phat, double s) {
    const double lo = -1.0 / (a[N - 1] - s), hi = -1.0 / (a[0] - s);
    const double theta = decreasingRoot(
        [&](double x) {
            double r = 0;
            for (std::size_t i = 0; i < N; ++i)
                r += phat[i] * (a[i] - s) / (1 + x * (a[i] - s));
            return r;
        },
        lo, hi);
    Vec<N> p;
    for (std::size_t i = 0; i < N; ++i)
        p[i] = phat[i] / (1 + theta * (a[i] - s));
    return p;
}

// The distribution closest to `phat` whose normalized score (mu - 1/2) / sigma is t (same
// paper, section 4.1), by its fixed-point iteration.
template <std::size_t N>
Vec<N> mleWithNormalized(const Vec<N>& a, const Vec<N>& phat, double t) {
    Vec<N> p;
    p.fill(1.0 / N);
    for (int iteration = 0; iteration < 1000; ++iteration) {
        double mu = 0, var = 0;
        for (std::size_t i = 0; i < N; ++i)
            mu += p[i] * a[i];
        for (std::size_t i = 0; i < N; ++i)
            var += p[i] * (a[i] - mu) * (a[i] - mu);
        const double sigma = std::sqrt(var);
        Vec<N> phi;
        for (std::size_t i = 0; i < N; ++i) {
            const double z = (a[i] - mu) / sigma;
            phi[i] = a[i] - 0.5 - 0.5 * t * sigma * (1 + z * z);
        }
        const double u = *std::min_element(phi.begin(), phi.end());
        const double v = *std::max_element(phi.begin(), phi.end());
        const double theta = decreasingRoot(
            [&](double x) {
                double r = 0;
                for (std::size_t i = 0; i < N; ++i)
                    r += phat[i] * phi[i] / (1 + x * phi[i]);
                return r;
            },
            -1.0 / v, -1.0 / u);
        double change = 0;
        for (std::size_t i = 0; i < N; ++i) {
            const double next = phat[i] / (1 + theta * phi[i]);
            change = std::max(change, std::abs(next - p[i]));
            p[i] = next;
        }
        if (change < 1e-12) break;
    }
    return p;
}

template <std::size_t N>
double llr(const SprtConfig& config, const Vec<N>& scores, const std::array<std::int64_t, N>& raw,
           double normalizedScale) {
    Vec<N> counts;
    double total = 0;
    for (std::size_t i = 0; i < N; ++i) {
        counts[i] = raw[i] == 0 ? kRegularization : static_cast<double>(raw[i]);
        total += counts[i];
    }
    Vec<N> phat;
    for (std::size_t i = 0; i < N; ++i)
        phat[i] = counts[i] / total;
    Vec<N> p0, p1;
    if (config.model == EloModel::Logistic) {
        p0 = mleWithMean(scores, phat, scoreFromElo(config.elo0));
        p1 = mleWithMean(scores, phat, scoreFromElo(config.elo1));
    } else {
        p0 = mleWithNormalized(scores, phat, normalizedScale * config.elo0 / kNormalizedScale);
        p1 = mleWithNormalized(scores, phat, normalizedScale * config.elo1 / kNormalizedScale);
    }
    double sum = 0;
    for (std::size_t i = 0; i < N; ++i)
        sum += phat[i] * (std::log(p1[i]) - std::log(p0[i]));
    return total * sum;
}

}  // namespace

std::int64_t Pentanomial::pairs() const {
    std::int64_t n = 0;
    for (const auto c : counts)
        n += c;
    return n;
}

void Pentanomial::add(double first, double second) {
    ++counts[static_cast<std::size_t>(std::lround(2 * (first + second)))];
}

Interval scoreInterval(const Wdl& wdl) {
    return interval<3>({0.0, 0.5, 1.0}, {wdl.losses, wdl.draws, wdl.wins});
}

Interval scoreInterval(const Pentanomial& penta) {
    return interval<5>({0.0, 0.25, 0.5, 0.75, 1.0}, penta.counts);
}

double eloFromScore(double score) {
    if (score <= 0) return -std::numeric_limits<double>::infinity();
    if (score >= 1) return std::numeric_limits<double>::infinity();
    return -400.0 * std::log10(1.0 / score - 1.0);
}

double scoreFromElo(double elo) {
    return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0));
}

EloEstimate eloEstimate(const Interval& interval, bool pairs) {
    EloEstimate e;
    e.elo = eloFromScore(interval.mean);
    e.error = (eloFromScore(interval.high) - eloFromScore(interval.low)) / 2;
    if (interval.samples > 0 && interval.stdev > 0) {
        const double sigma = pairs ? interval.stdev * std::numbers::sqrt2 : interval.stdev;
        e.normalized = (interval.mean - 0.5) / sigma * kNormalizedScale;
        const double perSample = kZ95 / std::sqrt(static_cast<double>(interval.samples));
        e.normalizedError =
            (pairs ? perSample / std::numbers::sqrt2 : perSample) * kNormalizedScale;
    }
    return e;
}

LuckAdjusted luckAdjusted(const std::vector<PairSample>& pairs) {
    LuckAdjusted r;
    const auto n = static_cast<double>(pairs.size());
    r.interval.samples = static_cast<std::int64_t>(pairs.size());
    if (pairs.size() < 2) {
        r.interval.low = 0;
        r.interval.high = 1;
        if (!pairs.empty()) r.interval.mean = r.interval.low = r.interval.high = pairs[0].score;
        return r;
    }
    double my = 0, m1 = 0, m2 = 0;
    for (const auto& p : pairs) {
        my += p.score;
        m1 += p.attackLuck;
        m2 += p.showdownLuck;
    }
    my /= n;
    m1 /= n;
    m2 /= n;
    // Centred second moments.
    double s11 = 0, s12 = 0, s22 = 0, s1y = 0, s2y = 0, syy = 0;
    for (const auto& p : pairs) {
        const double x1 = p.attackLuck - m1, x2 = p.showdownLuck - m2, y = p.score - my;
        s11 += x1 * x1;
        s12 += x1 * x2;
        s22 += x2 * x2;
        s1y += x1 * y;
        s2y += x2 * y;
        syy += y * y;
    }
    // Least squares for y ~ b1 x1 + b2 x2; a variate that never varies (no showdown in
    // any pair, say) is left out.
    constexpr double kTiny = 1e-12;
    double b1 = 0, b2 = 0;
    const double det = s11 * s22 - s12 * s12;
    if (s11 > kTiny && s22 > kTiny && det > kTiny * s11 * s22) {
        b1 = (s22 * s1y - s12 * s2y) / det;
        b2 = (s11 * s2y - s12 * s1y) / det;
    } else if (s11 > kTiny) {
        b1 = s1y / s11;
    } else if (s22 > kTiny) {
        b2 = s2y / s22;
    }
    r.coefficients = {b1, b2};
    // The known expectation of the luck is zero, so the correction is -b . (mean luck).
    r.interval.mean = my - b1 * m1 - b2 * m2;
    double residual = 0;
    for (const auto& p : pairs) {
        const double e = (p.score - my) - b1 * (p.attackLuck - m1) - b2 * (p.showdownLuck - m2);
        residual += e * e;
    }
    // Two fitted coefficients cost two degrees of freedom.
    const double dof = std::max(1.0, n - 1 - (b1 != 0) - (b2 != 0));
    r.interval.stdev = std::sqrt(residual / dof);
    r.varianceRatio = syy > 0 ? (residual / dof) / (syy / (n - 1)) : 1;
    r.plainStdev = std::sqrt(syy / n);
    const double half = kZ95 * r.interval.stdev / std::sqrt(n);
    r.interval.low = std::max(0.0, r.interval.mean - half);
    r.interval.high = std::min(1.0, r.interval.mean + half);
    return r;
}

double likelihoodOfSuperiority(const Wdl& wdl) {
    const auto decisive = static_cast<double>(wdl.wins + wdl.losses);
    if (decisive == 0) return 0.5;
    return 0.5 *
           (1 + std::erf(static_cast<double>(wdl.wins - wdl.losses) / std::sqrt(2 * decisive)));
}

std::string_view eloModelName(EloModel model) {
    return kEloModelNames.name(model);
}

std::string_view sprtStatisticName(SprtStatistic statistic) {
    return kSprtStatisticNames.name(statistic);
}

double SprtConfig::lowerBound() const {
    return std::log(beta / (1 - alpha));
}

double SprtConfig::upperBound() const {
    return std::log((1 - beta) / alpha);
}

SprtDecision SprtConfig::decide(double llr) const {
    if (llr >= upperBound()) return SprtDecision::AcceptH1;
    if (llr <= lowerBound()) return SprtDecision::AcceptH0;
    return SprtDecision::Continue;
}

std::optional<SprtConfig> SprtConfig::parse(std::string_view text, std::string& error) {
    SprtConfig c;
    std::istringstream in{std::string(text)};
    std::string item;
    while (in >> item) {
        const auto eq = item.find('=');
        if (eq == std::string::npos) {
            error = "SPRT parameter '" + item + "' is not of the form key=value";
            return std::nullopt;
        }
        const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
        // The named settings: the model and the statistic.
        const auto setNamed = [&](const auto& names, auto& field, std::string_view what,
                                  std::string_view expected) {
            const auto parsed = names.parse(value);
            if (parsed)
                field = *parsed;
            else
                error = "SPRT " + std::string(what) + " '" + value + "' (expected " +
                        std::string(expected) + ")";
            return parsed.has_value();
        };
        if (key == "model" || key == "statistic") {
            const bool ok = key == "model" ? setNamed(kEloModelNames, c.model, "model",
                                                      "logistic or normalized")
                                           : setNamed(kSprtStatisticNames, c.statistic, "statistic",
                                                      "pentanomial or luck-adjusted");
            if (!ok) return std::nullopt;
            continue;
        }
        const auto v = parseNumber<double>(value);
        double* field = key == "elo0"    ? &c.elo0
                        : key == "elo1"  ? &c.elo1
                        : key == "alpha" ? &c.alpha
                        : key == "beta"  ? &c.beta
                                         : nullptr;
        if (!field) {
            error =
                "unknown SPRT parameter '" + key + "' (elo0, elo1, alpha, beta, model, statistic)";
            return std::nullopt;
        }
        if (!v) {
            error = "SPRT parameter " + key + ": '" + value + "' is not a number";
            return std::nullopt;
        }
        *field = *v;
    }
    // Beyond 1000 Elo (200 normalized: a pair's mean 0.8 standard deviations from a half)
    // the hypotheses' likelihoods have no solution or underflow, and an LLR of NaN never
    // decides; below 1e-6 an error rate makes a bound of ±14 and more that no match reaches.
    constexpr double kMinErrorRate = 1e-6;
    const double maxElo = c.model == EloModel::Normalized ? 200 : 1000;
    if (std::abs(c.elo0) > maxElo || std::abs(c.elo1) > maxElo) {
        error = fmt::format("SPRT: elo0 and elo1 must be from -{0} to {0} under the {1} model",
                            maxElo, eloModelName(c.model));
        return std::nullopt;
    }
    if (c.elo0 >= c.elo1) {
        error = "SPRT: elo0 must be less than elo1";
        return std::nullopt;
    }
    if (c.alpha < kMinErrorRate || c.beta < kMinErrorRate || c.alpha + c.beta >= 1) {
        error = "SPRT: alpha and beta must be at least 0.000001 with alpha + beta < 1";
        return std::nullopt;
    }
    return c;
}

std::string SprtConfig::str() const {
    std::ostringstream s;
    s << "elo0=" << elo0 << " elo1=" << elo1 << " alpha=" << alpha << " beta=" << beta
      << " model=" << eloModelName(model) << " statistic=" << sprtStatisticName(statistic);
    return s.str();
}

double sprtLlr(const SprtConfig& config, const Wdl& wdl) {
    return llr<3>(config, {0.0, 0.5, 1.0}, {wdl.losses, wdl.draws, wdl.wins}, 1.0);
}

double sprtLlr(const SprtConfig& config, const Pentanomial& penta) {
    return llr<5>(config, {0.0, 0.25, 0.5, 0.75, 1.0}, penta.counts, std::numbers::sqrt2);
}

double sprtLlr(const SprtConfig& config, const std::vector<PairSample>& pairs) {
    if (pairs.size() < kMinimumLuckPairs) return 0;
    const auto n = static_cast<double>(pairs.size());
    const LuckAdjusted adjusted = luckAdjusted(pairs);
    double mu0 = scoreFromElo(config.elo0), mu1 = scoreFromElo(config.elo1);
    if (config.model == EloModel::Normalized) {
        const double perPair = std::numbers::sqrt2 * adjusted.plainStdev / kNormalizedScale;
        mu0 = 0.5 + config.elo0 * perPair;
        mu1 = 0.5 + config.elo1 * perPair;
    }
    // Pairs that all score alike leave no spread: a floor keeps the ratio finite, and
    // overwhelming, as the evidence is.
    constexpr double kVarianceFloor = 1e-8;
    const double var = std::max(kVarianceFloor, adjusted.interval.stdev * adjusted.interval.stdev);
    return n * (mu1 - mu0) * (2 * adjusted.interval.mean - mu0 - mu1) / (2 * var);
}

}  // namespace dejarik::arena
