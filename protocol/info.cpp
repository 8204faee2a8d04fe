#include "info.h"

#include <fmt/format.h>

#include <cmath>

#include "eval.h"

namespace dejarik::protocol {

std::string scoreText(const search::Line& line, const Position* root) {
    // ev is what the wdl says (PROTOCOL.md: V = W - L), the reported expected result, not
    // the search's own scale (docs/eval.md, "Reported value").
    std::string s = fmt::format("score ev {} wdl {} {} {}{} pv", line.wdl[0] - line.wdl[2],
                                line.wdl[0], line.wdl[1], line.wdl[2], line.exact ? " exact" : "");
    // The pv played along from the root while its events are legal.
    std::optional<Position> pos;
    if (root) pos = *root;
    const auto append = [&](Event e) {
        s += ' ';
        s += pos ? pos->token(e) : e.token();
        if (pos && pos->isLegal(e)) {
            pos->apply(e);
        } else {
            pos.reset();
        }
    };
    if (line.pv.empty() || line.pv.front() != line.move) append(line.move);
    for (const Event e : line.pv)
        append(e);
    return s;
}

std::string infoLine(const InfoStats& stats, const search::Line& line, const Position* root) {
    return fmt::format(
        "info depth {} seldepth {} time {} nodes {} nps {} hashfull {}{} {}", stats.depth,
        stats.seldepth, stats.timeMs, stats.nodes, stats.nps, stats.hashfull,
        stats.multipv > 0 ? fmt::format(" multipv {}", stats.multipv) : "", scoreText(line, root));
}

search::Line staticLine(const Position& pos, Event decision, const eval::Tunables& tunables) {
    search::Line line;
    line.move = decision;
    line.pv = {decision};
    const Player me = pos.decider();
    Position next = pos;
    next.apply(decision);
    if (next.isOver()) {
        const double win = next.winProbability(me), loss = next.winProbability(opponent(me));
        const int w = static_cast<int>(std::lround(1000 * win));
        const int l = static_cast<int>(std::lround(1000 * loss));
        line.wdl = {w, 1000 - w - l, l};
        line.value = win - loss;
        line.exact = true;
        return line;
    }
    const double forOne = eval::evaluate(next, tunables);
    const auto wdlOne = eval::wdl(next, forOne, tunables);
    line.value = me == Player::One ? forOne : -forOne;
    line.wdl = me == Player::One ? wdlOne : std::array<int, 3>{wdlOne[2], wdlOne[1], wdlOne[0]};
    return line;
}

}  // namespace dejarik::protocol
