#include "rollout.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <mutex>
#include <thread>

#include "luck.h"
#include "stats.h"

namespace dejarik::analysis {

namespace {

struct PlayoutContext {
    const RolloutConfig& config;
    Player view;
};

// Game `game` from `start` (the root with the candidate played), the engine deciding.
Playout playOut(const Position& start, std::uint64_t game, const PlayoutContext& ctx,
                PositionSearch& searcher, std::uint64_t& decisions) {
    const Rules& rules = start.rules();
    const arena::LuckStream luck(ctx.config.seed, game, 0, arena::DiceMode::Duplicate);
    const double sign = perspective(ctx.view);
    std::array<std::uint64_t, 2> attacks{};
    std::uint64_t rolls = 0;  // Rays of Death's rolls of the combat cell
    Playout p;
    Position pos = start;
    const std::uint32_t capTurn = start.turn() + static_cast<std::uint32_t>(ctx.config.maxTurns);
    while (!pos.isOver()) {
        if (pos.phase() == Phase::Outcome) {
            const Player attacker = pos.sideToMove();
            const arena::AttackRoll roll = arena::rollAttack(
                rules.dice(), rules.ratings(pos.at(pos.pendingFrom()).creature()).attack,
                rules.ratings(pos.at(pos.pendingTo()).creature()).defence,
                luck.attack(attacker, attacks[index(attacker)]++));
            const double l = arena::attackLuck(pos, roll.outcome);
            p.attackLuck += attacker == ctx.view ? l : -l;
            pos.apply(Event::outcome(roll.outcome));
            continue;
        }
        if (pos.phase() == Phase::Roll) {
            const arena::LuckStream::RayRoll dice = luck.rayRoll(rolls++);
            pos.apply(Event::roll(rays::rollCell(dice.d4, dice.d12)));
            continue;
        }
        const search::Report r = searcher.best(pos);
        ++decisions;
        // Truncated, or still going at the cap: the value the engine's search gives the
        // position (its evaluator at the rollout's depth, or the endgame tables), which
        // keeps the estimate unbiased where those values are exact.
        const bool truncated = ctx.config.truncate > 0 && p.actions >= ctx.config.truncate &&
                               pos.phase() == Phase::Decision;
        const bool capped =
            pos.phase() == Phase::Decision && pos.actionsLeft() == 2 && pos.turn() >= capTurn;
        if (truncated || capped) {
            p.result = sign * playerOneView(pos, r.lines.empty() ? 0.0 : r.lines.front().value);
            p.end = PlayoutEnd::Truncated;
            return p;
        }
        if (pos.phase() == Phase::Decision) ++p.actions;
        pos.apply(r.best);
    }
    if (pos.result() == Result::Showdown) {
        const Creature c1 = pos.at(pos.pieces(Player::One).first()).creature();
        const Creature c2 = pos.at(pos.pieces(Player::Two).first()).creature();
        const arena::ShowdownRoll roll = arena::rollShowdown(rules, c1, c2, luck);
        const double r1 = roll.result();
        p.result = sign * r1;
        p.showdownLuck = sign * (r1 - finishedValue(pos));
    } else {
        p.result = sign * finishedValue(pos);
    }
    p.end = p.result > 0 ? PlayoutEnd::Win : p.result < 0 ? PlayoutEnd::Loss : PlayoutEnd::Draw;
    return p;
}

}  // namespace

namespace {

// The luck-adjusted mean of samples of `results` in [-span, span] with their luck, by the
// arena's control variates, which work on scores in [0, 1]: a result r is the score
// (r + span) / (2 span), and the estimate maps back linearly.
Estimate adjustedMean(const std::vector<arena::PairSample>& samples, double span,
                      double* varianceRatio) {
    std::vector<arena::PairSample> scores = samples;
    for (arena::PairSample& p : scores)
        p.score = (p.score + span) / (2 * span);
    const arena::LuckAdjusted adj = arena::luckAdjusted(scores);
    Estimate e;
    const double n = static_cast<double>(samples.size());
    e.mean = 2 * span * adj.interval.mean - span;
    e.stdError = 2 * span * adj.interval.stdev / std::sqrt(n);
    e.low = e.mean - arena::kZ95 * e.stdError;
    e.high = e.mean + arena::kZ95 * e.stdError;
    if (varianceRatio) *varianceRatio = adj.varianceRatio;
    return e;
}

}  // namespace

Estimate difference(const CandidateResult& a, const CandidateResult& b) {
    std::vector<arena::PairSample> samples;
    for (std::size_t g = 0; g < a.playouts.size() && g < b.playouts.size(); ++g) {
        const Playout &x = a.playouts[g], &y = b.playouts[g];
        samples.push_back(
            {x.result - y.result, x.attackLuck - y.attackLuck, x.showdownLuck - y.showdownLuck});
    }
    if (samples.empty()) return {};
    return adjustedMean(samples, 2.0, nullptr);
}

void summarise(CandidateResult& c) {
    const auto n = static_cast<double>(c.playouts.size());
    c.ends = {};
    if (c.playouts.empty()) return;
    double sum = 0;
    for (const Playout& p : c.playouts) {
        sum += p.result;
        ++c.ends[static_cast<std::size_t>(p.end)];
    }
    const double mean = sum / n;
    double ss = 0;
    for (const Playout& p : c.playouts)
        ss += (p.result - mean) * (p.result - mean);
    const double sd = n > 1 ? std::sqrt(ss / (n - 1)) : 0.0;
    c.plain.mean = mean;
    c.plain.stdError = sd / std::sqrt(n);
    c.plain.low = mean - arena::kZ95 * c.plain.stdError;
    c.plain.high = mean + arena::kZ95 * c.plain.stdError;

    std::vector<arena::PairSample> samples;
    for (const Playout& p : c.playouts)
        samples.push_back({p.result, p.attackLuck, p.showdownLuck});
    c.adjusted = adjustedMean(samples, 1.0, &c.varianceRatio);
}

RolloutResult rollout(const Position& root, const std::vector<Candidate>& candidates,
                      const RolloutConfig& config, const RolloutProgress& progress) {
    const auto start = std::chrono::steady_clock::now();
    RolloutResult out;
    out.view = root.chanceDue() ? root.sideToMove() : root.decider();
    const PlayoutContext ctx{config, out.view};
    std::vector<Position> starts;
    for (const Candidate& c : candidates) {
        CandidateResult r;
        r.candidate = c;
        r.playouts.resize(static_cast<std::size_t>(config.games));
        out.candidates.push_back(std::move(r));
        Position p = root;
        if (c.decision) p.apply(*c.decision);
        starts.push_back(p);
    }
    SearchSettings searchSettings = config.search;
    searchSettings.options.threads = 1;
    searchSettings.options.multiPv = 1;

    // Job j is game j / C of candidate j % C: any prefix covers the candidates evenly.
    const std::uint64_t count = candidates.size();
    const std::uint64_t total = count * static_cast<std::uint64_t>(config.games);
    std::atomic<std::uint64_t> nextJob{0};
    std::atomic<std::uint64_t> decisions{0};
    std::uint64_t done = 0;
    std::mutex progressMutex;
    const auto work = [&] {
        PositionSearch searcher(searchSettings);
        std::uint64_t mine = 0;
        for (std::uint64_t j = nextJob++; j < total; j = nextJob++) {
            const std::size_t c = j % count;
            const std::uint64_t game = j / count;
            out.candidates[c].playouts[game] = playOut(starts[c], game, ctx, searcher, mine);
            std::lock_guard lock(progressMutex);
            ++done;
            if (progress) progress(done, total);
        }
        decisions += mine;
    };
    std::vector<std::thread> helpers;
    for (int t = 1; t < config.threads; ++t)
        helpers.emplace_back(work);
    work();
    for (auto& h : helpers)
        h.join();

    for (CandidateResult& c : out.candidates)
        summarise(c);
    out.playouts = total;
    out.decisions = decisions.load();
    out.timeMs = std::chrono::duration_cast<std::chrono::milliseconds>(
                     std::chrono::steady_clock::now() - start)
                     .count();
    return out;
}

}  // namespace dejarik::analysis
