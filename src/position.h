// A game position and everything that changes it: event generation, application, the end
// checks of RULES §8, the Zobrist key and DFEN input/output (RULES §11).
//
// Positions are small (one or two cache lines) and are copied to make a move: search and
// perft keep the parent and apply the event to a copy (copy-make). apply() with an Undo
// record and undo() are the make/unmake alternative, kept for measurement and for callers
// that must work in place.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "board.h"
#include "event.h"
#include "rays.h"
#include "rules.h"

namespace dejarik {

// What the next event is.
enum class Phase : std::uint8_t {
    Decision,   // the player on turn chooses an action
    Outcome,    // the dice settle the pending attack (a chance event)
    Placement,  // the winner of a push places the pushed piece
    Setup,      // a player arranges its reserve on its home cells (RULES §15)
    Roll,       // Rays of Death: the dice roll the next combat cell (a chance event)
};

enum class Result : std::uint8_t { Ongoing, Player1Wins, Player2Wins, Draw, Showdown };

class Position {
  public:
    // The standard start of the rules' ruleset (RULES §3).
    // Positions keep a pointer to their Rules: a temporary would dangle, hence the deleted
    // overloads.
    [[nodiscard]] static Position startpos(const Rules& rules);
    static Position startpos(const Rules&& rules) = delete;
    [[nodiscard]] static std::string_view startDfen(Ruleset ruleset);

    // Strict DFEN parsing; on failure the message names the bad field.
    [[nodiscard]] static std::optional<Position> fromDfen(std::string_view dfen, const Rules& rules,
                                                          std::string* error = nullptr);
    static std::optional<Position> fromDfen(std::string_view dfen, const Rules&& rules,
                                            std::string* error = nullptr) = delete;
    // The DFEN of this position; valid at a decision point only (Phase::Decision).
    [[nodiscard]] std::string dfen() const;

    [[nodiscard]] const Rules& rules() const { return *rules_; }
    [[nodiscard]] Piece at(Cell c) const { return board_[c.index()]; }
    [[nodiscard]] Bitboard pieces(Player p) const { return occupancy_[index(p)]; }
    // The creatures of p's pieces, by cell.
    [[nodiscard]] std::vector<Creature> army(Player p) const;
    [[nodiscard]] Bitboard occupied() const { return occupancy_[0] | occupancy_[1]; }
    [[nodiscard]] Bitboard emptyCells() const { return ~occupied(); }
    [[nodiscard]] Player sideToMove() const { return st_.side; }
    [[nodiscard]] int actionsLeft() const { return st_.actions; }
    [[nodiscard]] std::uint32_t quiet() const { return st_.quiet; }
    [[nodiscard]] std::uint32_t turn() const { return st_.turn; }
    [[nodiscard]] std::uint32_t hold(Player p) const { return st_.hold[index(p)]; }
    [[nodiscard]] Phase phase() const { return st_.phase; }
    // A turn starts here: its first decision is due (two actions left in Dejarik, the one
    // move of a Courtier turn).
    [[nodiscard]] bool startsTurn() const {
        return st_.phase == Phase::Decision && st_.actions == (rules_->courtier() ? 1 : 2);
    }
    // The player whose decision is due: the player on turn, except for the placement after a
    // counter-push. Meaningless while an outcome is due.
    [[nodiscard]] Player decider() const { return st_.decider; }
    // While an outcome is due: the attacker's and the defender's cells. While a placement is
    // due: from() is the pushed piece's cell.
    [[nodiscard]] Cell pendingFrom() const { return st_.pendingFrom; }
    [[nodiscard]] Cell pendingTo() const { return st_.pendingTo; }

    // Set-up (RULES §15): a player's creatures not yet set up, in creature-table order, as
    // creature indices; kNoReserve when the player has none (0 or 4 creatures).
    static constexpr std::uint8_t kNoReserve = 0xFF;
    [[nodiscard]] const std::array<std::uint8_t, 4>& reserve(Player p) const {
        return st_.reserve[index(p)];
    }
    [[nodiscard]] bool hasReserve(Player p) const { return st_.reserve[index(p)][0] != kNoReserve; }
    // A player's home cells in §15.1 order: c2-c5, c8-c11.
    [[nodiscard]] static Cell homeCell(Player p, int i) {
        return Cell::outer((p == Player::One ? 2 : 8) + i);
    }

    // Rays of Death (docs/rules.md): the cells of the creatures used in their players'
    // current cycles, the combat cell (rays::kNoCombat before the first roll), and the
    // players (bit 1 << index) that have ended a cycle since the last roll.
    [[nodiscard]] Bitboard used() const { return st_.used; }
    [[nodiscard]] std::uint8_t combatCell() const { return st_.combat; }
    [[nodiscard]] std::uint8_t cycled() const { return st_.cycled; }
    // A chance event is due: an attack's outcome or a roll.
    [[nodiscard]] bool chanceDue() const {
        return st_.phase == Phase::Outcome || st_.phase == Phase::Roll;
    }

    [[nodiscard]] Result result() const { return st_.result; }
    [[nodiscard]] bool isOver() const { return st_.result != Result::Ongoing; }
    // The probabilities that player 1 / player 2 win; exact 0/1 for decided games, the
    // showdown's odds for a showdown, 0 and 0 for a draw. Only for finished games.
    [[nodiscard]] double winProbability(Player p) const;

    [[nodiscard]] std::uint64_t key() const { return st_.key; }
    [[nodiscard]] std::uint64_t computeKey() const;

    // Every legal event, in a fixed order: moves, then attacks; or the outcomes of non-zero
    // probability; or the placements. None when the game is over.
    void generate(EventList& out) const;
    // The number of events `generate` would produce, without producing them (perft's bulk
    // count at the last ply).
    [[nodiscard]] int countEvents() const;
    [[nodiscard]] bool isLegal(Event e) const;
    // The legal event a token names here ("x-y" is a placement when one is due;
    // "setup:ghsn" a set-up, any case).
    [[nodiscard]] std::optional<Event> parseEvent(std::string_view token) const;
    // The token of an event of this position: Event::token(), but a set-up's letters come
    // from the reserve ("setup:ghsn", lower case).
    [[nodiscard]] std::string token(Event e) const;
    // The probability of an outcome event while an outcome is due.
    [[nodiscard]] double probability(Event outcome) const;

    // Applies a legal event.
    void apply(Event e);

    // Everything but the board and its occupancy: what make/unmake saves and restores.
    struct State {
        std::uint64_t key = 0;
        Player side = Player::One;
        std::uint8_t actions = 2;
        Phase phase = Phase::Decision;
        Player decider = Player::One;
        Cell pendingFrom;
        Cell pendingTo;
        Result result = Result::Ongoing;
        std::uint32_t quiet = 0;
        std::uint32_t turn = 1;
        std::array<std::uint32_t, 2> hold{};
        std::array<std::array<std::uint8_t, 4>, 2> reserve{
            {{kNoReserve, kNoReserve, kNoReserve, kNoReserve},
             {kNoReserve, kNoReserve, kNoReserve, kNoReserve}}};
        Bitboard used;
        std::uint8_t combat = rays::kNoCombat;
        std::uint8_t cycled = 0;
    };

    // What apply(e, undo) saves so that undo(e, undo) can restore the position exactly
    // (operator==). The board is not copied: a move or a placement is walked back, and an
    // outcome saves the two combatants, the only pieces it can remove.
    // Courtier: a step saves its mover as `attacker` and what it took as `defender`, on
    // `captured`.
    struct Undo {
        State state;
        Piece attacker;
        Piece defender;
        Cell captured;
    };
    // Applies a legal event, saving in `saved` what undo() needs.
    void apply(Event e, Undo& saved);
    // Takes back `e`, the last event applied with apply(e, saved).
    void undo(Event e, const Undo& saved);

    // Structural equality of the whole game state (rules compared by identity).
    bool operator==(const Position& o) const;

  private:
    explicit Position(const Rules& rules) : rules_(&rules) {}

    void put(Cell c, Piece p);
    void remove(Cell c);
    void relocate(Cell from, Cell to);
    void setActions(int n);
    void setHold(Player p, std::uint32_t value);
    void resolvePush(Cell pushed, Player decider, bool counter);
    void endAction();
    void checkEnd(bool turnEnded);
    void applySetup(Event e);
    // Rays of Death, in src/rays.cpp.
    [[nodiscard]] Bitboard actors() const;
    void activate(Cell c);
    void endCycles();
    void setUsed(Bitboard used);
    void setCombat(std::uint8_t cell);
    [[nodiscard]] std::uint64_t raysKey() const;
    [[nodiscard]] bool parseRaysField(std::string_view field, std::string* error);
    [[nodiscard]] std::string raysField() const;
    [[nodiscard]] std::uint64_t reserveKey(Player p) const;
    [[nodiscard]] const Rules::Combat& pendingCombat() const;

    // Courtier (RULES §14), in src/courtier.cpp.
    struct CourtierStep {
        Cell captured;
        Piece capturedPiece;  // none: the step captured nothing
        bool moverLost = false;
    };
    void generateCourtier(EventList& out) const;
    [[nodiscard]] int countCourtier() const;
    CourtierStep applyCourtier(Event e);
    [[nodiscard]] static std::optional<Position> fromCourtierDfen(std::string_view dfen,
                                                                  const Rules& rules,
                                                                  std::string* error);

    const Rules* rules_;
    State st_;
    std::array<Piece, Cell::kCount> board_{};
    std::array<Bitboard, 2> occupancy_{};
};

// The expected value of a position whose outcome is due: each outcome's probability times
// valueOf(the position after it), which returns std::optional<double>; nothing as soon as
// one outcome has no value. The one place chance is averaged outside the search's pruning.
template <typename ValueOf>
[[nodiscard]] std::optional<double> expectOverOutcomes(const Position& pos, ValueOf&& valueOf) {
    EventList outcomes;
    pos.generate(outcomes);
    double sum = 0;
    for (const Event o : outcomes) {
        Position child = pos;
        child.apply(o);
        const std::optional<double> v = valueOf(child);
        if (!v) return std::nullopt;
        sum += pos.probability(o) * *v;
    }
    return sum;
}

// Applies whitespace-separated event tokens in order. On an illegal or unknown token the
// result is empty and the message names the token and its place.
[[nodiscard]] std::optional<Position> playTokens(Position pos, std::string_view tokens,
                                                 std::string* error = nullptr);

}  // namespace dejarik
