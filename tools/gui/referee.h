// The game a browser plays against the engine, refereed by the server: it holds the deal
// and every event, checks each decision with the rules core, rolls the dice (seeded, as
// the arena does) and writes the record in the arena's format. It knows nothing of sockets
// or engines, so that its logic is tested on its own.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "game.h"
#include "luck.h"
#include "position.h"
#include "rules.h"

namespace dejarik::gui {

// How the engine searches each of its decisions: a depth or a time (one is set).
struct Strength {
    int depth = 0;
    int movetimeMs = 0;
    [[nodiscard]] std::string goCommand() const;  // "go depth 4", "go movetime 500"
    [[nodiscard]] std::string str() const;        // "depth=4", "movetime=500"
};

struct GameSetup {
    RuleOptions options;
    bool randomDeal = false;  // else the ruleset's standard deal
    std::uint64_t seed = 1;   // the random deal's and the dice's
    Player human = Player::One;
    Strength strength{4, 0};
};

// Who is to act in the current position: the dice settle an attack and, under Rays of
// Death, roll the combat cell.
enum class Turn : std::uint8_t { Human, Engine, Dice, Over };

// What the dice rolled: an attack's outcome or a combat cell.
using Roll = std::variant<arena::AttackRoll, arena::LuckStream::RayRoll>;

// A game's end: the record's result and termination.
struct Ending {
    arena::GameOutcome outcome = arena::GameOutcome::Draw;
    arena::Termination termination = arena::Termination::QuietDraw;
    std::string showdown;     // the showdown's dice, when there was one
    double showdownLuck = 0;  // player 1's result minus its expectation
};

class Referee {
  public:
    // A new game; none, with `error` set, when the setup is bad.
    [[nodiscard]] static std::unique_ptr<Referee> start(const GameSetup& setup, std::string& error);
    // The game of a record (docs/arena.md format), every event checked again; the human
    // takes `human`'s seat and the game goes on from the record's end when it is not over.
    [[nodiscard]] static std::unique_ptr<Referee> fromRecord(std::string_view text, Player human,
                                                             Strength strength, std::string& error);

    [[nodiscard]] const Rules& rules() const { return *rules_; }
    [[nodiscard]] const GameSetup& setup() const { return setup_; }
    [[nodiscard]] const std::string& deal() const { return deal_; }
    [[nodiscard]] const Position& position() const { return positions_.back(); }
    // The position after the first `ply` events (0 <= ply <= plies()).
    [[nodiscard]] const Position& positionAt(std::size_t ply) const { return positions_[ply]; }
    [[nodiscard]] std::size_t plies() const { return events_.size(); }
    [[nodiscard]] const std::vector<arena::RecordedEvent>& events() const { return events_; }
    [[nodiscard]] std::vector<std::string> moves() const;
    [[nodiscard]] Turn turn() const;
    [[nodiscard]] const std::optional<Ending>& ending() const { return ending_; }
    void setStrength(Strength s) { setup_.strength = s; }

    // Plays a decision of whoever decides now (`byHuman` says who sends it): an error,
    // and nothing changed, when it is not theirs to make or not legal.
    [[nodiscard]] std::optional<std::string> decide(std::string_view token, bool byHuman,
                                                    std::string comment = {});
    // Rolls the dice due (turn() == Dice), the pending attack's or the combat cell's, and
    // plays what they rolled.
    Roll roll();
    // Back to the start of the human's turn (this one when it has begun, else the one
    // before): false when there is none.
    bool undoTurn();

    [[nodiscard]] arena::GameRecord record(const std::string& engineName) const;

  private:
    Referee(const GameSetup& setup, std::unique_ptr<Rules> rules, std::string deal,
            const Position& start);
    void append(Event e, std::string comment);
    void settleEnd();
    // Attacks `p` rolled so far: the index of its next number in the luck stream.
    [[nodiscard]] std::uint64_t attacksBy(Player p) const;
    // Combat cells rolled so far: the index of the next roll in the luck stream.
    [[nodiscard]] std::uint64_t cellRolls() const;

    GameSetup setup_;
    std::unique_ptr<Rules> rules_;  // positions point to it: it never moves
    std::string deal_;
    arena::LuckStream luck_;
    std::vector<Position> positions_;  // positions_[k]: after k events
    std::vector<arena::RecordedEvent> events_;
    std::vector<double> luckOfPlayer1_;  // per event, player 1's luck of an outcome
    std::optional<Ending> ending_;
};

// Why a page may not set `option`, or nothing: a string option names a file on the server
// (CreatureFile), and no page may make the server open a path of its choosing or read a
// line of it back. A `new` request and a loaded record's Rules tag both answer to it.
[[nodiscard]] std::optional<std::string> pageRefusal(const RuleOptionSpec& option);
// A piece's name on the page: its creature's in the set in force (Courtier's Guard or King).
[[nodiscard]] std::string_view pieceName(const Rules& rules, Piece p);

}  // namespace dejarik::gui
