#include "retrograde.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace dejarik::tables {

GameGraph::GameGraph(const std::vector<std::vector<std::uint32_t>>& successors,
                     std::vector<std::uint8_t> maximiser)
    : maximiser_(std::move(maximiser)) {
    if (successors.size() != maximiser_.size())
        throw std::invalid_argument("GameGraph: one owner per node");
    succStart_.reserve(successors.size() + 1);
    succStart_.push_back(0);
    for (const auto& list : successors) {
        succ_.insert(succ_.end(), list.begin(), list.end());
        succStart_.push_back(static_cast<std::uint32_t>(succ_.size()));
    }
    transpose();
}

GameGraph::GameGraph(std::vector<std::uint32_t> start, std::vector<std::uint32_t> targets,
                     std::vector<std::uint8_t> maximiser)
    : succStart_(std::move(start)), succ_(std::move(targets)), maximiser_(std::move(maximiser)) {
    if (succStart_.size() != maximiser_.size() + 1 || succStart_.back() != succ_.size())
        throw std::invalid_argument("GameGraph: malformed rows");
    transpose();
}

void GameGraph::transpose() {
    const std::uint32_t n = nodes();
    for (const std::uint32_t t : succ_)
        if (t >= n) throw std::invalid_argument("GameGraph: successor out of range");
    predStart_.assign(n + 1, 0);
    for (const std::uint32_t t : succ_)
        ++predStart_[t + 1];
    for (std::uint32_t i = 0; i < n; ++i)
        predStart_[i + 1] += predStart_[i];
    pred_.resize(succ_.size());
    std::vector<std::uint32_t> fill(predStart_.begin(), predStart_.end() - 1);
    for (std::uint32_t from = 0; from < n; ++from)
        for (std::uint32_t k = succStart_[from]; k < succStart_[from + 1]; ++k)
            pred_[fill[succ_[k]]++] = from;
}

void AttackFreeSolver::solve(std::span<const double> exits, std::span<double> values,
                             std::span<std::uint32_t> sources, std::span<std::uint32_t> distances) {
    const std::uint32_t n = graph_.nodes();
    settled_.assign(n, 0);
    std::fill(values.begin(), values.end(), 0.0);
    std::fill(sources.begin(), sources.end(), kNoSource);
    pass(exits, values, sources, true);
    pass(exits, values, sources, false);
    forcedDistances(exits, values, distances);
}

void AttackFreeSolver::forcedDistances(std::span<const double> exits,
                                       std::span<const double> values,
                                       std::span<std::uint32_t> distances) {
    const std::uint32_t n = graph_.nodes();
    settled_.assign(n, 0);
    remaining_.resize(n);
    queue_.clear();
    for (std::uint32_t i = 0; i < n; ++i) {
        const double v = values[i];
        distances[i] = v == 0 ? 0 : kUnforced;
        if (v == 0) continue;
        const auto successors = graph_.successors(i);
        remaining_[i] = static_cast<std::uint32_t>(successors.size());
        const bool winner = graph_.maximiser(i) == (v > 0);
        const bool atExit = winner ? !std::isnan(exits[i]) && realises(v, exits[i])
                                   : successors.empty();  // a loser that cannot move
        if (atExit) {
            settled_[i] = 1;
            distances[i] = 0;
            queue_.push_back(i);
        }
    }
    // Breadth first: distances grow along the queue, so a winner settles from its nearest
    // successor and a loser, at its last successor, from its farthest.
    for (std::size_t head = 0; head < queue_.size(); ++head) {
        const std::uint32_t m = queue_[head];
        for (const std::uint32_t p : graph_.predecessors(m)) {
            if (settled_[p] || values[p] == 0 || (values[p] > 0) != (values[m] > 0)) continue;
            const bool winner = graph_.maximiser(p) == (values[p] > 0);
            if (winner ? !realises(values[p], values[m]) : --remaining_[p] != 0) continue;
            settled_[p] = 1;
            distances[p] = distances[m] + 1;
            queue_.push_back(p);
        }
    }
}

void AttackFreeSolver::pass(std::span<const double> exits, std::span<double> values,
                            std::span<std::uint32_t> sources, bool positive) {
    const std::uint32_t n = graph_.nodes();
    remaining_.resize(n);
    events_.clear();
    for (std::uint32_t i = 0; i < n; ++i) {
        const double e = exits[i];
        const bool hasExit = !std::isnan(e);
        remaining_[i] = static_cast<std::uint32_t>(graph_.successors(i).size()) + (hasExit ? 1 : 0);
        if (hasExit && (positive ? e > 0 : e < 0)) events_.emplace_back(e, i);
    }
    // Best values for the pass's winner first: decreasing in the positive pass. Ties in
    // node order, so that the result does not depend on the sort.
    if (positive)
        std::sort(events_.begin(), events_.end(), [](const auto& x, const auto& y) {
            return x.first != y.first ? x.first > y.first : x.second < y.second;
        });
    else
        std::sort(events_.begin(), events_.end(), [](const auto& x, const auto& y) {
            return x.first != y.first ? x.first < y.first : x.second < y.second;
        });

    // Offers v to node i; true when i settles. The pass's winner takes the first offer,
    // the other player only when every option has been offered.
    const auto offer = [&](std::uint32_t i) {
        if (settled_[i]) return false;
        if (graph_.maximiser(i) != positive && --remaining_[i] != 0) return false;
        settled_[i] = 1;
        return true;
    };
    for (std::size_t first = 0; first < events_.size();) {
        // The exits of one value, then everything they settle: each takes that value.
        const double v = events_[first].first;
        queue_.clear();
        for (; first < events_.size() && events_[first].first == v; ++first) {
            const std::uint32_t origin = events_[first].second;
            if (!offer(origin)) continue;
            values[origin] = v;
            sources[origin] = origin;
            queue_.push_back(origin);
        }
        // Everything settled from here takes the same value v, which no later event beats.
        for (std::size_t head = 0; head < queue_.size(); ++head) {
            const std::uint32_t m = queue_[head];
            for (const std::uint32_t p : graph_.predecessors(m)) {
                if (!offer(p)) continue;
                values[p] = v;
                sources[p] = sources[m];
                queue_.push_back(p);
            }
        }
    }
}

}  // namespace dejarik::tables
