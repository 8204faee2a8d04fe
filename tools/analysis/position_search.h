// The searches of game analysis and rollouts: every position searched from an empty table,
// so that its answer does not depend on what was searched before (with a depth limit and
// one search thread, the same position always gets the same answer).
#pragma once

#include <memory>

#include "position.h"
#include "search.h"

namespace dejarik::analysis {

// How every position is searched.
struct SearchSettings {
    search::Limits limits;
    search::Options options;
    std::shared_ptr<const tables::Tablebase> tables;  // null: none
};

// The expected result of a finished game for player 1: +1, -1, 0, or the showdown's odds.
[[nodiscard]] double finishedValue(const Position& pos);

class PositionSearch {
  public:
    explicit PositionSearch(const SearchSettings& settings);

    // Every decision of `pos` (a decision or placement point of a game not over) with its
    // value, best first, searched alike (MultiPV over all of them): the played decision's
    // value comes from the same search as the best one's.
    [[nodiscard]] search::Report rankAll(const Position& pos);
    // The best decision only.
    [[nodiscard]] search::Report best(const Position& pos);

  private:
    search::Report run(const Position& pos, int multiPv);

    SearchSettings settings_;
    search::Searcher searcher_;
};

// The deciding player's value of a line in player 1's view.
[[nodiscard]] double playerOneView(const Position& pos, double deciderValue);

}  // namespace dejarik::analysis
