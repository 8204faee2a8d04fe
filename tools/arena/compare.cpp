#include "compare.h"

#include <cmath>
#include <map>
#include <sstream>
#include <utility>

#include <fmt/format.h>

namespace dejarik::arena {

namespace {

// A pair is known by its opponent and its round: a player may meet several opponents on
// the same deals (a round robin).
using PairKey = std::pair<std::string, std::uint64_t>;

struct PairGames {
    std::array<const GameRecord*, 2> games{};  // by game of the pair
    std::array<Player, 2> seat{};
    bool fault = false;
};

// The player's pairs in one run. Error: the same game twice.
std::optional<std::map<PairKey, PairGames>> pairsOf(const std::vector<GameRecord>& records,
                                                    const std::string& player, std::string_view run,
                                                    std::string& error) {
    std::map<PairKey, PairGames> pairs;
    for (const auto& r : records) {
        if (!r.finished) continue;
        const auto seat = r.seatOf(player);
        if (!seat) continue;
        const std::string& opponent = r.players[*seat == Player::One ? 1 : 0];
        PairGames& p = pairs[{opponent, r.round}];
        const auto g = static_cast<std::size_t>(r.gameInPair);
        if (p.games[g]) {
            error = fmt::format("run {}: record {} of {} against {} appears twice", run,
                                r.roundTag(), player, opponent);
            return std::nullopt;
        }
        p.games[g] = &r;
        p.seat[g] = *seat;
        p.fault = p.fault || isFault(r.termination);
    }
    return pairs;
}

[[nodiscard]] bool complete(const PairGames& p) {
    return p.games[0] && p.games[1] && !p.fault;
}

// The player's mean score over a complete pair, and its luck (the mean of its luck in the
// two games, from its own seat).
PairSample sampleOf(const PairGames& p) {
    PairSample s{0, 0, 0};
    for (std::size_t g = 0; g < 2; ++g) {
        const GameRecord& r = *p.games[g];
        const double sign = p.seat[g] == Player::One ? 1 : -1;
        s.score += pointsFor(r.outcome, p.seat[g]) / 2;
        s.attackLuck += sign * r.luck.attackPoints() / 2;
        s.showdownLuck += sign * r.luck.showdownPoints() / 2;
    }
    return s;
}

void tallyPair(const PairGames& p, Wdl& wdl) {
    for (std::size_t g = 0; g < 2; ++g)
        wdl.add(pointsFor(p.games[g]->outcome, p.seat[g]));
}

// Why the two runs' games of a pair cannot be compared, or nothing.
std::optional<std::string> mismatch(const GameRecord& a, const GameRecord& b, const PairKey& key) {
    const auto differs = [&](std::string_view what, const std::string& x, const std::string& y) {
        return fmt::format(
            "record {} against {}: the runs' {} differ ({} in A, {} in B): "
            "compare runs of the same deals and dice",
            a.roundTag(), key.first, what, x, y);
    };
    if (a.deal != b.deal) return differs("deals", a.deal, b.deal);
    if (a.seed != b.seed) return differs("seeds", std::to_string(a.seed), std::to_string(b.seed));
    if (a.diceMode != b.diceMode)
        return differs("dice", std::string(diceModeName(a.diceMode)),
                       std::string(diceModeName(b.diceMode)));
    if (a.rules != b.rules) return differs("rules", a.rules, b.rules);
    return std::nullopt;
}

// "+0.012 ± 0.024".
std::string formatDifference(const Difference& d) {
    return fmt::format("{:+.3f} ± {:.3f}", d.mean, d.halfWidth);
}

}  // namespace

std::optional<Comparison> compareRuns(const std::vector<GameRecord>& a,
                                      const std::vector<GameRecord>& b,
                                      const CompareOptions& options, std::string& error) {
    const std::string& nameB = options.playerB.empty() ? options.player : options.playerB;
    const auto pairsA = pairsOf(a, options.player, "A", error);
    if (!pairsA) return std::nullopt;
    const auto pairsB = pairsOf(b, nameB, "B", error);
    if (!pairsB) return std::nullopt;

    Comparison c;
    std::vector<PairSample> differences;
    for (const auto& [key, pa] : *pairsA) {
        const auto it = pairsB->find(key);
        if (it == pairsB->end() || !complete(pa) || !complete(it->second)) {
            if (complete(pa)) ++c.leftOut;
            continue;
        }
        const PairGames& pb = it->second;
        for (std::size_t g = 0; g < 2; ++g) {
            if (auto why = mismatch(*pa.games[g], *pb.games[g], key)) {
                error = std::move(*why);
                return std::nullopt;
            }
        }
        const PairSample sa = sampleOf(pa), sb = sampleOf(pb);
        differences.push_back({sa.score - sb.score, sa.attackLuck - sb.attackLuck,
                               sa.showdownLuck - sb.showdownLuck});
        const PairSample& d = differences.back();
        c.differing += d.score != 0 ? 1 : 0;
        c.playedDifferently += d.score != 0 || d.attackLuck != 0 || d.showdownLuck != 0 ? 1 : 0;
        tallyPair(pa, c.wdl[0]);
        tallyPair(pb, c.wdl[1]);
    }
    for (const auto& [key, pb] : *pairsB)
        if (complete(pb) && (!pairsA->contains(key) || !complete(pairsA->at(key)))) ++c.leftOut;

    c.pairs = static_cast<std::int64_t>(differences.size());
    if (c.pairs < 2) {
        error = fmt::format(
            "{} pairs of {} complete in both runs: comparing needs two or more (are they runs of "
            "the same deals, with the same opponent's name?)",
            c.pairs, options.player);
        return std::nullopt;
    }
    const auto n = static_cast<double>(c.pairs);
    double mean = 0;
    for (const auto& d : differences)
        mean += d.score / n;
    double squares = 0;
    for (const auto& d : differences)
        squares += (d.score - mean) * (d.score - mean);
    c.plain = {mean, kZ95 * std::sqrt(squares / (n - 1)) / std::sqrt(n)};
    // The luck of each run has expectation zero whatever the engines do, and so has the
    // difference of the two: the same control variates as a run's own luck-adjusted score.
    const LuckAdjusted adjusted = luckAdjusted(differences);
    c.varianceRatio = adjusted.varianceRatio;
    // A pair played alike in both runs had the same result and luck in both, a zero
    // difference that tells the fit nothing: it learns only from the pairs played
    // differently, and needs as many of those as any luck fit needs pairs.
    if (c.playedDifferently >= static_cast<std::int64_t>(kMinimumLuckPairs))
        c.luckAdjusted =
            Difference{adjusted.interval.mean, kZ95 * adjusted.interval.stdev / std::sqrt(n)};
    return c;
}

std::string formatComparison(const Comparison& c, const CompareOptions& options,
                             const std::string& nameA, const std::string& nameB) {
    std::ostringstream out;
    const bool renamed = !options.playerB.empty() && options.playerB != options.player;
    out << options.player << (renamed ? " (" + options.playerB + " in B)" : "")
        << ", pair by pair: " << c.pairs << " pairs of the same deals and dice in both runs, "
        << c.differing << " ended differently (" << c.playedDifferently << " played differently)";
    if (c.leftOut > 0) out << "; " << c.leftOut << " pairs complete in one run only left out";
    out << "\n\nrun  games      W      D      L   score  file\n";
    const std::array<std::string, 2> files{nameA, nameB};
    for (std::size_t i = 0; i < 2; ++i) {
        const Wdl& w = c.wdl[i];
        out << fmt::format("{:<3}  {:>5}  {:>5}  {:>5}  {:>5}   {:.3f}  {}\n", i == 0 ? "A" : "B",
                           w.games(), w.wins, w.draws, w.losses,
                           w.points() / static_cast<double>(w.games()), files[i]);
    }
    out << "\nA - B per game:  " << formatDifference(c.plain) << " (95%)\n";
    if (c.luckAdjusted) {
        out << "luck-adjusted:   " << formatDifference(*c.luckAdjusted)
            << fmt::format(" (the pairs' luck as control variates; variance x{:.2f})\n",
                           c.varianceRatio);
    } else {
        out << "luck-adjusted:   needs " << kMinimumLuckPairs << " pairs played differently\n";
    }
    if (c.playedDifferently < static_cast<std::int64_t>(kMinimumLuckPairs))
        out << "(only " << c.playedDifferently
            << " pairs were played differently: the interval rests on them alone, and its normal "
               "approximation is rough)\n";
    return out.str();
}

}  // namespace dejarik::arena
