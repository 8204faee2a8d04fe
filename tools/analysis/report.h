// The text, JSON and SVG forms of a game analysis and of a rollout.
#pragma once

#include <string>
#include <vector>

#include "game.h"
#include "game_analysis.h"
#include "rollout.h"

namespace dejarik::analysis {

// One analysed game with what the reports say about it.
struct AnalysedGame {
    int number = 0;  // the record's number in its file, from 1
    const arena::GameRecord* record = nullptr;
    GameAnalysis analysis;
    std::int64_t timeMs = 0;
};

// The table of every event, turn by turn, and the summary per player.
[[nodiscard]] std::string gameText(const AnalysedGame& game, const std::string& limits);

// One JSON object per line: every event ("type" decision, chance or showdown), then the
// game's summary ("type" summary).
[[nodiscard]] std::string gameJson(const AnalysedGame& game);

// Player 1's ev over each game, one panel per game, luck and errors marked.
[[nodiscard]] std::string gamesSvg(const std::vector<AnalysedGame>& games);

// The rollout's table: per candidate the mean, standard error, 95% interval, luck-adjusted
// mean and its interval, the variance ratio, wins, draws, losses and truncated playouts.
[[nodiscard]] std::string rolloutText(const RolloutResult& result);

}  // namespace dejarik::analysis
