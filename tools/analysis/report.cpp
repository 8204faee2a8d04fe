#include "report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace dejarik::analysis {

namespace {

std::string playerLabel(const AnalysedGame& g, Player p) {
    return fmt::format("{} {}", p == Player::One ? 1 : 2, g.record->players[index(p)]);
}

// A JSON string literal.
std::string quoted(std::string_view s) {
    std::string out = "\"";
    for (const char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (static_cast<unsigned char>(c) < 0x20) {
            out += fmt::format("\\u{:04x}", static_cast<int>(c));
            continue;
        }
        out += c;
    }
    return out + "\"";
}

std::string xmlEscaped(std::string_view s) {
    std::string out;
    for (const char c : s) {
        switch (c) {
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '&':
                out += "&amp;";
                break;
            case '"':
                out += "&quot;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string_view kindName(EntryKind k) {
    switch (k) {
        case EntryKind::Decision:
            return "decision";
        case EntryKind::Chance:
            return "chance";
        case EntryKind::Showdown:
            break;
    }
    return "showdown";
}

double errorOf(const GameAnalysis& a, Player p) {
    return a.players[index(p)].totalError;
}

}  // namespace

std::string gameText(const AnalysedGame& g, const std::string& limits) {
    const arena::GameRecord& r = *g.record;
    const GameAnalysis& a = g.analysis;
    std::string s;
    s += fmt::format("game {}: round {}, {} vs {}, {} ({})\n", g.number, r.roundTag(), r.players[0],
                     r.players[1], arena::outcomeTag(r.outcome),
                     arena::terminationName(r.termination));
    s += fmt::format("rules    {}\ndeal     {}\n", r.rules, r.deal);
    s += fmt::format("analysed at {} in {:.1f} s; ev is player 1's expected result (+1 a win)\n\n",
                     limits, static_cast<double>(g.timeMs) / 1000.0);
    // Columns: turn, player, event, player 1's ev after it; for decisions the best, both evs,
    // the error and its mark; for chance events the expectation, then the luck.
    s += fmt::format("{:<4}  {:>2}  {:<16} {:>6}  {:<10} {:>8}  {:>9}  {:>6} {:2}  {:>7}\n", "turn",
                     "pl", "event", "p1 ev", "best", "best ev", "played ev", "error", "", "luck");
    s += fmt::format("{:27}{:+.3f}  (start)\n", "", a.initialEv);
    std::uint32_t lastTurn = 0;
    for (const AnalysedEvent& e : a.events) {
        const std::string turn = e.turn != lastTurn ? fmt::format("{:4}", e.turn) : "    ";
        if (e.turn != lastTurn && lastTurn != 0) s += '\n';
        lastTurn = e.turn;
        const int pl = e.player == Player::One ? 1 : 2;
        switch (e.kind) {
            case EntryKind::Decision:
                s += fmt::format(
                    "{}  {:2}  {:<16} {:+.3f}  {:<10} {:>+8.3f}  {:>+9.3f}  {:6.3f} {:<2}\n", turn,
                    pl, e.token, e.ev, e.best, e.bestEv, e.playedEv, e.error, markText(e.mark));
                break;
            case EntryKind::Chance:
                s += fmt::format("{}  {:2}  {:<16} {:+.3f}  (expected {:+.3f}){:26}{:>+7.3f}\n",
                                 turn, pl, fmt::format("{} {:.0f}%", e.token, 100 * e.probability),
                                 e.ev, e.expected, "", e.luck);
                break;
            case EntryKind::Showdown:
                s += fmt::format("{}   -  {:<16} {:+.3f}  (expected {:+.3f}){:26}{:>+7.3f}\n", turn,
                                 e.token, e.ev, e.expected, "", e.luck);
                break;
        }
    }
    s += "\nplayer                     decisions  total error  mean error  ?!   ?  ??     luck  "
         "rating\n";
    for (const Player p : {Player::One, Player::Two}) {
        const PlayerSummary& ps = a.players[index(p)];
        s += fmt::format("{:<26} {:9}  {:11.3f}  {:10.4f} {:3} {:3} {:3}  {:+7.3f}  {}\n",
                         playerLabel(g, p), ps.decisions, ps.totalError, ps.meanError(),
                         ps.marks[0], ps.marks[1], ps.marks[2], ps.luck, ratingOf(ps.meanError()));
    }
    s += fmt::format(
        "initial ev {:+.3f} + luck {:+.3f} - errors of player 1 {:.3f} + errors of player 2 "
        "{:.3f} = {:+.3f}; result {:+.0f}, residual {:+.3f}\n",
        a.initialEv, a.totalLuck, errorOf(a, Player::One), errorOf(a, Player::Two),
        a.result - a.residual(), a.result, a.residual());
    // Rows without a mark end in the mark's column: no trailing blanks.
    std::string out;
    std::size_t begin = 0;
    while (begin < s.size()) {
        const std::size_t end = s.find('\n', begin);
        std::string_view line(s.data() + begin, end - begin);
        while (!line.empty() && line.back() == ' ')
            line.remove_suffix(1);
        out.append(line).push_back('\n');
        begin = end + 1;
    }
    return out;
}

std::string gameJson(const AnalysedGame& g) {
    const GameAnalysis& a = g.analysis;
    std::string s;
    for (const AnalysedEvent& e : a.events) {
        s += fmt::format(
            "{{\"game\":{},\"type\":\"{}\",\"index\":{},\"turn\":{},\"player\":{},"
            "\"event\":{},\"ev\":{:.6f}",
            g.number, kindName(e.kind), e.index, e.turn, e.player == Player::One ? 1 : 2,
            quoted(e.token), e.ev);
        if (e.kind == EntryKind::Decision) {
            s += fmt::format(
                ",\"best\":{},\"bestEv\":{:.6f},\"playedEv\":{:.6f},\"error\":{:.6f},"
                "\"mark\":{},\"choices\":{},\"depth\":{},\"nodes\":{}",
                quoted(e.best), e.bestEv, e.playedEv, e.error, quoted(markText(e.mark)), e.choices,
                e.depth, e.nodes);
        } else {
            s += fmt::format(",\"probability\":{:.6f},\"expected\":{:.6f},\"luck\":{:.6f}",
                             e.probability, e.expected, e.luck);
        }
        s += "}\n";
    }
    s += fmt::format(
        "{{\"game\":{},\"type\":\"summary\",\"round\":\"{}.{}\",\"players\":[{},{}],"
        "\"rules\":{},\"result\":{:.0f},\"termination\":{},\"initialEv\":{:.6f},"
        "\"luck\":{:.6f},\"residual\":{:.6f},\"timeMs\":{}",
        g.number, g.record->round + 1, g.record->gameInPair + 1, quoted(g.record->players[0]),
        quoted(g.record->players[1]), quoted(g.record->rules), a.result,
        quoted(arena::terminationName(g.record->termination)), a.initialEv, a.totalLuck,
        a.residual(), g.timeMs);
    for (const Player p : {Player::One, Player::Two}) {
        const PlayerSummary& ps = a.players[index(p)];
        s += fmt::format(
            ",\"player{}\":{{\"decisions\":{},\"totalError\":{:.6f},\"meanError\":"
            "{:.6f},\"doubtful\":{},\"bad\":{},\"veryBad\":{},\"luck\":{:.6f},"
            "\"rating\":{}}}",
            p == Player::One ? 1 : 2, ps.decisions, ps.totalError, ps.meanError(), ps.marks[0],
            ps.marks[1], ps.marks[2], ps.luck, quoted(ratingOf(ps.meanError())));
    }
    return s + "}\n";
}

std::string gamesSvg(const std::vector<AnalysedGame>& games) {
    constexpr double kWidth = 960, kPanel = 300, kLeft = 56, kRight = 16, kTop = 34, kPlot = 220;
    const double height = kPanel * static_cast<double>(std::max<std::size_t>(games.size(), 1));
    std::string s = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 "
        "{0} {1}\" font-family=\"sans-serif\" font-size=\"12\">\n"
        "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
        kWidth, height);
    for (std::size_t k = 0; k < games.size(); ++k) {
        const AnalysedGame& g = games[k];
        const GameAnalysis& a = g.analysis;
        const double top = static_cast<double>(k) * kPanel + kTop;
        const double n = static_cast<double>(std::max<std::size_t>(a.events.size(), 1));
        const auto x = [&](double i) { return kLeft + i * (kWidth - kLeft - kRight) / n; };
        const auto y = [&](double ev) { return top + (1 - ev) / 2 * kPlot; };
        s += fmt::format(
            "<text x=\"{}\" y=\"{}\" font-size=\"14\">game {}: {} vs {}, {} ({}); player 1's ev "
            "after each event</text>\n",
            kLeft, top - 12, g.number, xmlEscaped(g.record->players[0]),
            xmlEscaped(g.record->players[1]), arena::outcomeTag(g.record->outcome),
            arena::terminationName(g.record->termination));
        for (const double ev : {1.0, 0.5, 0.0, -0.5, -1.0}) {
            s += fmt::format(
                "<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"{}\"/>"
                "<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{:+.1f}</text>\n",
                kLeft, y(ev), kWidth - kRight, y(ev), ev == 0 ? "#888" : "#ddd", kLeft - 6,
                y(ev) + 4, ev);
        }
        std::string points = fmt::format("{:.1f},{:.1f}", x(0), y(a.initialEv));
        for (std::size_t i = 0; i < a.events.size(); ++i)
            points +=
                fmt::format(" {:.1f},{:.1f}", x(static_cast<double>(i + 1)), y(a.events[i].ev));
        s += fmt::format(
            "<polyline points=\"{}\" fill=\"none\" stroke=\"#246\" "
            "stroke-width=\"1.5\"/>\n",
            points);
        for (std::size_t i = 0; i < a.events.size(); ++i) {
            const AnalysedEvent& e = a.events[i];
            const double cx = x(static_cast<double>(i + 1)), cy = y(e.ev);
            if (e.kind != EntryKind::Decision) {
                if (std::abs(e.luck) < 0.01) continue;
                s += fmt::format(
                    "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.1f}\" fill=\"{}\" "
                    "fill-opacity=\"0.6\"><title>turn {} {}: luck {:+.3f}</title></circle>\n",
                    cx, cy, 2 + 6 * std::min(1.0, std::abs(e.luck)), e.luck > 0 ? "#2a2" : "#d22",
                    e.turn, xmlEscaped(e.token), e.luck);
            } else if (e.mark != Mark::None) {
                const char* colour = e.player == Player::One ? "#06c" : "#e80";
                s += fmt::format(
                    "<path d=\"M{0:.1f},{1:.1f} l-5,9 h10 z\" fill=\"{2}\"><title>turn {3} "
                    "player {4} {5} (best {6}): error {7:.3f}</title></path>"
                    "<text x=\"{0:.1f}\" y=\"{8:.1f}\" text-anchor=\"middle\" fill=\"{2}\">{9}"
                    "</text>\n",
                    cx, cy + 2, colour, e.turn, e.player == Player::One ? 1 : 2,
                    xmlEscaped(e.token), xmlEscaped(e.best), e.error, cy + 22,
                    xmlEscaped(markText(e.mark)));
            }
        }
        const double legend = top + kPlot + 24;
        s += fmt::format(
            "<circle cx=\"{0}\" cy=\"{1}\" r=\"5\" fill=\"#2a2\"/><text x=\"{2}\" y=\"{3}\">lucky "
            "roll for player 1</text>"
            "<circle cx=\"{4}\" cy=\"{1}\" r=\"5\" fill=\"#d22\"/><text x=\"{5}\" y=\"{3}\">unlucky"
            "</text>"
            "<path d=\"M{6},{7} l-5,9 h10 z\" fill=\"#06c\"/><text x=\"{8}\" y=\"{3}\">error of "
            "player 1 (marks ?!, ?, ?\?)</text>"
            "<path d=\"M{9},{7} l-5,9 h10 z\" fill=\"#e80\"/><text x=\"{10}\" y=\"{3}\">error of "
            "player 2</text>\n",
            kLeft + 5, legend, kLeft + 14, legend + 4, kLeft + 175, kLeft + 184, kLeft + 285,
            legend - 5, kLeft + 294, kLeft + 460, kLeft + 469);
    }
    return s + "</svg>\n";
}

std::string rolloutText(const RolloutResult& result) {
    std::string s = fmt::format(
        "results in player {}'s view (+1 a win); luck-adjusted: the dice's luck as control "
        "variates\n",
        result.view == Player::One ? 1 : 2);
    s += "rank  candidate     mean    s.e.   95% interval        adjusted    s.e.   95% interval"
         "        var   win  draw  loss   cut\n";
    std::vector<const CandidateResult*> order;
    for (const CandidateResult& c : result.candidates)
        order.push_back(&c);
    std::stable_sort(order.begin(), order.end(), [](const auto* a, const auto* b) {
        return a->adjusted.mean > b->adjusted.mean;
    });
    for (std::size_t k = 0; k < order.size(); ++k) {
        const CandidateResult& c = *order[k];
        s += fmt::format(
            "{:4}  {:<10} {:+.4f}  {:.4f}  [{:+.4f}, {:+.4f}]   {:+.4f}  {:.4f}  [{:+.4f}, "
            "{:+.4f}]  {:.2f} {:5} {:5} {:5} {:5}\n",
            k + 1, c.candidate.name, c.plain.mean, c.plain.stdError, c.plain.low, c.plain.high,
            c.adjusted.mean, c.adjusted.stdError, c.adjusted.low, c.adjusted.high, c.varianceRatio,
            c.ends[0], c.ends[1], c.ends[2], c.ends[3]);
    }
    if (order.size() > 1) {
        s += fmt::format("against {}, game by game on the same dice, luck-adjusted:\n",
                         order.front()->candidate.name);
        for (std::size_t k = 1; k < order.size(); ++k) {
            const Estimate d = difference(*order[k], *order.front());
            s += fmt::format("{:4}  {:<10} {:+.4f}  {:.4f}  [{:+.4f}, {:+.4f}]\n", k + 1,
                             order[k]->candidate.name, d.mean, d.stdError, d.low, d.high);
        }
    }
    const double seconds = static_cast<double>(std::max<std::int64_t>(result.timeMs, 1)) / 1000.0;
    s += fmt::format("{} playouts, {} searched decisions in {:.1f} s: {:.1f} playouts/s\n",
                     result.playouts, result.decisions, seconds,
                     static_cast<double>(result.playouts) / seconds);
    return s;
}

}  // namespace dejarik::analysis
