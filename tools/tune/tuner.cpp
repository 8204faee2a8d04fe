#include "tuner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <thread>

#include "analysis.h"
#include "baselines.h"
#include "deals.h"
#include "eval.h"
#include "search.h"
#include "splitmix.h"

namespace dejarik::tune {

namespace {

// A uniform double in [0, 1).
double uniform(std::uint64_t& state) {
    return static_cast<double>(splitmix64(state) >> 11) * 0x1.0p-53;
}

// A decision of the game walk: greedy most of the time, so that captures come and the
// tables are reached, random otherwise, so that the positions differ.
Event walkDecision(const Position& pos, std::uint64_t& rng) {
    return uniform(rng) < 0.6 ? search::greedyDecision(pos, rng) : search::randomDecision(pos, rng);
}

// An outcome by its probability (the dice).
Event rollOutcome(const Position& pos, std::uint64_t& rng) {
    EventList list;
    pos.generate(list);
    const auto& odds =
        pos.rules()
            .combat(pos.at(pos.pendingFrom()).creature(), pos.at(pos.pendingTo()).creature())
            .probability;
    double u = uniform(rng);
    for (const Event e : list) {
        const double p = odds[static_cast<int>(e.outcome())];
        if (u < p) return e;
        u -= p;
    }
    return list[list.size() - 1];
}

std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

// Plays games from random deals of `ruleset` under `rules` (the walk's players, the dice by
// their odds) and offers every decision point to `take`, which says whether it kept it; a
// game ends after `perGame` kept positions, the walk once `enough()` or after `games` games.
void walkGames(
    const Rules& rules, Ruleset ruleset, std::uint64_t seed, std::uint64_t games, int perGame,
    const std::function<bool(const Position&, std::uint64_t game, std::uint64_t& rng)>& take,
    const std::function<bool()>& enough) {
    constexpr int kMaxEvents = 1500;  // DrawTurns 0: a walk could go on forever
    std::uint64_t rng = seed ^ 0x7E57AB1Eull;
    for (std::uint64_t game = 0; game < games && !enough(); ++game) {
        auto start = Position::fromDfen(arena::randomDeal(ruleset, seed, game), rules);
        if (!start) continue;
        Position pos = *start;
        int taken = 0;
        for (int i = 0; i < kMaxEvents && !pos.isOver() && taken < perGame; ++i) {
            if (pos.phase() == Phase::Outcome) {
                pos.apply(rollOutcome(pos, rng));
                continue;
            }
            if (pos.phase() == Phase::Decision && take(pos, game, rng)) {
                ++taken;
                if (enough()) return;
            }
            const Event e = walkDecision(pos, rng);
            if (e.isNone()) break;
            pos.apply(e);
        }
    }
}

// Runs work(t) for t in [0, threads), t = 0 on the calling thread; returns when all have.
void onThreads(int threads, const std::function<void(int)>& work) {
    std::vector<std::jthread> pool;
    for (int t = 1; t < threads; ++t)
        pool.emplace_back(work, t);
    work(0);
}

bool canAttack(const Position& pos) {
    EventList list;
    pos.generate(list);
    return std::any_of(list.begin(), list.end(),
                       [](Event e) { return e.kind() == EventKind::Attack; });
}

}  // namespace

std::vector<Sample> tableSamples(const tables::Tablebase& tables, Ruleset ruleset, int count,
                                 int perGame, std::uint64_t seed) {
    std::vector<Sample> out;
    walkGames(
        tables.rules(), ruleset, seed, 50 * static_cast<std::uint64_t>(std::max(count, 1)), perGame,
        [&](const Position& pos, std::uint64_t game, std::uint64_t& rng) {
            // Every third eligible position, so that one game gives several stages of play.
            if (pos.occupied().count() > tables.maxPieces() || uniform(rng) >= 0.34) return false;
            const auto v = tables.probe(pos);
            if (v) out.push_back({pos, *v, game});
            return v.has_value();
        },
        [&] { return static_cast<int>(out.size()) >= count; });
    return out;
}

std::vector<Sample> captureSamples(const std::shared_ptr<const tables::Tablebase>& tables,
                                   Ruleset ruleset, const eval::Tunables& start,
                                   const CaptureOptions& options) {
    std::vector<Sample> out;
    walkGames(
        tables->rules(), ruleset, options.seed ^ 0xCA97A3E5ull,
        50 * static_cast<std::uint64_t>(std::max(options.count, 1)), options.perGame,
        [&](const Position& pos, std::uint64_t game, std::uint64_t& rng) {
            if (pos.occupied().count() != tables->maxPieces() + 1 || uniform(rng) >= 0.34 ||
                !canAttack(pos))
                return false;
            out.push_back({pos, 0, game});
            return true;
        },
        [&] { return static_cast<int>(out.size()) >= options.count; });
    // Each thread searches every threads-th position with a searcher of its own.
    const int threads = std::clamp(options.threads, 1, 64);
    const auto work = [&](int t) {
        search::Searcher searcher;
        searcher.setOptions({.hashMiB = 16, .threads = 1, .multiPv = 1});
        searcher.setTables(tables);
        searcher.setTunables(start);
        search::Limits limits;
        limits.depth = std::max(options.depth, 1);
        for (std::size_t i = static_cast<std::size_t>(t); i < out.size();
             i += static_cast<std::size_t>(threads)) {
            const search::Report report = searcher.run(out[i].pos, limits);
            const double v = report.lines.empty() ? 0 : report.lines.front().value;
            out[i].label = out[i].pos.decider() == Player::One ? v : -v;
        }
    };
    onThreads(threads, work);
    return out;
}

std::optional<std::string> recordSamples(const std::vector<arena::GameRecord>& records, int stride,
                                         RecordSamples& out) {
    stride = std::max(stride, 1);
    int seen = 0;
    for (std::size_t r = 0; r < records.size(); ++r) {
        const arena::GameRecord& record = records[r];
        if (arena::isFault(record.termination)) continue;
        std::string error;
        const auto options = arena::parseRulesTag(record.rules, error);
        if (!options) return "record " + record.roundTag() + ": " + error;
        out.rules.push_back(std::make_unique<Rules>(*options));
        const double label = record.outcome == arena::GameOutcome::Player1Wins   ? 1.0
                             : record.outcome == arena::GameOutcome::Player2Wins ? -1.0
                                                                                 : 0.0;
        const auto sample = [&](const arena::RecordedEvent&, Event, const Position& pos,
                                const Position&) {
            if (!pos.isOver() && pos.phase() == Phase::Decision && seen++ % stride == 0)
                out.samples.push_back({pos, label, r});
        };
        if (!arena::forEachEvent(record, *out.rules.back(), sample, error)) return error;
    }
    return std::nullopt;
}

double meanSquaredError(std::span<const Sample> samples, const eval::Tunables& weights,
                        int threads) {
    if (samples.empty()) return 0;
    threads = std::clamp(threads, 1, 64);
    std::vector<double> sums(static_cast<std::size_t>(threads), 0.0);
    const auto work = [&](int t) {
        eval::Memo memo(weights);
        double sum = 0;
        for (std::size_t i = static_cast<std::size_t>(t); i < samples.size();
             i += static_cast<std::size_t>(threads)) {
            const double d = eval::evaluate(samples[i].pos, memo) - samples[i].label;
            sum += d * d;
        }
        sums[static_cast<std::size_t>(t)] = sum;
    };
    onThreads(threads, work);
    double total = 0;
    for (const double s : sums)
        total += s;
    return total / static_cast<double>(samples.size());
}

eval::Tunables fit(std::span<const Sample> samples, const eval::Tunables& start,
                   const FitOptions& options,
                   const std::function<void(const std::string&)>& progress) {
    using Clock = std::chrono::steady_clock;
    const auto deadline =
        Clock::now() + std::chrono::milliseconds(static_cast<std::int64_t>(1000 * options.seconds));
    std::vector<const eval::TunableSpec*> specs;
    for (const std::string& name : options.params)
        if (const eval::TunableSpec* spec = eval::findTunable(name)) specs.push_back(spec);
    eval::Tunables best = start;
    double bestLoss = meanSquaredError(samples, best, options.threads);
    double step = options.firstStep;
    for (int pass = 1; step >= options.lastStep && Clock::now() < deadline; ++pass) {
        std::string moved;
        for (const eval::TunableSpec* spec : specs) {
            const double range = spec->max - spec->min;
            double delta = step * range;
            if (spec->integral()) delta = std::max(1.0, std::round(delta));
            const double now = spec->get(best);
            for (const double sign : {1.0, -1.0}) {
                const double next = std::clamp(now + sign * delta, spec->min, spec->max);
                if (next == now) continue;
                eval::Tunables trial = best;
                if (trial.set(spec->name, spec->integral() ? std::round(next) : next)) continue;
                const double loss = meanSquaredError(samples, trial, options.threads);
                if (loss < bestLoss) {
                    bestLoss = loss;
                    best = trial;
                    moved += " " + std::string(spec->name) + "=" + number(spec->get(best));
                    break;
                }
            }
            if (Clock::now() >= deadline) break;
        }
        if (progress)
            progress("pass " + std::to_string(pass) + " step " + number(step) + " loss " +
                     number(bestLoss) + (moved.empty() ? " (no move: step halved)" : moved));
        if (moved.empty()) step /= 2;
    }
    return best;
}

std::vector<std::string> defaultParams(const Rules& rules) {
    // The ruleset's own evaluation weights (eval::EvalWeights), by their prefixed names.
    std::vector<std::string> names;
    for (const std::string_view base : eval::kEvalWeightNames)
        names.push_back(eval::evalWeightName(base, rules.ruleset()));
    if (rules.kingOfTheCentre()) names.insert(names.end(), {"centreKing", "centreWorth"});
    if (rules.safeOuterOrbit()) names.emplace_back("safeRing");
    if (rules.centreWin() > 0)
        names.insert(names.end(), {"holdStep", "holdContested", "holdWin", "holdWinRest"});
    return names;
}

std::vector<std::string> splitNames(const std::string& list) {
    std::vector<std::string> out;
    std::stringstream in(list);
    for (std::string name; std::getline(in, name, ',');)
        if (!name.empty()) out.push_back(name);
    return out;
}

}  // namespace dejarik::tune
