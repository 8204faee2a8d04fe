// What a game is made of for the arena: the players' seats, time controls, the record.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "luck.h"
#include "position.h"

namespace dejarik::arena {

enum class Termination : std::uint8_t {
    Elimination,   // a player lost their last piece
    Showdown,      // one piece each, decided by the showdown dice
    ShowdownDraw,  // one piece each, and no showdown round can ever decide
    CentreWin,     // RULES §8.3
    QuietDraw,     // RULES §8.4
    TurnCap,       // the arena's turn limit: a draw
    Illegal,       // the loser's bestmove was missing, malformed or illegal
    Crash,         // the loser's engine exited or closed its output
    Stall,         // the loser's engine did not answer in time without a time limit
    Time,          // the loser's engine overstepped its time control (with the margin)
    KingCapture,   // Courtier: a King left the board (RULES §14.10)
};
[[nodiscard]] std::string_view terminationName(Termination t);
[[nodiscard]] std::optional<Termination> parseTermination(std::string_view name);
// Whether the engine that lost broke the rules of the arena (illegal, crash, stall, time).
[[nodiscard]] bool isFault(Termination t);

enum class GameOutcome : std::uint8_t { Player1Wins, Player2Wins, Draw };
[[nodiscard]] std::string_view outcomeTag(GameOutcome o);  // "1-0", "0-1", "1/2-1/2"
[[nodiscard]] std::optional<GameOutcome> parseOutcomeTag(std::string_view tag);
// The points of `p` (1, 0.5 or 0).
[[nodiscard]] double pointsFor(GameOutcome o, Player p);

// The words of s, split at white space.
[[nodiscard]] std::vector<std::string> splitWords(std::string_view s);

// The longest time the arena takes for anything (a limit, a clock, a timeout): over eleven
// days, and far inside what the nanosecond clocks it is added to can hold (now + 2^63 ns
// overflows; 10^9 ms is 10^15 ns).
inline constexpr std::int64_t kMaxMilliseconds = 1'000'000'000;

// The limits of one engine's searches. Any combination may be given; at least one is
// needed for an engine run by the arena.
struct TimeControl {
    int depth = 0;
    std::uint64_t nodes = 0;
    std::int64_t movetimeMs = 0;
    std::int64_t baseMs = -1;  // the game clock; -1: no clock
    std::int64_t incMs = 0;

    [[nodiscard]] bool timed() const { return movetimeMs > 0 || baseMs >= 0; }
    [[nodiscard]] bool any() const { return depth > 0 || nodes > 0 || timed(); }
    // Sets "depth", "nodes", "movetime" (ms) or "tc" (seconds, "BASE" or "BASE+INC").
    [[nodiscard]] std::optional<std::string> set(std::string_view key, std::string_view value);
    [[nodiscard]] static bool isKey(std::string_view key);
    [[nodiscard]] std::string str() const;  // "depth=4 tc=10+0.1"
};

// What an engine said about the decision it made (from its last info line with a score).
struct DecisionInfo {
    std::optional<int> ev;  // per mille, for the deciding player
    std::optional<std::array<int, 3>> wdl;
    std::optional<int> depth;
    std::optional<std::uint64_t> nodes;
    std::int64_t elapsedMs = 0;  // measured by the arena
    [[nodiscard]] std::string str() const;
    [[nodiscard]] static DecisionInfo parse(std::string_view comment);
};

enum class SeatFault : std::uint8_t { None, Crash, Timeout, Interrupted };

struct Reply {
    SeatFault fault = SeatFault::None;
    std::string token;  // the bestmove, unchecked
    DecisionInfo info;
    std::string detail;  // what went wrong
};

struct DecisionRequest {
    const std::string& deal;
    const std::vector<std::string>& moves;
    const Position& position;
    // Each player's clock, none for a player without one; below 0 when its player
    // overstepped its time within the margin.
    std::array<std::optional<std::int64_t>, 2> clockMs;
    std::array<std::int64_t, 2> incMs{0, 0};
    const TimeControl& control;
    std::chrono::milliseconds wait;  // how long a bestmove may take before it is stopped
};

// A player as the referee sees it: an engine process or an in-process baseline.
class Seat {
  public:
    virtual ~Seat() = default;
    [[nodiscard]] virtual const std::string& name() const = 0;
    // Gets ready for a new game (starting the engine when needed).
    [[nodiscard]] virtual Reply prepare() = 0;
    [[nodiscard]] virtual Reply decide(const DecisionRequest& request) = 0;
    // After a fault: the engine process is ended, and the next prepare() starts afresh.
    virtual void recover() = 0;
    // Ends the engine politely (stop, quit), as at the end of a run or on an interrupt.
    virtual void shutdown() = 0;
};

// Player 1's luck in a game, in units of 1/10000 so that files hold it exactly: the luck
// of player 1's attacks minus that of player 2's (attackLuck, in material points), and the
// showdown's result for player 1 (+1, -1) minus its expectation.
struct Luck {
    std::int64_t attacks = 0;
    std::int64_t showdown = 0;
    static constexpr double kUnit = 1e-4;
    [[nodiscard]] static std::int64_t units(double v) { return std::llround(v / kUnit); }
    [[nodiscard]] double attackPoints() const { return static_cast<double>(attacks) * kUnit; }
    [[nodiscard]] double showdownPoints() const { return static_cast<double>(showdown) * kUnit; }
    [[nodiscard]] std::string str() const;  // "attacks=+3.2500 showdown=-0.3200"
    [[nodiscard]] static std::optional<Luck> parse(std::string_view text);
    bool operator==(const Luck&) const = default;
};

struct RecordedEvent {
    std::string token;
    std::string comment;  // without braces; empty for none
    std::uint32_t turn = 0;
    bool startsTurn = false;  // a turn number is printed before it
};

// A game record (format in docs/arena.md): tags, the events with comments, the result.
struct GameRecord {
    std::string rules;  // Rules::describe()
    std::string deal;
    std::uint64_t seed = 0;
    std::uint64_t round = 0;
    int gameInPair = 0;  // 0 or 1
    std::uint64_t job = 0;
    DiceMode diceMode = DiceMode::Duplicate;
    std::array<std::string, 2> players;
    GameOutcome outcome = GameOutcome::Draw;
    Termination termination = Termination::QuietDraw;
    // False for a game saved before its end (the GUI's): Result "*", no Termination, and
    // outcome and termination mean nothing. The arena writes finished games only.
    bool finished = true;
    std::string detail;
    std::string finalDfen;
    std::uint32_t turns = 0;
    std::vector<RecordedEvent> events;
    std::string closingComment;  // the showdown's dice, when there was one
    Luck luck;

    // The space-separated event tokens, as `position dfen <deal> moves ...` takes them.
    [[nodiscard]] std::string moves() const;
    // The Round tag: the round and the game of its pair, each from 1 ("3.2").
    [[nodiscard]] std::string roundTag() const;
    // The seat of the engine called `name`, if it plays this game.
    [[nodiscard]] std::optional<Player> seatOf(const std::string& name) const;
};

[[nodiscard]] std::string formatRecord(const GameRecord& record);
// Every record of a file in the format formatRecord writes.
[[nodiscard]] std::optional<std::vector<GameRecord>> parseRecords(std::string_view text,
                                                                  std::string& error);
// The rule options that Rules::describe() printed (a record's Rules tag), each first put to
// `refuse`.
[[nodiscard]] std::optional<RuleOptions> parseRulesTag(std::string_view tag, std::string& error,
                                                       const RuleOptions::Refusal& refuse = {});

}  // namespace dejarik::arena
