#include "symmetry.h"

#include <cctype>
#include <stdexcept>
#include <vector>

#include "movegen.h"
#include "text.h"

namespace dejarik {

namespace {

char swapCase(char c) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isupper(u)) return static_cast<char>(std::tolower(u));
    if (std::islower(u)) return static_cast<char>(std::toupper(u));
    return c;
}

// The 25 cell characters of a DFEN cells field, by cell index; empty when not 1/12/12.
std::optional<std::string> cellChars(std::string_view field) {
    if (field.size() != 1 + 1 + 12 + 1 + 12 || field[1] != '/' || field[14] != '/')
        return std::nullopt;
    std::string cells;
    cells += field[0];
    cells += field.substr(2, 12);
    cells += field.substr(15, 12);
    if (cells.find('/') != std::string::npos) return std::nullopt;
    return cells;
}

std::string cellsField(const std::string& byIndex) {
    std::string s;
    for (int i = 0; i < Cell::kCount; ++i) {
        if (i == 1 || i == 13) s += '/';
        s += byIndex[static_cast<std::size_t>(i)];
    }
    return s;
}

// The transformed DFEN of the decision point a position started from: its board, side,
// actions, turn and holds as they stand, with the given quiet counter.
std::string decisionDfen(const Position& pos, Transform t, std::uint32_t quiet) {
    std::string cells(Cell::kCount, '.');
    for (int i = 0; i < Cell::kCount; ++i)
        cells[static_cast<std::size_t>(transform(Cell(i), t.board).index())] =
            pos.rules().letter(transform(pos.at(Cell(i)), t));
    const Player side = transform(pos.sideToMove(), t);
    const std::uint32_t hold1 = pos.hold(transform(Player::One, t));
    const std::uint32_t hold2 = pos.hold(transform(Player::Two, t));
    std::string s = cellsField(cells);
    s += side == Player::One ? " 1 " : " 2 ";
    s += std::to_string(pos.actionsLeft()) + ' ' + std::to_string(quiet) + ' ' +
         std::to_string(pos.turn());
    // A Courtier DFEN has no hold field (RULES §14.11).
    if (!pos.rules().courtier()) s += ' ' + std::to_string(hold1) + '/' + std::to_string(hold2);
    return s;
}

// A piece of the player on turn that may have pushed the piece on `pushed`: a legal
// attacker of it whose attack can end in a push.
std::optional<Cell> possiblePusher(const Position& pos, Cell pushed) {
    const Player side = pos.sideToMove();
    const Creature defender = pos.at(pushed).creature();
    for (const Cell from : board::adjacent(pushed) & pos.pieces(side)) {
        const auto& combat = pos.rules().combat(pos.at(from).creature(), defender);
        const bool canPush = combat.mask & (1u << static_cast<int>(Outcome::Push));
        if (canPush && movegen::attackTargets(from, Bitboard::of(pushed), pos.rules()).any())
            return from;
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> transformDfen(std::string_view dfen, Transform t) {
    const auto f = text::fields(dfen);
    if (f.size() < 5) return std::nullopt;
    const auto cells = cellChars(f[0]);
    if (!cells) return std::nullopt;
    std::string mapped(Cell::kCount, '.');
    for (int i = 0; i < Cell::kCount; ++i) {
        const char c = (*cells)[static_cast<std::size_t>(i)];
        mapped[static_cast<std::size_t>(transform(Cell(i), t.board).index())] =
            t.swapPlayers ? swapCase(c) : c;
    }
    std::vector<std::string> out(f.begin(), f.end());
    out[0] = cellsField(mapped);
    if (t.swapPlayers) {
        if (f[1] != "1" && f[1] != "2") return std::nullopt;
        // Assigned as a character: GCC 12 warns falsely (-Wrestrict) on a literal here.
        out[1] = std::string(1, f[1] == "1" ? '2' : '1');
        if (f.size() >= 6) {
            const auto slash = f[5].find('/');
            if (slash == std::string_view::npos) return std::nullopt;
            out[5] = std::string(f[5].substr(slash + 1)) + '/' + std::string(f[5].substr(0, slash));
        }
    }
    std::string s;
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (i) s += ' ';
        s += out[i];
    }
    return s;
}

std::optional<std::string> transformTokens(std::string_view tokens, Transform t) {
    std::string s;
    for (const auto token : text::fields(tokens)) {
        const auto e = Event::parse(token);
        if (!e) return std::nullopt;
        if (!s.empty()) s += ' ';
        s += transform(*e, t.board).token();
    }
    return s;
}

Position transform(const Position& pos, Transform t) {
    const Rules& rules = pos.rules();
    // Home cells are fixed (RULES §15.1): a set-up cannot be turned or mirrored.
    if (pos.phase() == Phase::Setup) throw std::invalid_argument("transform: a set-up is pending");
    if (rules.raysOfDeath()) throw std::invalid_argument("transform: not under RaysOfDeath");
    // Outside a decision the pending attack reset the quiet counter; in a decision it is the
    // position's own.
    const std::uint32_t quiet = pos.phase() == Phase::Decision ? pos.quiet() : 0;
    std::string error;
    auto out = Position::fromDfen(decisionDfen(pos, t, quiet), rules, &error);
    if (!out) throw std::invalid_argument("transform: " + error);
    const auto map = [&](Cell c) { return transform(c, t.board); };
    switch (pos.phase()) {
        case Phase::Decision:
        case Phase::Setup:
        case Phase::Roll:
            break;
        case Phase::Outcome:
            out->apply(Event::attack(map(pos.pendingFrom()), map(pos.pendingTo())));
            break;
        case Phase::Placement: {
            const Cell pushed = pos.pendingFrom();
            if (pos.decider() == pos.sideToMove()) {
                // A push: the defender waits to be placed. Any piece that could have pushed it
                // leads to the same state.
                const auto pusher = possiblePusher(pos, pushed);
                if (!pusher)
                    throw std::invalid_argument("transform: a push with no possible attacker");
                out->apply(Event::attack(map(*pusher), map(pushed)));
                out->apply(Event::outcome(Outcome::Push));
            } else {
                // A counter-push: the attacker waits; the defender's cell is still recorded.
                out->apply(Event::attack(map(pushed), map(pos.pendingTo())));
                out->apply(Event::outcome(Outcome::CounterPush));
            }
            break;
        }
    }
    return *out;
}

}  // namespace dejarik
