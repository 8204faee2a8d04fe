#include "display.h"

#include <cmath>
#include <cstdio>
#include <numbers>

namespace dejarik::protocol {

namespace {

// Radii in rows; columns are stretched because a terminal cell is about twice as tall as it
// is wide, which makes the rings look round.
constexpr double kOuterRadius = 8.0;
constexpr double kInnerRadius = 4.0;
constexpr double kColumnsPerRow = 3.2;
constexpr int kWidth = static_cast<int>(2 * kOuterRadius * kColumnsPerRow) + 12;
constexpr int kHeight = static_cast<int>(2 * kOuterRadius) + 1;

void place(std::vector<std::string>& grid, int col, int row, const std::string& text) {
    for (std::size_t i = 0; i < text.size(); ++i)
        grid[row][col + i] = text[i];
}

std::string label(const Position& pos, Cell c) {
    return c.name() + " " + pos.rules().letter(pos.at(c));
}

std::string fixed6(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6f", v);
    return buf;
}

}  // namespace

std::string playerName(Player p) {
    return p == Player::One ? "player 1" : "player 2";
}

std::vector<std::string> boardPicture(const Position& pos) {
    std::vector<std::string> grid(kHeight, std::string(kWidth, ' '));
    const int cx = kWidth / 2, cy = kHeight / 2;
    for (int ray = 1; ray <= 12; ++ray) {
        const double angle = ray * std::numbers::pi / 6;
        for (const auto& [cell, radius] : {std::pair{Cell::outer(ray), kOuterRadius},
                                           std::pair{Cell::inner(ray), kInnerRadius}}) {
            const int col =
                cx + static_cast<int>(std::lround(radius * kColumnsPerRow * std::sin(angle)));
            const int row = cy - static_cast<int>(std::lround(radius * std::cos(angle)));
            const std::string text = label(pos, cell);
            place(grid, col - static_cast<int>(text.size()) / 2, row, text);
        }
    }
    place(grid, cx - 1, cy, label(pos, Cell::centre()));
    for (auto& row : grid)
        row.erase(row.find_last_not_of(' ') + 1);
    grid.push_back("upper case: player 1, lower case: player 2, '.': empty");
    return grid;
}

std::string resultText(const Position& pos) {
    switch (pos.result()) {
        case Result::Ongoing:
            return "the game goes on";
        case Result::Player1Wins:
            return "player 1 wins";
        case Result::Player2Wins:
            return "player 2 wins";
        case Result::Draw:
            return "drawn";
        case Result::Showdown: {
            const double p1 = pos.winProbability(Player::One), p2 = pos.winProbability(Player::Two);
            if (p1 + p2 == 0) return "showdown that no round can decide: drawn";
            return "showdown: player 1 wins with probability " + fixed6(p1) +
                   ", player 2 with probability " + fixed6(p2);
        }
    }
    return "unknown";
}

std::string dueText(const Position& pos) {
    if (pos.isOver()) return "game over: " + resultText(pos);
    switch (pos.phase()) {
        case Phase::Decision:
            if (pos.rules().courtier())
                return playerName(pos.decider()) + " to decide: the move of turn " +
                       std::to_string(pos.turn());
            return playerName(pos.decider()) + " to decide: action " +
                   std::to_string(3 - pos.actionsLeft()) + " of 2 of turn " +
                   std::to_string(pos.turn());
        case Phase::Outcome:
            return "chance: the outcome of " +
                   Event::attack(pos.pendingFrom(), pos.pendingTo()).token() + " is due";
        case Phase::Placement: {
            const bool counter = pos.decider() != pos.sideToMove();
            return playerName(pos.decider()) + " to decide: placement of the " +
                   (counter ? "counter-pushed" : "pushed") + " piece on " +
                   pos.pendingFrom().name();
        }
        case Phase::Roll:
            return "chance: the roll of the combat cell is due (RaysOfDeath)";
        case Phase::Setup:
            return playerName(pos.decider()) + " to decide: set-up of " +
                   Position::homeCell(pos.decider(), 0).name() + "-" +
                   Position::homeCell(pos.decider(), 3).name() + " (RULES §15)";
    }
    return "unknown";
}

std::string raysText(const Position& pos) {
    std::string s = "rays combat ";
    if (pos.phase() == Phase::Roll)
        s += "(roll due)";
    else if (pos.combatCell() == rays::kNoCombat)
        s += "none (no roll yet)";
    else
        s += Cell(pos.combatCell()).name();
    for (const Player p : {Player::One, Player::Two}) {
        s += ", " + playerName(p) + " used";
        const Bitboard used = pos.used() & pos.pieces(p);
        for (const Cell c : used)
            s += ' ' + c.name();
        if (used.empty()) s += " none";
        if (pos.cycled() & (1u << index(p))) s += " (cycle ended this round)";
    }
    return s;
}

std::string creaturesText(const Rules& rules) {
    const CreatureSet& set = rules.creatures();
    std::string s = "creatures " + (set.name().empty() ? std::string("(no set name)") : set.name());
    s += set.path().empty() ? std::string(" (built in)") : " from " + set.path();
    for (int c = 0; c < set.size(); ++c) {
        const CreatureDef& d = set.creature(c);
        s += (c == 0 ? ": " : ", ") + std::string(1, d.letter) + ' ' +
             std::to_string(d.ratings.attack) + '/' + std::to_string(d.ratings.defence) + '/' +
             std::to_string(d.ratings.movement) + ' ' + d.name;
    }
    return s;
}

std::string legalEventsText(const Position& pos) {
    EventList list;
    pos.generate(list);
    std::string s;
    for (const Event e : list) {
        if (!s.empty()) s += ' ';
        s += pos.token(e);
    }
    return s;
}

}  // namespace dejarik::protocol
