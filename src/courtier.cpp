// Courtier's events, their application and its DFEN (RULES §14.5–§14.11), as the Position
// members that Position's generic entry points hand Courtier positions to.
#include "courtier.h"
#include "dfen_fields.h"

#include <charconv>

#include "position.h"
#include "text.h"
#include "zobrist.h"

namespace dejarik {

namespace {

using dfen::fail;
using dfen::parseCount;

using courtier::captureCandidates;

std::optional<Piece> courtierPiece(char letter) {
    switch (letter) {
        case 'U':
            return Piece(Player::One, courtier::kGuard);
        case 'W':
            return Piece(Player::One, courtier::kKing);
        case 'u':
            return Piece(Player::Two, courtier::kGuard);
        case 'w':
            return Piece(Player::Two, courtier::kKing);
        default:
            return std::nullopt;
    }
}

// Calls emit(to, candidates) for every step of the side to move, in the order of start
// cells, then destinations.
template <typename Emit>
void forEachStep(Bitboard own, Bitboard enemies, Emit&& emit) {
    const Bitboard empty = ~(own | enemies);
    for (const Cell from : own) {
        for (const Cell to : board::adjacent(from) & empty) {
            const Bitboard after = own ^ Bitboard::of(from) ^ Bitboard::of(to);
            emit(from, to, captureCandidates(to, after, enemies));
        }
    }
}

}  // namespace

void Position::generateCourtier(EventList& out) const {
    forEachStep(pieces(st_.side), pieces(opponent(st_.side)),
                [&out](Cell from, Cell to, Bitboard candidates) {
                    if (candidates.count() < 2) {
                        out.push(Event::move(from, to));
                        return;
                    }
                    for (const Cell m : candidates)
                        out.push(Event::captureMove(from, to, m));
                });
    if (out.empty()) out.push(Event::pass());
}

int Position::countCourtier() const {
    int n = 0;
    forEachStep(pieces(st_.side), pieces(opponent(st_.side)),
                [&n](Cell, Cell, Bitboard candidates) { n += std::max(1, candidates.count()); });
    return n == 0 ? 1 : n;
}

Position::CourtierStep Position::applyCourtier(Event e) {
    CourtierStep step;
    const Player mover = st_.side, enemy = opponent(mover);
    bool moverKingLost = false, enemyKingTaken = false;
    if (e.kind() == EventKind::Pass) {
        ++st_.quiet;
    } else {
        relocate(e.from(), e.to());
        const Bitboard enemies = pieces(enemy);
        const Bitboard candidates = captureCandidates(e.to(), pieces(mover), enemies);
        if (candidates.empty()) {
            ++st_.quiet;
        } else {
            step.captured = e.kind() == EventKind::CaptureMove ? e.captured() : candidates.first();
            step.capturedPiece = at(step.captured);
            // The flank is judged before anything leaves the board (RULES §14.7).
            const bool doubleCapture = courtier::flanked(e.to(), enemies);
            enemyKingTaken = step.capturedPiece.creature() == courtier::kKing;
            remove(step.captured);
            if (doubleCapture) {
                step.moverLost = true;
                moverKingLost = at(e.to()).creature() == courtier::kKing;
                remove(e.to());
            }
            st_.quiet = 0;
        }
    }

    // RULES §14.10, in its order.
    const Result moverWins = mover == Player::One ? Result::Player1Wins : Result::Player2Wins;
    const Result enemyWins = mover == Player::One ? Result::Player2Wins : Result::Player1Wins;
    const auto onlyKing = [this](Player p) {
        const Bitboard b = pieces(p);
        return b.count() == 1 && at(b.first()).creature() == courtier::kKing;
    };
    if (enemyKingTaken)
        st_.result = moverWins;
    else if (moverKingLost)
        st_.result = enemyWins;
    else if (onlyKing(Player::One) && onlyKing(Player::Two))
        st_.result = Result::Draw;
    else if (rules_->drawTurns() > 0 &&
             st_.quiet >= 2 * static_cast<std::uint32_t>(rules_->drawTurns()))
        st_.result = Result::Draw;

    st_.side = enemy;
    st_.decider = enemy;
    st_.key ^= zobrist::kKeys.sideTwo;
    // Saturates: a wrapped counter would print as turn 0, which no DFEN accepts.
    if (st_.turn != UINT32_MAX) ++st_.turn;
    return step;
}

std::optional<Position> Position::fromCourtierDfen(std::string_view dfen, const Rules& rules,
                                                   std::string* error) {
    Position pos(rules);
    const auto f = text::fields(dfen);
    if (f.size() != 5) {
        fail(error,
             "DFEN: Courtier expects exactly 5 fields (cells side actions quiet turn), got " +
                 std::to_string(f.size()));
        return std::nullopt;
    }
    const auto rings = text::split(f[0], '/');
    if (rings.size() == 4) {
        fail(error, "DFEN reserve: Courtier has no reserve part, got " + text::quoted(f[0]));
        return std::nullopt;
    }
    if (rings.size() != 3 || rings[0].size() != 1 || rings[1].size() != 12 ||
        rings[2].size() != 12) {
        fail(error, "DFEN cells: expected 1/12/12 cells, got " + text::quoted(f[0]));
        return std::nullopt;
    }
    std::array<int, 2> kings{};
    int cellIndex = 0;
    for (const auto ring : rings) {
        for (const char ch : ring) {
            if (ch != '.') {
                const auto piece = courtierPiece(ch);
                if (!piece) {
                    fail(error, std::string("DFEN cells: '") + ch + "' on " +
                                    Cell(cellIndex).name() +
                                    " is not a Courtier letter (U W, u w) or '.'");
                    return std::nullopt;
                }
                if (piece->creature() == courtier::kKing && ++kings[index(piece->owner())] > 1) {
                    fail(error, std::string("DFEN cells: player ") +
                                    (piece->owner() == Player::One ? "1" : "2") +
                                    " has two Kings (the second on " + Cell(cellIndex).name() +
                                    ")");
                    return std::nullopt;
                }
                pos.put(Cell(cellIndex), *piece);
            }
            ++cellIndex;
        }
    }
    if (pos.occupied().empty()) {
        fail(error, "DFEN cells: no pieces on the board");
        return std::nullopt;
    }
    if (kings[0] + kings[1] == 0) {
        fail(error, "DFEN cells: no King on the board");
        return std::nullopt;
    }
    if (f[1] != "1" && f[1] != "2") {
        fail(error, "DFEN side: expected 1 or 2, got " + text::quoted(f[1]));
        return std::nullopt;
    }
    pos.st_.side = f[1] == "1" ? Player::One : Player::Two;
    pos.st_.decider = pos.st_.side;
    if (f[2] != "1") {
        fail(error,
             "DFEN actions: Courtier has one move a turn, expected 1, got " + text::quoted(f[2]));
        return std::nullopt;
    }
    pos.st_.actions = 1;
    const auto clocks = dfen::parseClocks(f[3], f[4], error);
    if (!clocks) return std::nullopt;
    pos.st_.quiet = clocks->quiet;
    pos.st_.turn = clocks->turn;

    // A finished game is a valid, terminal position (RULES §14.11).
    const int n1 = pos.pieces(Player::One).count(), n2 = pos.pieces(Player::Two).count();
    if (kings[0] == 0) {
        pos.st_.result = Result::Player2Wins;
    } else if (kings[1] == 0) {
        pos.st_.result = Result::Player1Wins;
    } else if (n1 == 1 && n2 == 1) {
        pos.st_.result = Result::Draw;
    } else if (rules.drawTurns() > 0 &&
               pos.st_.quiet >= 2 * static_cast<std::uint32_t>(rules.drawTurns())) {
        pos.st_.result = Result::Draw;
    }
    pos.st_.key = pos.computeKey();
    return pos;
}

}  // namespace dejarik
