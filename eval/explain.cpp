#include "explain.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "attrition.h"
#include "courtier_eval.h"
#include "fastmath.h"
#include "placement.h"
#include "terms.h"

namespace dejarik::eval {

Breakdown explain(const Position& pos, const Tunables& tunables) {
    if (pos.rules().courtier()) return courtier::explain(pos);
    Breakdown b;
    std::string placement;
    Position at = pos;
    if (!pos.isOver() && pos.phase() == Phase::Placement) {
        const Placement best = bestPlacement(pos, tunables);
        at = best.position;
        placement = "after the decider's best placement, " + best.event.token();
    }
    Scores s;
    scoreAt(at, s, tunables);
    const Details& d = s.details;
    for (int t = 0; t < kTermCount; ++t) {
        Term term{kTermNames[t], s.counted(t, Player::One), s.counted(t, Player::Two), ""};
        switch (t) {
            case kMaterial:
                term.note = at.isOver() ? "game over, exact result"
                                        : std::to_string(d.n1) + " v " + std::to_string(d.n2) +
                                              ", attrition win " + fixed(d.win) +
                                              ", next kill theirs " + fixed(pairStats(at).nextKill);
                if (!placement.empty()) term.note += "; " + placement;
                break;
            case kPending:
                if (at.phase() == Phase::Outcome)
                    term.note = Event::attack(at.pendingFrom(), at.pendingTo()).token();
                break;
            case kThreats:
                term.note = std::to_string(d.attacks[0]) + " / " + std::to_string(d.attacks[1]) +
                            " attacks in reach";
                break;
            case kMobility:
                term.note = std::to_string(d.cells[0]) + " / " + std::to_string(d.cells[1]) +
                            " cells in one move's reach";
                break;
            case kSafeRingTerm:
                if (at.rules().safeOuterOrbit())
                    term.note = "hidden " + fixed(d.hide[0], 2) + " / " + fixed(d.hide[1], 2);
                break;
            case kHold:
                if (at.rules().centreWin() > 0)
                    term.note = "hold " + std::to_string(at.hold(Player::One)) + "/" +
                                std::to_string(at.hold(Player::Two)) + " of " +
                                std::to_string(at.rules().centreWin()) +
                                (d.holdWin ? ", unstoppable" : "");
                break;
            case kDrawClock:
                term.note = std::to_string(d.actionsToDraw) + " actions to the quiet draw" +
                            (d.actionsToDraw >= kQuietCap ? " or more" : "") + ", scale " +
                            fixed(d.quietScale);
                break;
            default:
                break;
        }
        b.terms.push_back(std::move(term));
    }
    b.raw = s.raw();
    b.value = squash(b.raw);
    return b;
}

Reported reported(double searched, Ruleset ruleset, const Tunables& tunables) {
    const Tunables::ReportModel m = tunables.reportModel(ruleset);
    const double a = std::min(std::abs(searched), 1.0);
    // Linear between the knots at 0, 0.25, 0.5, 0.75 and 1.
    const std::array<double, 5> value{0, m.value[0], m.value[1], m.value[2], 1};
    const std::array<double, 5> draw{m.draw[0], m.draw[1], m.draw[2], m.draw[3], 0};
    const int k = std::min(3, static_cast<int>(a * 4));
    const double f = a * 4 - k;
    const double v = value[k] + f * (value[k + 1] - value[k]);
    const double d = draw[k] + f * (draw[k + 1] - draw[k]);
    // The draws fit in the room the expected result leaves.
    return {searched < 0 ? -v : v, std::clamp(d, 0.0, 1.0 - v)};
}

std::array<int, 3> wdl(const Position& pos, double value, const Tunables& tunables,
                       Certainty certainty) {
    if (pos.rules().courtier()) return courtier::wdl(pos, value);
    value = std::clamp(value, -1.0, 1.0);
    if (pos.result() == Result::Draw) return wdlFromDrawShare(value, 1);
    if (pos.isOver()) return wdlFromDrawShare(value, 0);
    if (certainty == Certainty::Estimate) {
        // The fitted draw chance, as a share of the room the reported value leaves.
        const Reported r = reported(value, pos.rules().ruleset(), tunables);
        return wdlFromDrawShare(r.value, r.draw / std::max(1e-9, 1.0 - std::abs(r.value)));
    }
    Scores s;
    scoreAt(pos, s, tunables);
    // Three ways to a draw: the quiet counter runs out; the side behind hides on a safe
    // outer ring; the pieces left can hardly kill each other.
    const double decisive = pairStats(pos).decisive;
    const double stalemate =
        tunables.drawByStalemate * std::max(0.0, 1.0 - decisive / tunables.decisive);
    return wdlFromDrawShare(
        value, 1.0 - notQuietNorHidden(s.details, value, tunables) * (1.0 - stalemate));
}

std::array<int, 3> wdlFromDrawShare(double value, double drawShare) {
    const int v = static_cast<int>(std::lround(1000 * std::clamp(value, -1.0, 1.0)));
    const int room = 1000 - std::abs(v);
    int draw = std::clamp(static_cast<int>(std::lround(drawShare * room)), 0, room);
    if ((1000 - draw + v) % 2 != 0) draw += draw < room ? 1 : -1;
    const int win = (1000 - draw + v) / 2;
    return {win, draw, 1000 - draw - win};
}

std::string fixed(double v, int decimals) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

}  // namespace dejarik::eval
