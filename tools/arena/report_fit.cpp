#include "report_fit.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "explain.h"

namespace dejarik::arena {

namespace {

// The decisions, pooled into fine bins of their recorded value: the squared error over the
// decisions is, up to a constant, the squared error of the bins' means weighted by their
// counts, and the fit evaluates the model once per bin instead of once per decision.
constexpr int kFineBins = 400;

struct Pool {
    Ruleset ruleset = Ruleset::Kelly;
    // Per fine bin: the mean searched value, the mean result on the side of its sign (the
    // curve is odd), the share of draws, the decisions.
    std::array<double, kFineBins> value{}, oriented{}, draws{}, count{};
};

// The names of the ruleset's weights: the expected result at |v| = 0.25, 0.5, 0.75, then
// the draw chance at |v| = 0, 0.25, 0.5, 0.75 (eval/tunables.h).
std::array<std::string, 7> modelNames(Ruleset r) {
    const std::string p = r == Ruleset::Holochess        ? "holochess"
                          : r == Ruleset::Dalsian        ? "dalsian"
                          : r == Ruleset::DalsianClassic ? "classic"
                                                         : "kelly";
    return {p + "Report25", p + "Report50", p + "Report75", p + "Draw0",
            p + "Draw25",   p + "Draw50",   p + "Draw75"};
}

// Least squares of a curve linear between knots at |v| = 0, 0.25, 0.5, 0.75 and 1 against
// the pool's `target`, by coordinate descent: each free knot in turn takes its exact
// optimum given the others, clamped between its neighbours when `monotone` (else to
// [0, 1]). `knots` holds all five, the fixed ones (ends) untouched.
void fitCurve(const Pool& pool, const std::array<double, kFineBins>& target,
              std::array<double, 5>& knots, int firstFree, int lastFree, bool monotone) {
    for (int sweep = 0; sweep < 500; ++sweep) {
        for (int j = firstFree; j <= lastFree; ++j) {
            double num = 0, den = 0;
            for (int b = 0; b < kFineBins; ++b) {
                if (pool.count[b] == 0) continue;
                const double a = std::min(std::abs(pool.value[b]), 1.0);
                const int k = std::min(3, static_cast<int>(a * 4));
                const double f = a * 4 - k;
                double w = 0;  // the knot's weight in this bin's prediction
                if (k == j) w = 1 - f;
                if (k + 1 == j) w = f;
                if (w == 0) continue;
                const double rest =
                    (k == j ? 0 : (1 - f) * knots[k]) + (k + 1 == j ? 0 : f * knots[k + 1]);
                num += pool.count[b] * w * (target[b] - rest);
                den += pool.count[b] * w * w;
            }
            if (den == 0) continue;
            const double lo = monotone ? knots[j - 1] : 0.0, hi = monotone ? knots[j + 1] : 1.0;
            knots[j] = std::clamp(num / den, lo, hi);
        }
    }
}

// The expected result (odd in v) and the draw chance (even).
eval::Tunables fit(const Pool& pool) {
    std::array<double, 5> value{0, 0.25, 0.5, 0.75, 1};
    fitCurve(pool, pool.oriented, value, 1, 3, true);
    std::array<double, 5> draw{0, 0, 0, 0, 0};
    fitCurve(pool, pool.draws, draw, 0, 3, false);
    eval::Tunables t;
    const auto names = modelNames(pool.ruleset);
    for (int j = 0; j < 3; ++j)
        (void)t.set(names[j], value[j + 1]);
    for (int j = 0; j < 4; ++j)
        (void)t.set(names[3 + j], draw[j]);
    return t;
}

}  // namespace

std::optional<ReportFit> fitReport(const std::vector<GameRecord>& records,
                                   const std::string& player, int binCount, std::string& error) {
    std::vector<RecordedDecision> decisions;
    if (!forEachDecision(
            records, player, [&](const RecordedDecision& d) { decisions.push_back(d); }, error))
        return std::nullopt;
    if (decisions.empty()) {
        error = "no decision with an ev in the records";
        return std::nullopt;
    }
    Pool pool;
    pool.ruleset = decisions.front().ruleset;
    for (const auto& d : decisions) {
        if (d.ruleset != pool.ruleset) {
            error = "the records mix rulesets (" + std::string(rulesetName(pool.ruleset)) + ", " +
                    std::string(rulesetName(d.ruleset)) + "): fit one at a time";
            return std::nullopt;
        }
        const int b = std::min(kFineBins - 1, static_cast<int>((d.ev + 1) / 2 * kFineBins));
        pool.value[b] += d.ev;
        pool.oriented[b] += (d.ev < 0 ? -1 : 1) * (2 * d.points - 1);
        pool.draws[b] += d.points == 0.5 ? 1 : 0;
        pool.count[b] += 1;
    }
    for (int b = 0; b < kFineBins; ++b)
        if (pool.count[b] > 0) {
            pool.value[b] /= pool.count[b];
            pool.oriented[b] /= pool.count[b];
            pool.draws[b] /= pool.count[b];
        }
    ReportFit result;
    result.ruleset = pool.ruleset;
    result.tunables = fit(pool);
    result.decisions = static_cast<std::int64_t>(decisions.size());
    result.bins.resize(static_cast<std::size_t>(binCount));
    std::vector<std::int64_t> binGame(result.bins.size(), -1);
    for (int b = 0; b < binCount; ++b) {
        result.bins[b].low = -1.0 + 2.0 * b / binCount;
        result.bins[b].high = -1.0 + 2.0 * (b + 1) / binCount;
    }
    double before = 0, after = 0;
    for (const auto& d : decisions) {
        const double actual = 2 * d.points - 1;
        const eval::Reported reported = eval::reported(d.ev, result.ruleset, result.tunables);
        const double r = reported.value;
        before += (d.ev - actual) * (d.ev - actual);
        after += (r - actual) * (r - actual);
        const int b = std::min(binCount - 1, static_cast<int>((r + 1) / 2 * binCount));
        auto& bin = result.bins[b];
        ++bin.decisions;
        if (binGame[b] != d.game) {
            binGame[b] = d.game;
            ++bin.games;
        }
        bin.predicted += r;
        bin.actual += actual;
        bin.predictedDraw += reported.draw;
        bin.actualDraw += d.points == 0.5 ? 1 : 0;
    }
    for (auto& bin : result.bins)
        if (bin.decisions > 0) {
            bin.predicted /= static_cast<double>(bin.decisions);
            bin.actual /= static_cast<double>(bin.decisions);
            bin.predictedDraw /= static_cast<double>(bin.decisions);
            bin.actualDraw /= static_cast<double>(bin.decisions);
        }
    const auto n = static_cast<double>(decisions.size());
    result.meanSquaredErrorBefore = before / n;
    result.meanSquaredErrorAfter = after / n;
    return result;
}

std::optional<Calibration> calibrateReported(const std::vector<GameRecord>& records,
                                             const std::string& player, int bins,
                                             const eval::Tunables& tunables, std::string& error) {
    return calibrate(records, player, bins, error, [&](const RecordedDecision& d) {
        RecordedDecision r = d;
        const eval::Reported rep = eval::reported(d.ev, d.ruleset, tunables);
        r.ev = rep.value;
        r.wdl =
            eval::wdlFromDrawShare(rep.value, rep.draw / std::max(1e-9, 1.0 - std::abs(rep.value)));
        return r;
    });
}

std::string formatReportFit(const ReportFit& fit) {
    std::string out = fmt::format(
        "# {}: fitted to {} decisions; mean squared error of the value {:.4f} as searched, "
        "{:.4f} as reported\n",
        rulesetName(fit.ruleset), fit.decisions, fit.meanSquaredErrorBefore,
        fit.meanSquaredErrorAfter);
    for (const auto& name : modelNames(fit.ruleset))
        out += fmt::format("{} {:.4f}\n", name, *fit.tunables.get(name));
    out += fmt::format("#\n# {:<16} {:>9} {:>6} {:>10} {:>8} {:>10} {:>8}\n", "reported bin",
                       "decisions", "games", "predicted", "actual", "draws", "drawn");
    for (const auto& b : fit.bins) {
        if (b.decisions == 0) continue;
        out += fmt::format(
            "# [{:+.2f}, {:+.2f})  {:>9} {:>6} {:>+10.3f} {:>+8.3f} {:>10.3f} {:>8.3f}\n", b.low,
            b.high, b.decisions, b.games, b.predicted, b.actual, b.predictedDraw, b.actualDraw);
    }
    return out;
}

}  // namespace dejarik::arena
