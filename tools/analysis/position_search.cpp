#include "position_search.h"

#include <limits>

namespace dejarik::analysis {

double finishedValue(const Position& pos) {
    return pos.winProbability(Player::One) - pos.winProbability(Player::Two);
}

double playerOneView(const Position& pos, double deciderValue) {
    return pos.decider() == Player::One ? deciderValue : -deciderValue;
}

PositionSearch::PositionSearch(const SearchSettings& settings) : settings_(settings) {
    searcher_.setOptions(settings_.options);
    searcher_.setTables(settings_.tables);
}

search::Report PositionSearch::run(const Position& pos, int multiPv) {
    if (searcher_.options().multiPv != multiPv) {
        search::Options o = settings_.options;
        o.multiPv = multiPv;
        searcher_.setOptions(o);
    }
    searcher_.clearHash();
    return searcher_.run(pos, settings_.limits);
}

search::Report PositionSearch::rankAll(const Position& pos) {
    // The searcher ranks at most as many lines as there are decisions.
    return run(pos, std::numeric_limits<int>::max());
}

search::Report PositionSearch::best(const Position& pos) {
    return run(pos, 1);
}

}  // namespace dejarik::analysis
