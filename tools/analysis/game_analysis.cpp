#include "game_analysis.h"

#include <algorithm>
#include <utility>

#include "text.h"

namespace dejarik::analysis {

namespace {

struct RatingBand {
    double below;  // mean error per decision under this
    std::string_view name;
};
// GNU Backgammon's bands (error rate per decision), on our scale of a result in [-1, 1]
// and loosened for a game whose engine errs more than gnubg's.
constexpr std::array<RatingBand, 7> kRatings{{{0.002, "supernatural"},
                                              {0.005, "world-class"},
                                              {0.010, "expert"},
                                              {0.020, "advanced"},
                                              {0.035, "intermediate"},
                                              {0.060, "casual"},
                                              {0.100, "beginner"}}};

// The decisions of a position ranked, and player 1's ev of its best one.
struct Ranked {
    search::Report report;
    double ev = 0;
};

Ranked rank(PositionSearch& searcher, const Position& pos) {
    Ranked r{searcher.rankAll(pos), 0};
    double best = -2;
    for (const search::Line& l : r.report.lines)
        best = std::max(best, l.value);
    if (!r.report.lines.empty()) r.ev = playerOneView(pos, best);
    return r;
}

}  // namespace

Mark markOf(double error) {
    if (error >= kMarkThresholds[2]) return Mark::VeryBad;
    if (error >= kMarkThresholds[1]) return Mark::Bad;
    if (error >= kMarkThresholds[0]) return Mark::Doubtful;
    return Mark::None;
}

std::string_view markText(Mark m) {
    static constexpr std::array<std::string_view, 4> kText{"", "?!", "?", "??"};
    return kText[static_cast<std::size_t>(m)];
}

std::string_view ratingOf(double meanError) {
    for (const RatingBand& band : kRatings)
        if (meanError < band.below) return band.name;
    return "awful";
}

double PlayerSummary::meanError() const {
    return decisions > 0 ? totalError / decisions : 0.0;
}

double GameAnalysis::residual() const {
    return result - (initialEv + totalLuck - players[0].totalError + players[1].totalError);
}

double resultOf(const arena::GameRecord& record) {
    switch (record.outcome) {
        case arena::GameOutcome::Player1Wins:
            return 1;
        case arena::GameOutcome::Player2Wins:
            return -1;
        case arena::GameOutcome::Draw:
            break;
    }
    return 0;
}

std::optional<GameAnalysis> analyseGame(const arena::GameRecord& record, const Rules& rules,
                                        const SearchSettings& settings, std::string& error,
                                        const Progress& progress) {
    auto pos = Position::fromDfen(record.deal, rules, &error);
    if (!pos) {
        error = "Deal: " + error;
        return std::nullopt;
    }
    PositionSearch searcher(settings);
    GameAnalysis game;
    game.result = resultOf(record);
    // The ranking of the position reached by the last outcome: it was searched to value
    // the outcome, and the decision that follows uses the same search.
    std::optional<Ranked> next;
    const std::size_t total = record.events.size();
    for (std::size_t i = 0; i < total; ++i) {
        const arena::RecordedEvent& recorded = record.events[i];
        if (pos->isOver()) {
            error = "event " + std::to_string(i + 1) + " " + text::quoted(recorded.token) +
                    " after the end of the game";
            return std::nullopt;
        }
        const auto event = pos->parseEvent(recorded.token);
        if (!event) {
            error = "event " + std::to_string(i + 1) + " " + text::quoted(recorded.token) +
                    " is not legal here";
            return std::nullopt;
        }
        AnalysedEvent a;
        a.index = i;
        a.turn = recorded.turn != 0 ? recorded.turn : pos->turn();
        a.token = recorded.token;
        if (pos->chanceDue()) {
            a.kind = EntryKind::Chance;
            a.player = pos->sideToMove();
            a.probability = pos->probability(*event);
            Position actual = *pos;
            actual.apply(*event);
            std::optional<Ranked> actualRanked;
            double after = 0;
            a.expected = *expectOverOutcomes(*pos, [&](const Position& child) {
                if (child.isOver()) {
                    if (child == actual) after = finishedValue(child);
                    return std::optional<double>(finishedValue(child));
                }
                Ranked r = rank(searcher, child);
                const double v = r.ev;
                if (child == actual) {
                    after = v;
                    actualRanked = std::move(r);
                }
                return std::optional<double>(v);
            });
            a.luck = after - a.expected;
            a.ev = after;
            game.totalLuck += a.luck;
            next = std::move(actualRanked);
        } else {
            a.kind = EntryKind::Decision;
            a.player = pos->decider();
            Ranked ranked = next ? std::move(*next) : rank(searcher, *pos);
            next.reset();
            const auto& lines = ranked.report.lines;
            // Ranked by value, except when a time limit ended the search before its first
            // iteration: the best is the line of the highest value.
            const search::Line* played = nullptr;
            const search::Line* best = nullptr;
            for (const search::Line& l : lines) {
                if (l.move == *event) played = &l;
                if (!best || l.value > best->value) best = &l;
            }
            if (!best || !played) {
                error = "event " + std::to_string(i + 1) + " " + text::quoted(recorded.token) +
                        ": the search did not rank it";
                return std::nullopt;
            }
            if (i == 0) game.initialEv = ranked.ev;
            a.best = best->move.token();
            a.bestEv = best->value;
            a.playedEv = played->value;
            a.error = played == best ? 0.0 : a.bestEv - a.playedEv;
            a.mark = markOf(a.error);
            a.choices = static_cast<int>(lines.size());
            a.depth = ranked.report.depth;
            a.nodes = ranked.report.nodes;
            a.ev = playerOneView(*pos, a.playedEv);
            PlayerSummary& s = game.players[index(a.player)];
            ++s.decisions;
            s.totalError += a.error;
            if (a.mark != Mark::None) ++s.marks[static_cast<std::size_t>(a.mark) - 1];
        }
        pos->apply(*event);
        game.events.push_back(std::move(a));
        if (progress) progress(i + 1, total);
    }
    if (total == 0) game.initialEv = pos->isOver() ? finishedValue(*pos) : rank(searcher, *pos).ev;
    if (pos->result() == Result::Showdown) {
        AnalysedEvent a;
        a.kind = EntryKind::Showdown;
        a.index = total;
        a.turn = pos->turn();
        a.token = "showdown";
        a.expected = finishedValue(*pos);
        const double p1 = pos->winProbability(Player::One), p2 = pos->winProbability(Player::Two);
        a.probability = game.result > 0 ? p1 : game.result < 0 ? p2 : 1 - p1 - p2;
        a.ev = game.result;
        a.luck = game.result - a.expected;
        game.totalLuck += a.luck;
        game.events.push_back(std::move(a));
    }
    game.players[0].luck = game.totalLuck;
    game.players[1].luck = -game.totalLuck;
    return game;
}

}  // namespace dejarik::analysis
