#include "analysis.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "text.h"

namespace dejarik::arena {

std::optional<Replay> replayRecord(const GameRecord& record, std::string& error) {
    const auto options = parseRulesTag(record.rules, error);
    if (!options) return std::nullopt;
    Replay replay;
    replay.rules = std::make_unique<Rules>(*options);
    const auto start = Position::fromDfen(record.deal, *replay.rules, &error);
    if (!start) {
        error = "Deal: " + error;
        return std::nullopt;
    }
    replay.final = playTokens(*start, record.moves(), &error);
    if (!replay.final) return std::nullopt;
    if (!record.finalDfen.empty() && replay.final->dfen() != record.finalDfen) {
        error =
            "the events lead to " + replay.final->dfen() + ", the record says " + record.finalDfen;
        return std::nullopt;
    }
    return replay;
}

namespace {

std::string recordLabel(const GameRecord& record) {
    return "record " + record.roundTag() + ": ";
}

}  // namespace

std::optional<Position> recordStart(const GameRecord& record, const Rules& rules,
                                    std::string& error) {
    auto pos = Position::fromDfen(record.deal, rules, &error);
    if (!pos) error = recordLabel(record) + "Deal: " + error;
    return pos;
}

bool forEachEvent(const GameRecord& record, const Rules& rules, const EventVisit& visit,
                  std::string& error) {
    auto pos = recordStart(record, rules, error);
    if (!pos) return false;
    for (std::size_t i = 0; i < record.events.size(); ++i) {
        const auto& e = record.events[i];
        const auto event = pos->parseEvent(e.token);
        if (!event) {
            error = recordLabel(record) + "event " + std::to_string(i + 1) + " " +
                    text::quoted(e.token) + " is not legal";
            return false;
        }
        Position after = *pos;
        after.apply(*event);
        visit(e, *event, *pos, after);
        *pos = std::move(after);
    }
    return true;
}

bool forEachGameOf(const std::vector<GameRecord>& records, const std::string& player,
                   RulesCache& cache, const GameVisit& visit, std::string& error) {
    for (const auto& record : records) {
        if (!record.finished || isFault(record.termination)) continue;
        const auto seat = record.seatOf(player);
        if (!seat) continue;
        auto& rules = cache[record.rules];
        if (!rules) {
            const auto parsed = parseRulesTag(record.rules, error);
            if (!parsed) {
                cache.erase(record.rules);
                return false;
            }
            rules = std::make_unique<Rules>(*parsed);
        }
        if (!visit(record, *seat, *rules)) return false;
    }
    return true;
}

bool forEachDecision(const std::vector<GameRecord>& records, const std::string& player,
                     const std::function<void(const RecordedDecision&)>& visit,
                     std::string& error) {
    std::int64_t game = 0;
    for (const auto& record : records) {
        // A game without a result (saved mid-game by the GUI) says nothing of its ev.
        if (!record.finished || isFault(record.termination)) continue;
        const auto options = parseRulesTag(record.rules, error);
        if (!options) return false;
        const Rules rules(*options);
        const bool ok = forEachEvent(
            record, rules,
            [&](const RecordedEvent& e, Event, const Position& pos, const Position&) {
                if (pos.chanceDue()) return;
                const Player decider = pos.decider();
                const DecisionInfo info = DecisionInfo::parse(e.comment);
                if (info.ev && (player.empty() || record.players[index(decider)] == player))
                    visit({std::clamp(*info.ev / 1000.0, -1.0, 1.0), info.wdl,
                           pointsFor(record.outcome, decider), game, rules.ruleset()});
            },
            error);
        if (!ok) return false;
        ++game;
    }
    return true;
}

std::optional<Calibration> calibrate(const std::vector<GameRecord>& records,
                                     const std::string& player, int binCount, std::string& error,
                                     const Restate& restate) {
    Calibration c;
    c.bins.resize(static_cast<std::size_t>(binCount));
    for (int b = 0; b < binCount; ++b) {
        c.bins[b].low = -1.0 + 2.0 * b / binCount;
        c.bins[b].high = -1.0 + 2.0 * (b + 1) / binCount;
    }
    double squaredError = 0;
    std::int64_t lastGame = -1;
    // Per bin, the last game that had a decision in it: games are counted once per bin.
    std::vector<std::int64_t> binGame(c.bins.size(), -1);
    const bool ok = forEachDecision(
        records, player,
        [&](const RecordedDecision& recorded) {
            const RecordedDecision d = restate ? restate(recorded) : recorded;
            const double actual = 2 * d.points - 1;
            const int b = std::min(binCount - 1, static_cast<int>((d.ev + 1) / 2 * binCount));
            auto& bin = c.bins[b];
            ++bin.decisions;
            if (binGame[b] != d.game) {
                binGame[b] = d.game;
                ++bin.games;
            }
            bin.predicted += d.ev;
            bin.actual += actual;
            if (d.wdl) {
                ++bin.withWdl;
                for (int k = 0; k < 3; ++k)
                    bin.predictedWdl[k] += (*d.wdl)[k] / 1000.0;
                bin.actualWdl[d.points == 1 ? 0 : d.points == 0 ? 2 : 1] += 1;
            }
            ++c.decisions;
            squaredError += (d.ev - actual) * (d.ev - actual);
            if (lastGame != d.game) {
                lastGame = d.game;
                ++c.games;
            }
        },
        error);
    if (!ok) return std::nullopt;
    for (auto& bin : c.bins) {
        if (bin.decisions > 0) {
            bin.predicted /= static_cast<double>(bin.decisions);
            bin.actual /= static_cast<double>(bin.decisions);
        }
        if (bin.withWdl > 0)
            for (int k = 0; k < 3; ++k) {
                bin.predictedWdl[k] /= static_cast<double>(bin.withWdl);
                bin.actualWdl[k] /= static_cast<double>(bin.withWdl);
            }
    }
    if (c.decisions > 0) c.meanSquaredError = squaredError / static_cast<double>(c.decisions);
    return c;
}

std::string formatCalibration(const Calibration& c) {
    std::string out =
        fmt::format("{:<16} {:>9} {:>6} {:>10} {:>8}   {:<20} {:<20}\n", "ev bin", "decisions",
                    "games", "predicted", "actual", "wdl predicted", "wdl actual");
    for (const auto& b : c.bins) {
        if (b.decisions == 0) continue;
        std::string wdl;
        if (b.withWdl > 0) {
            wdl = fmt::format("{:.2f}/{:.2f}/{:.2f}    {:.2f}/{:.2f}/{:.2f}", b.predictedWdl[0],
                              b.predictedWdl[1], b.predictedWdl[2], b.actualWdl[0], b.actualWdl[1],
                              b.actualWdl[2]);
        }
        out += fmt::format("[{:+.2f}, {:+.2f})  {:>9} {:>6} {:>+10.3f} {:>+8.3f}   {}\n", b.low,
                           b.high, b.decisions, b.games, b.predicted, b.actual, wdl);
    }
    out += fmt::format(
        "{} decisions in {} games; mean squared error of ev against the result {:.3f}\n",
        c.decisions, c.games, c.meanSquaredError);
    return out;
}

}  // namespace dejarik::arena
