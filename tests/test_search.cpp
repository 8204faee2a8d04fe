#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <random>

#include "random_positions.h"
#include "search/search.h"

using namespace dejarik;
using namespace dejarik::search;

namespace {

std::vector<Rules> allRules() {
    std::vector<Rules> rules;
    for (const Ruleset r : kRulesets)
        rules.push_back(Rules::preset(r));
    RuleOptions o;
    o.kingOfTheCentre = true;
    o.blockedPush = BlockedPush::KillOnPush;
    rules.emplace_back(o);
    return rules;
}

// Random searchable positions of one ruleset, some from late in games.
std::vector<Position> samplePositions(const Rules& rules, int count, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<Position> out;
    while (static_cast<int>(out.size()) < count) {
        auto walk = testing::randomWalk(Position::startpos(rules), 120, rng, testing::isSearchable);
        if (walk.empty()) continue;
        std::uniform_int_distribution<std::size_t> pick(0, walk.size() - 1);
        out.push_back(walk[pick(rng)]);
    }
    return out;
}

}  // namespace

TEST_CASE("Star1/Star2 search equals plain expectiminimax (no table)") {
    const auto rulesList = allRules();
    std::uint64_t plainNodes = 0, prunedNodes = 0;
    int compared = 0;
    for (std::size_t r = 0; r < rulesList.size(); ++r) {
        for (const Position& pos : samplePositions(rulesList[r], 60, 100 + r)) {
            for (int depth = 1; depth <= 2; ++depth) {
                std::uint64_t a = 0, b = 0;
                const double plain = expectiminimax(pos, depth, a);
                const double pruned = prunedValue(pos, depth, b);
                CAPTURE(pos.dfen());
                CAPTURE(depth);
                CHECK(std::abs(pruned - plain) <= 1e-9);
                plainNodes += a;
                prunedNodes += b;
                ++compared;
            }
        }
    }
    MESSAGE("compared " << compared << " searches; nodes plain " << plainNodes << " pruned "
                        << prunedNodes);
}
