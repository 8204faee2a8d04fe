// A played game analysed as GNU Backgammon analyses a match: every decision's error against
// the engine's best decision, every chance event's luck, and a summary per player.
//
// Values are expected results in [-1, 1]. A decision's error is ev(best) - ev(played) from
// the decider's view, both from one search of the position that ranks every decision
// (MultiPV over all of them). A chance event's luck is player 1's ev after the outcome
// minus the expectation before it, each outcome's position searched as a decision would be.
// So, per game, initial ev + total luck - errors of player 1 + errors of player 2 is the
// final result up to the differences between a decision's searched value and the value of
// the position it leads to searched afresh (the residual): exactly the result where the
// values are exact (endgame tables).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "game.h"
#include "position_search.h"

namespace dejarik::analysis {

// Marks of a decision by its error, gnubg-style: doubtful ?!, bad ?, very bad ??.
enum class Mark : std::uint8_t { None, Doubtful, Bad, VeryBad };
inline constexpr std::array<double, 3> kMarkThresholds{0.02, 0.05, 0.10};
[[nodiscard]] Mark markOf(double error);
[[nodiscard]] std::string_view markText(Mark m);  // "", "?!", "?", "??"

// A one-word rating of a player by the mean error per decision (bands in docs/analysis.md).
[[nodiscard]] std::string_view ratingOf(double meanError);

enum class EntryKind : std::uint8_t { Decision, Chance, Showdown };

struct AnalysedEvent {
    EntryKind kind = EntryKind::Decision;
    std::size_t index = 0;  // in the record's events; a showdown: their number
    std::uint32_t turn = 0;
    Player player = Player::One;  // the decider; for an outcome the attacker
    std::string token;            // the event; "showdown" for the showdown
    // Decisions, in the decider's view.
    std::string best;
    double bestEv = 0;
    double playedEv = 0;
    double error = 0;
    Mark mark = Mark::None;
    int choices = 0;  // legal decisions
    int depth = 0;
    std::uint64_t nodes = 0;
    // Chance events, in player 1's view.
    double probability = 1;  // of the outcome
    double expected = 0;     // before the outcome
    double luck = 0;         // ev after it - expected
    // Player 1's ev after the event.
    double ev = 0;
};

struct PlayerSummary {
    int decisions = 0;
    double totalError = 0;
    std::array<int, 3> marks{};  // ?!, ?, ??
    double luck = 0;             // this player's own luck
    [[nodiscard]] double meanError() const;
};

struct GameAnalysis {
    double initialEv = 0;  // player 1's ev before the first event
    double result = 0;     // player 1's result: +1, 0, -1
    std::vector<AnalysedEvent> events;
    std::array<PlayerSummary, 2> players;
    double totalLuck = 0;  // player 1's
    // result - (initial ev + luck - errors of player 1 + errors of player 2).
    [[nodiscard]] double residual() const;
};

// Called after each analysed event with the number done and the number of events.
using Progress = std::function<void(std::size_t done, std::size_t total)>;

// Analyses the game of `record` under `rules` (the record's Rules tag). Empty, with
// `error` set, when an event is not legal where it stands.
[[nodiscard]] std::optional<GameAnalysis> analyseGame(const arena::GameRecord& record,
                                                      const Rules& rules,
                                                      const SearchSettings& settings,
                                                      std::string& error,
                                                      const Progress& progress = {});

// Player 1's result of a recorded game: +1, 0, -1.
[[nodiscard]] double resultOf(const arena::GameRecord& record);

}  // namespace dejarik::analysis
