#include "results.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "names.h"
#include "number.h"
#include "text.h"
#include "text_file.h"

namespace dejarik::arena {

namespace {

constexpr std::string_view kMagic = "# dejarik-arena results 1";

std::string signedNumber(double v, int decimals) {
    if (std::isinf(v)) return v > 0 ? "+inf" : "-inf";
    if (std::isnan(v)) return "nan";
    // No "-0.0": a value that rounds to zero is printed as +0.0.
    if (std::abs(v) < 0.5 * std::pow(10.0, -decimals)) v = 0;
    return fmt::format("{:+.{}f}", v, decimals);
}

std::string plusMinus(double v, int decimals) {
    if (std::isinf(v) || std::isnan(v)) return "inf";
    return fmt::format("{:.{}f}", v, decimals);
}

constexpr NameTable<TournamentKind, 2> kTournamentKindNames{{"roundrobin", "gauntlet"}};
constexpr NameTable<SprtDecision, 3> kSprtVerdicts{{"continue", "H0 accepted", "H1 accepted"}};

std::string pentaText(const Pentanomial& p) {
    return fmt::format("[{}, {}, {}, {}, {}]", p.counts[0], p.counts[1], p.counts[2], p.counts[3],
                       p.counts[4]);
}

}  // namespace

std::string_view tournamentKindName(TournamentKind k) {
    return kTournamentKindNames.name(k);
}

std::optional<TournamentKind> parseTournamentKind(std::string_view name) {
    return kTournamentKindNames.parse(name);
}

std::vector<Encounter> scheduleEncounters(TournamentKind kind, int engines) {
    std::vector<Encounter> out;
    for (int i = 0; i < engines; ++i)
        for (int j = i + 1; j < engines; ++j)
            if (kind == TournamentKind::RoundRobin || i == 0) out.push_back({i, j});
    return out;
}

Job jobAt(std::uint64_t index, std::size_t encounterCount) {
    return {index, static_cast<int>(index % encounterCount), index / encounterCount};
}

std::string ResultsFile::header() const {
    std::string s = std::string(kMagic) + "\n";
    s += "fingerprint " + fingerprint + "\n";
    for (const auto& d : description)
        s += "setting " + d + "\n";
    for (std::size_t i = 0; i < engines.size(); ++i)
        s += "engine " + std::to_string(i) + " " + engines[i] + "\n";
    for (std::size_t i = 0; i < encounters.size(); ++i)
        s += fmt::format("encounter {} {} {}\n", i, encounters[i].first, encounters[i].second);
    s += "pairs " + std::to_string(pairs) + "\n";
    return s;
}

std::string ResultsFile::formatGame(const GameLine& g) {
    return fmt::format(
        "game job={} round={} game={} encounter={} p1={} p2={} result={} termination={} "
        "turns={} events={} attack-luck={:+.4f} showdown-luck={:+.4f}\n",
        g.job, g.round + 1, g.game + 1, g.encounter, g.player1, g.player2, outcomeTag(g.outcome),
        terminationName(g.termination), g.turns, g.events, g.luck.attackPoints(),
        g.luck.showdownPoints());
}

std::optional<ResultsFile> parseResults(std::string_view text, std::string& error) {
    ResultsFile r;
    std::istringstream in{std::string(text)};
    std::string line;
    int n = 0;
    const auto fail = [&](const std::string& what) {
        error = "line " + std::to_string(n) + ": " + what;
        return std::nullopt;
    };
    while (std::getline(in, line)) {
        ++n;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (n == 1) {
            if (line != kMagic) return fail("not a dejarik-arena results file");
            continue;
        }
        if (line.empty() || line[0] == '#') continue;
        std::istringstream w(line);
        std::string kind;
        w >> kind;
        std::string rest;
        std::getline(w, rest);
        if (!rest.empty() && rest[0] == ' ') rest.erase(0, 1);
        if (kind == "fingerprint") {
            r.fingerprint = rest;
        } else if (kind == "setting") {
            r.description.push_back(rest);
        } else if (kind == "engine") {
            const auto space = rest.find(' ');
            const auto index = parseNumber<std::size_t>(rest.substr(0, space));
            if (!index || *index != r.engines.size() || space == std::string::npos)
                return fail("malformed engine line");
            r.engines.push_back(rest.substr(space + 1));
        } else if (kind == "encounter") {
            std::istringstream e(rest);
            std::size_t index = 0;
            Encounter enc;
            if (!(e >> index >> enc.first >> enc.second) || index != r.encounters.size())
                return fail("malformed encounter line");
            // The engine lines come first (ResultsFile::header), so the engines are known here.
            const auto known = [&](int engine) {
                return engine >= 0 && static_cast<std::size_t>(engine) < r.engines.size();
            };
            if (!known(enc.first) || !known(enc.second) || enc.first == enc.second)
                return fail("encounter of engines the file does not list");
            r.encounters.push_back(enc);
        } else if (kind == "pairs") {
            const auto p = parseNumber<std::uint64_t>(rest);
            if (!p) return fail("malformed pairs line");
            r.pairs = *p;
        } else if (kind == "game") {
            GameLine g;
            std::istringstream items(rest);
            std::string item;
            std::set<std::string> seen;
            while (items >> item) {
                const auto eq = item.find('=');
                if (eq == std::string::npos) return fail("malformed item " + text::quoted(item));
                const std::string key = item.substr(0, eq);
                const std::string_view value = std::string_view(item).substr(eq + 1);
                bool ok = true;
                if (key == "job") {
                    const auto v = parseNumber<std::uint64_t>(value);
                    ok = v.has_value();
                    g.job = v.value_or(0);
                } else if (key == "round") {
                    const auto v = parseNumber<std::uint64_t>(value);
                    ok = v && *v >= 1;
                    g.round = v.value_or(1) - 1;
                } else if (key == "game") {
                    const auto v = parseNumber<int>(value);
                    ok = v && (*v == 1 || *v == 2);
                    g.game = v.value_or(1) - 1;
                } else if (key == "encounter" || key == "p1" || key == "p2") {
                    const auto v = parseNumber<int>(value);
                    ok = v && *v >= 0;
                    (key == "encounter" ? g.encounter
                     : key == "p1"      ? g.player1
                                        : g.player2) = v.value_or(0);
                } else if (key == "result") {
                    const auto v = parseOutcomeTag(value);
                    ok = v.has_value();
                    g.outcome = v.value_or(GameOutcome::Draw);
                } else if (key == "termination") {
                    const auto v = parseTermination(value);
                    ok = v.has_value();
                    g.termination = v.value_or(Termination::QuietDraw);
                } else if (key == "turns") {
                    const auto v = parseNumber<std::uint32_t>(value);
                    ok = v.has_value();
                    g.turns = v.value_or(0);
                } else if (key == "attack-luck" || key == "showdown-luck") {
                    const auto luck = Luck::parse(
                        (key == "attack-luck" ? "attacks=" : "showdown=") + std::string(value) +
                        (key == "attack-luck" ? " showdown=0" : " attacks=0"));
                    ok = luck.has_value();
                    if (luck)
                        (key == "attack-luck" ? g.luck.attacks : g.luck.showdown) =
                            key == "attack-luck" ? luck->attacks : luck->showdown;
                } else if (key == "events") {
                    const auto v = parseNumber<std::uint64_t>(value);
                    ok = v.has_value();
                    g.events = v.value_or(0);
                }
                if (!ok) return fail("bad value in " + text::quoted(item));
                seen.insert(key);
            }
            for (const char* key :
                 {"job", "round", "game", "encounter", "p1", "p2", "result", "termination"})
                if (!seen.contains(key)) return fail(std::string("game line without ") + key);
            if (static_cast<std::size_t>(g.encounter) >= r.encounters.size())
                return fail("game of an unknown encounter");
            const Encounter& enc = r.encounters[g.encounter];
            const bool seatsMatch = g.game == 0 ? g.player1 == enc.first && g.player2 == enc.second
                                                : g.player1 == enc.second && g.player2 == enc.first;
            if (!seatsMatch) return fail("game players do not match its encounter");
            r.games.push_back(g);
        } else {
            return fail("unknown line kind " + text::quoted(kind));
        }
    }
    if (n == 0) {
        error = "empty results file";
        return std::nullopt;
    }
    return r;
}

std::optional<ResultsFile> readResultsFile(const std::string& path, std::string& error) {
    const auto text = readTextFile(path, error);
    if (!text) return std::nullopt;
    auto r = parseResults(*text, error);
    if (!r) error = path + ": " + error;
    return r;
}

std::optional<std::string> otherRun(const ResultsFile& run, std::string_view runName,
                                    const ResultsFile& file) {
    if (file.fingerprint != run.fingerprint)
        return fmt::format(
            "comes from a run with other settings than {} (fingerprint {}, not {}; the "
            "'setting' lines tell which)",
            runName, file.fingerprint, run.fingerprint);
    // The fingerprint names the settings, not the lines: a file cut short or edited can
    // keep it and lose the engines its games refer to.
    if (file.engines != run.engines || file.encounters != run.encounters)
        return fmt::format("lists other engines or encounters than {} (cut short or edited?)",
                           runName);
    return std::nullopt;
}

std::optional<ResultsFile> mergeResults(const std::vector<ResultsFile>& files, std::string& error) {
    if (files.empty()) {
        error = "nothing to merge";
        return std::nullopt;
    }
    ResultsFile merged = files[0];
    merged.games.clear();
    std::map<std::pair<std::uint64_t, int>, GameLine> games;
    for (std::size_t f = 0; f < files.size(); ++f) {
        const auto& file = files[f];
        if (const auto why = otherRun(merged, "file 1", file)) {
            error = "file " + std::to_string(f + 1) + " " + *why;
            return std::nullopt;
        }
        for (const auto& g : file.games) {
            const auto [it, inserted] = games.emplace(std::pair(g.job, g.game), g);
            if (!inserted && !(it->second == g)) {
                error = fmt::format("job {} game {} has two different results", g.job, g.game + 1);
                return std::nullopt;
            }
        }
    }
    for (const auto& [key, g] : games)
        merged.games.push_back(g);
    return merged;
}

std::vector<EncounterStats> tally(const ResultsFile& results) {
    std::vector<EncounterStats> stats(results.encounters.size());
    struct PairPoints {
        int encounter = 0;
        std::array<std::optional<double>, 2> points;
        std::array<Luck, 2> luck;  // player 1's, per game
    };
    std::map<std::uint64_t, PairPoints> pairs;
    for (const auto& g : results.games) {
        const Encounter& enc = results.encounters[g.encounter];
        EncounterStats& s = stats[g.encounter];
        const Player firstSeat = g.player1 == enc.first ? Player::One : Player::Two;
        const double points = pointsFor(g.outcome, firstSeat);
        s.wdl.add(points);
        ++s.terminations[g.termination];
        if (isFault(g.termination))
            ++s.faults[g.outcome == GameOutcome::Player1Wins ? g.player2 : g.player1];
        auto& pair = pairs[g.job];
        pair.encounter = g.encounter;
        pair.points[g.game] = points;
        pair.luck[g.game] = g.luck;
    }
    for (const auto& [job, pair] : pairs) {
        if (!pair.points[0] || !pair.points[1]) continue;
        auto& s = stats[pair.encounter];
        s.penta.add(*pair.points[0], *pair.points[1]);
        // The first engine is player 1 in game 1 and player 2 in game 2.
        s.pairs.push_back({(*pair.points[0] + *pair.points[1]) / 2,
                           (pair.luck[0].attackPoints() - pair.luck[1].attackPoints()) / 2,
                           (pair.luck[0].showdownPoints() - pair.luck[1].showdownPoints()) / 2});
    }
    return stats;
}

double sprtLlr(const SprtConfig& config, const EncounterStats& stats) {
    return config.statistic == SprtStatistic::LuckAdjusted ? sprtLlr(config, stats.pairs)
                                                           : sprtLlr(config, stats.penta);
}

std::string formatTable(const ResultsFile& results, const std::optional<SprtConfig>& sprt) {
    const auto stats = tally(results);
    std::string out;
    out += fmt::format("{:<32} {:>6} {:>6} {:>5} {:>5} {:>5}  {:>6}  {:<16} {:<18} {:<18} {}\n",
                       "encounter", "pairs", "games", "W", "D", "L", "score", "95% (pairs)", "Elo",
                       "nElo", "pairs 0/.5/1/1.5/2");
    std::map<Termination, std::int64_t> terminations;
    std::map<int, std::int64_t> faults;
    std::vector<Wdl> perEngine(results.engines.size());
    for (std::size_t e = 0; e < stats.size(); ++e) {
        const auto& s = stats[e];
        const Encounter& enc = results.encounters[e];
        const std::string label = results.engines[enc.first] + " vs " + results.engines[enc.second];
        // The pair statistics when there are complete pairs; per game otherwise.
        const bool usePairs = s.penta.pairs() > 0;
        const Interval iv = usePairs ? scoreInterval(s.penta) : scoreInterval(s.wdl);
        const EloEstimate elo = eloEstimate(iv, usePairs);
        out += fmt::format(
            "{:<32} {:>6} {:>6} {:>5} {:>5} {:>5}  {:>6.3f}  [{:.3f}, {:.3f}]   {:<18} {:<18} {}\n",
            label, s.penta.pairs(), s.wdl.games(), s.wdl.wins, s.wdl.draws, s.wdl.losses,
            scoreInterval(s.wdl).mean, iv.low, iv.high,
            signedNumber(elo.elo, 1) + " ± " + plusMinus(elo.error, 1),
            signedNumber(elo.normalized, 1) + " ± " + plusMinus(elo.normalizedError, 1),
            pentaText(s.penta));
        for (const auto& [t, c] : s.terminations)
            terminations[t] += c;
        for (const auto& [engine, c] : s.faults)
            faults[engine] += c;
        perEngine[enc.first].wins += s.wdl.wins;
        perEngine[enc.first].draws += s.wdl.draws;
        perEngine[enc.first].losses += s.wdl.losses;
        perEngine[enc.second].wins += s.wdl.losses;
        perEngine[enc.second].draws += s.wdl.draws;
        perEngine[enc.second].losses += s.wdl.wins;
    }
    std::string adjusted;
    for (std::size_t e = 0; e < stats.size(); ++e) {
        const auto& s = stats[e];
        if (s.pairs.size() < kMinimumLuckPairs) continue;
        const Encounter& enc = results.encounters[e];
        const LuckAdjusted adj = luckAdjusted(s.pairs);
        const EloEstimate elo = eloEstimate(adj.interval, true);
        adjusted += fmt::format(
            "  {:<30} score {:.3f} [{:.3f}, {:.3f}]  Elo {} ± {}  pair sd {:.3f} -> {:.3f}\n",
            results.engines[enc.first] + " vs " + results.engines[enc.second], adj.interval.mean,
            adj.interval.low, adj.interval.high, signedNumber(elo.elo, 1), plusMinus(elo.error, 1),
            scoreInterval(s.penta).stdev, adj.interval.stdev);
    }
    if (!adjusted.empty())
        out +=
            "\nluck-adjusted (the dice's luck of each pair as control variates, docs/arena.md):\n" +
            adjusted;
    if (results.encounters.size() > 1) {
        out += "\nstandings (score against all opponents):\n";
        std::vector<std::size_t> order(results.engines.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return perEngine[a].points() / std::max<std::int64_t>(1, perEngine[a].games()) >
                   perEngine[b].points() / std::max<std::int64_t>(1, perEngine[b].games());
        });
        for (const std::size_t i : order) {
            const Interval iv = scoreInterval(perEngine[i]);
            out += fmt::format("  {:<24} {:>7.1f}/{:<6} score {:.3f}  Elo {}\n", results.engines[i],
                               perEngine[i].points(), perEngine[i].games(), iv.mean,
                               signedNumber(eloFromScore(iv.mean), 1));
        }
    }
    out += "\nterminations:";
    for (const auto& [t, c] : terminations)
        out += fmt::format(" {} {}", terminationName(t), c);
    out += "\n";
    if (!faults.empty()) {
        out += "games lost by a fault (illegal, crash, stall, time):";
        for (const auto& [engine, c] : faults)
            out += fmt::format(" {} {}", results.engines[engine], c);
        out += "\n";
    }
    if (sprt && stats.size() == 1) {
        const double llr = sprtLlr(*sprt, stats[0]);
        out += fmt::format("SPRT ({}): LLR {:.2f} [{:.2f}, {:.2f}]: {}\n", sprt->str(), llr,
                           sprt->lowerBound(), sprt->upperBound(),
                           kSprtVerdicts.name(sprt->decide(llr)));
    }
    return out;
}

std::string formatProgress(const ResultsFile& results, std::uint64_t pairsTotal,
                           const std::optional<SprtConfig>& sprt) {
    const auto stats = tally(results);
    std::int64_t pairs = 0;
    Wdl all;
    for (const auto& s : stats) {
        pairs += s.penta.pairs();
        all.wins += s.wdl.wins;
        all.draws += s.wdl.draws;
        all.losses += s.wdl.losses;
    }
    std::string line = fmt::format("[{}/{} pairs, {} games]", pairs, pairsTotal, all.games());
    if (stats.size() == 1) {
        const auto& s = stats[0];
        const Interval iv = s.penta.pairs() > 0 ? scoreInterval(s.penta) : scoreInterval(s.wdl);
        const EloEstimate elo = eloEstimate(iv, s.penta.pairs() > 0);
        line += fmt::format(" {} vs {}: +{} ={} -{}  score {:.3f} [{:.3f}, {:.3f}]  Elo {} ± {}",
                            results.engines[results.encounters[0].first],
                            results.engines[results.encounters[0].second], s.wdl.wins, s.wdl.draws,
                            s.wdl.losses, scoreInterval(s.wdl).mean, iv.low, iv.high,
                            signedNumber(elo.elo, 1), plusMinus(elo.error, 1));
        if (sprt)
            line += fmt::format("  LLR {:.2f} [{:.2f}, {:.2f}]", sprtLlr(*sprt, s),
                                sprt->lowerBound(), sprt->upperBound());
    }
    return line;
}

std::string fingerprintOf(std::string_view text) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (const char c : text) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ull;
    }
    return fmt::format("{:016x}", h);
}

}  // namespace dejarik::arena
