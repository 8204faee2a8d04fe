// The referee: plays one game between two seats, owning the dice and the clocks, trusting
// neither player.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "game.h"

namespace dejarik::arena {

struct RefereeConfig {
    int maxTurns = 400;  // a game still going after this many turns is a draw (turn-cap)
    std::chrono::milliseconds timeMargin{200};      // overstepping a time limit by this is ok
    std::chrono::milliseconds stallTimeout{60000};  // the wait without a time limit
    const std::atomic<bool>* interrupt = nullptr;
    // Called after every event (the demo prints the game as it goes).
    std::function<void(const Position& before, const RecordedEvent& event)> onEvent;
};

struct GameSpec {
    const Rules& rules;
    std::string deal;
    LuckStream luck;
    std::array<Seat*, 2> seats;  // player 1, player 2
    std::array<TimeControl, 2> controls;
};

// Plays the game out; the record's tags about the schedule (seed, round, job) are left
// for the caller. Empty when the run was interrupted during the game.
[[nodiscard]] std::optional<GameRecord> playGame(const GameSpec& spec, const RefereeConfig& config);

}  // namespace dejarik::arena
