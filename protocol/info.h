// The engine's result lines: `info ... score ev V wdl W D L [exact] pv ...` and the scores
// of decisions made without a search (the baseline players).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "position.h"
#include "search.h"

namespace dejarik::protocol {

// The figures of one info line besides its scored line.
struct InfoStats {
    int depth = 0;
    int seldepth = 0;
    std::int64_t timeMs = 0;
    std::uint64_t nodes = 0;
    std::uint64_t nps = 0;
    int hashfull = 0;
    int multipv = 0;  // 0: no `multipv` field (MultiPV 1)
};

// `score ev V wdl W D L [exact] pv ...`; the pv starts with the line's decision even if the
// search handed out an empty one. With the position searched, each token is written by the
// position it is played in (a set-up's letters are its reserve's, RULES §15.3).
[[nodiscard]] std::string scoreText(const search::Line& line, const Position* root = nullptr);

[[nodiscard]] std::string infoLine(const InfoStats& stats, const search::Line& line,
                                   const Position* root = nullptr);

// The value of a decision judged one event ahead, for players that do not search: exact
// when the event ends the game, else the static evaluation, from the decider's view.
[[nodiscard]] search::Line staticLine(const Position& pos, Event decision,
                                      const eval::Tunables& tunables = eval::kDefaultTunables);

}  // namespace dejarik::protocol
