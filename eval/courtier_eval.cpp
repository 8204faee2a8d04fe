#include "courtier_eval.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "courtier.h"
#include "fastmath.h"

namespace dejarik::eval::courtier {

namespace {

namespace rules = dejarik::courtier;

enum TermId : int { kMaterial, kKingSafety, kCentre, kThreats, kMobility, kTermCount };
constexpr std::array<const char*, kTermCount> kNames = {"material", "king safety", "centre",
                                                        "threats", "mobility"};

// Weights in logits (tanh of the raw sum is the value). A Guard is the unit of material;
// a capture threat of the player on turn is most of a Guard (it is taken next), one of the
// other player a fraction (it can be parried); a King exposed to a closing step is in
// danger of losing the game, worth more than a Guard.
constexpr double kGuard = 0.30;
constexpr double kCentreCell = 0.06;
constexpr double kInnerCell = 0.02;
constexpr double kThreatOnTurn = 0.22;
constexpr double kThreatExtra = 0.04;
constexpr double kThreatOffTurn = 0.07;
constexpr double kKingTakenNext = 0.90;  // the other side is on turn and can take the King
constexpr double kKingInDanger = 0.30;   // it could, were it on turn: the King must be saved
constexpr double kOpenKingLine = 0.05;   // a line through the King no friend closes
constexpr double kStep = 0.008;
// Enemy pieces close to the King: each one two steps away or nearer adds pressure, so that
// a side gathers its pieces around the other King rather than shuffle.
constexpr double kPressure = 0.04;
constexpr int kPressureReach = 3;

// Steps between two cells on empty board (RULES §1 adjacency), by breadth-first search.
constexpr std::array<std::array<std::uint8_t, Cell::kCount>, Cell::kCount> kDistance = [] {
    std::array<std::array<std::uint8_t, Cell::kCount>, Cell::kCount> d{};
    for (int from = 0; from < Cell::kCount; ++from) {
        std::uint32_t seen = 1u << from, frontier = seen;
        for (std::uint8_t steps = 1; frontier != 0; ++steps) {
            std::uint32_t next = board::neighbours(Bitboard(frontier)).bits() & ~seen;
            for (int c = 0; c < Cell::kCount; ++c)
                if ((next >> c) & 1u) d[from][c] = steps;
            seen |= next;
            frontier = next;
        }
    }
    return d;
}();
// The draw clock: within this many moves of the quiet draw the terms fade linearly.
constexpr int kFadeMoves = 16;

struct SideFacts {
    int guards = 0;
    bool hasKing = false;
    Cell king;
    int steps = 0;
    int captureSteps = 0;  // steps that capture
    Bitboard capturable;   // enemies some step could take
    bool threatensKing = false;
    int openKingLines = 0;  // lines through this side's King with no friend at an end
    int pressure = 0;       // enemy pieces near this side's King, weighted by nearness
    int centre = 0;         // own pieces on a
    int inner = 0;          // own pieces on orbit B
};

SideFacts factsOf(const Position& pos, Player p) {
    SideFacts f;
    const Bitboard own = pos.pieces(p), enemies = pos.pieces(opponent(p));
    const Bitboard empty = pos.emptyCells();
    for (const Cell c : own) {
        if (pos.at(c).creature() == rules::kKing) {
            f.hasKing = true;
            f.king = c;
        } else {
            ++f.guards;
        }
        if (c.isCentre()) ++f.centre;
        if (c.orbit() == Orbit::Inner) ++f.inner;
        for (const Cell to : board::adjacent(c) & empty) {
            ++f.steps;
            const Bitboard taken =
                rules::captureCandidates(to, own ^ Bitboard::of(c) ^ Bitboard::of(to), enemies);
            if (taken.any()) {
                ++f.captureSteps;
                f.capturable |= taken;
            }
        }
    }
    for (const Cell c : f.capturable)
        if (pos.at(c).creature() == rules::kKing) f.threatensKing = true;
    if (f.hasKing) {
        const auto& lines = rules::kCellLines[f.king.index()];
        for (int i = 0; i < lines.flankCount; ++i)
            if ((lines.flanks[i] & own).empty()) ++f.openKingLines;
        for (const Cell e : enemies)
            f.pressure += std::max(0, kPressureReach - kDistance[f.king.index()][e.index()]);
    }
    return f;
}

struct Scores {
    std::array<std::array<double, 2>, kTermCount> term{};
    std::array<SideFacts, 2> facts;
    double scale = 1;
    int movesToDraw = 0;

    [[nodiscard]] double raw() const {
        double r = 0;
        for (const auto& t : term)
            r += scale * (t[0] - t[1]);
        return r;
    }
};

Scores score(const Position& pos) {
    Scores s;
    const Player onTurn = pos.sideToMove();
    for (const Player p : {Player::One, Player::Two}) {
        s.facts[index(p)] = factsOf(pos, p);
    }
    for (const Player p : {Player::One, Player::Two}) {
        const SideFacts& f = s.facts[index(p)];
        const SideFacts& them = s.facts[index(opponent(p))];
        auto& t = s.term;
        const int i = index(p);
        const bool moves = p == onTurn;
        t[kMaterial][i] = kGuard * f.guards;
        // The King: how the other side can close on it.
        double king = -kOpenKingLine * f.openKingLines - kPressure * f.pressure;
        if (them.threatensKing) king -= moves ? kKingInDanger : kKingTakenNext;
        t[kKingSafety][i] = king;
        t[kCentre][i] = kCentreCell * f.centre + kInnerCell * f.inner;
        const int targets = f.capturable.count();
        t[kThreats][i] = moves ? (targets > 0 ? kThreatOnTurn + kThreatExtra * (targets - 1) : 0)
                               : kThreatOffTurn * targets;
        t[kMobility][i] = kStep * f.steps;
    }
    s.movesToDraw = kFadeMoves;
    if (const int drawTurns = pos.rules().drawTurns(); drawTurns > 0) {
        const std::uint32_t limit = 2 * static_cast<std::uint32_t>(drawTurns);
        const std::uint32_t left = limit > pos.quiet() ? limit - pos.quiet() : 0;
        s.movesToDraw = static_cast<int>(std::min<std::uint32_t>(left, kFadeMoves));
        s.scale = static_cast<double>(s.movesToDraw) / kFadeMoves;
    }
    return s;
}

}  // namespace

double evaluate(const Position& pos) {
    return squash(score(pos).raw());
}

Breakdown explain(const Position& pos) {
    Breakdown b;
    if (pos.isOver()) {
        const double v = pos.winProbability(Player::One) - pos.winProbability(Player::Two);
        b.terms.push_back(Term{"result", v, 0, "game over, exact result"});
        b.raw = v;
        b.value = v;
        return b;
    }
    const Scores s = score(pos);
    const auto& f1 = s.facts[0];
    const auto& f2 = s.facts[1];
    for (int t = 0; t < kTermCount; ++t) {
        Term term{kNames[t], s.scale * s.term[t][0], s.scale * s.term[t][1], ""};
        switch (t) {
            case kMaterial:
                term.note =
                    std::to_string(f1.guards) + " v " + std::to_string(f2.guards) + " Guards";
                break;
            case kKingSafety:
                term.note = std::to_string(f1.openKingLines) + " / " +
                            std::to_string(f2.openKingLines) + " open lines, pressure " +
                            std::to_string(f1.pressure) + " / " + std::to_string(f2.pressure) +
                            (f2.threatensKing ? ", King 1 in reach" : "") +
                            (f1.threatensKing ? ", King 2 in reach" : "");
                break;
            case kCentre:
                term.note = std::to_string(f1.centre + f1.inner) + " / " +
                            std::to_string(f2.centre + f2.inner) + " on a and orbit B";
                break;
            case kThreats:
                term.note = std::to_string(f1.capturable.count()) + " / " +
                            std::to_string(f2.capturable.count()) + " pieces capturable, player " +
                            (pos.sideToMove() == Player::One ? "1" : "2") + " on turn";
                break;
            case kMobility:
                term.note = std::to_string(f1.steps) + " / " + std::to_string(f2.steps) + " steps";
                if (s.scale < 1)
                    term.note += "; all terms scaled " + fixed(s.scale) + ", " +
                                 std::to_string(s.movesToDraw) + " moves to the quiet draw";
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

std::array<int, 3> wdl(const Position& pos, double value) {
    double drawShare = 0;
    if (pos.result() == Result::Draw) {
        drawShare = 1;
    } else if (!pos.isOver()) {
        // Draws come from the quiet clock, and from boards too thin to capture with.
        const Scores s = score(pos);
        const int guards = s.facts[0].guards + s.facts[1].guards;
        drawShare = std::max(1.0 - s.scale, guards <= 2 ? 0.5 : 0.1);
    }
    return wdlFromDrawShare(value, drawShare);
}

}  // namespace dejarik::eval::courtier
