// Working with finished records: replaying them, and calibrating an engine's evaluations
// against the results of its games.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "game.h"

namespace dejarik::arena {

// A record replayed through the rules core: the rules of its Rules tag, its deal, then
// every event with playTokens.
struct Replay {
    std::unique_ptr<Rules> rules;  // the final position refers to it
    std::optional<Position> final;
};
// The replayed game, or an error when the record does not replay, or its final position
// differs from the record's Final tag.
[[nodiscard]] std::optional<Replay> replayRecord(const GameRecord& record, std::string& error);

// The position `record` starts from under `rules`; a deal that does not parse is an error
// naming the record by round and game ("record R.G: Deal: ...").
[[nodiscard]] std::optional<Position> recordStart(const GameRecord& record, const Rules& rules,
                                                  std::string& error);

// Replays `record`'s events from its deal under `rules` (those of its Rules tag), calling
// `visit` with each recorded event, its Event and the positions before and after it. False,
// with the error (naming the record by round and game), at a deal or an event that does not
// parse.
using EventVisit = std::function<void(const RecordedEvent& recorded, Event event,
                                      const Position& before, const Position& after)>;
[[nodiscard]] bool forEachEvent(const GameRecord& record, const Rules& rules,
                                const EventVisit& visit, std::string& error);

// The Rules of each Rules tag met, parsed once; they live as long as the cache.
using RulesCache = std::map<std::string, std::unique_ptr<Rules>, std::less<>>;
// Calls `visit` with every finished record not ended by a fault in which `player` plays, the
// player's seat and the rules of its Rules tag (from `cache`). False, with the error, at a
// Rules tag that does not parse, or when `visit` returns false (having set the error).
using GameVisit = std::function<bool(const GameRecord& record, Player seat, const Rules& rules)>;
[[nodiscard]] bool forEachGameOf(const std::vector<GameRecord>& records, const std::string& player,
                                 RulesCache& cache, const GameVisit& visit, std::string& error);

// Every decision with an ev in every record whose game did not end by a fault, of the
// engine called `player` (empty: every engine): its ev / 1000 and wdl as the engine
// reported them, and the deciding player's result, +1 won, 0 drawn, -1 lost. Stops at the
// first record that does not replay, with the error. `game` counts the records visited.
struct RecordedDecision {
    double ev = 0;
    std::optional<std::array<int, 3>> wdl;
    double points = 0;  // the decider's points: 1, 1/2 or 0
    std::int64_t game = 0;
    Ruleset ruleset = Ruleset::Kelly;
};
[[nodiscard]] bool forEachDecision(const std::vector<GameRecord>& records,
                                   const std::string& player,
                                   const std::function<void(const RecordedDecision&)>& visit,
                                   std::string& error);

// Predicted against actual results, per bin of the reported ev: every decision with an ev
// in every record whose game did not end by a fault; `player` filters by engine name
// (empty: all). The actual result of a decision is that of the deciding player's game:
// +1 won, 0 drawn, -1 lost; the predicted one is ev / 1000.
struct CalibrationBin {
    double low = 0;
    double high = 0;
    std::int64_t decisions = 0;
    std::int64_t games = 0;  // games with a decision in the bin: the independent samples
    double predicted = 0;    // mean ev / 1000
    double actual = 0;       // mean result
    std::int64_t withWdl = 0;
    std::array<double, 3> predictedWdl{};  // mean reported chances
    std::array<double, 3> actualWdl{};     // frequencies of the results
};
struct Calibration {
    std::vector<CalibrationBin> bins;
    std::int64_t decisions = 0;
    std::int64_t games = 0;
    double meanSquaredError = 0;  // of ev / 1000 against the result
};
// `restate`, when given, replaces each decision's ev and wdl first (what another report of
// the same searched values would have said).
using Restate = std::function<RecordedDecision(const RecordedDecision&)>;
[[nodiscard]] std::optional<Calibration> calibrate(const std::vector<GameRecord>& records,
                                                   const std::string& player, int bins,
                                                   std::string& error, const Restate& restate = {});
[[nodiscard]] std::string formatCalibration(const Calibration& c);

}  // namespace dejarik::arena
