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
                             std::span<std::uint32_t> sources) {
    const std::uint32_t n = graph_.nodes();
    settled_.assign(n, 0);
    std::fill(values.begin(), values.end(), 0.0);
    std::fill(sources.begin(), sources.end(), kNoSource);
    pass(exits, values, sources, true);
    pass(exits, values, sources, false);
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
    // Best values for the pass's winner first: decreasing in the positive pass.
    if (positive)
        std::sort(events_.begin(), events_.end(),
                  [](const auto& x, const auto& y) { return x.first > y.first; });
    else
        std::sort(events_.begin(), events_.end(),
                  [](const auto& x, const auto& y) { return x.first < y.first; });

    // Offers v to node i; true when i settles. The pass's winner takes the first offer,
    // the other player only when every option has been offered.
    const auto offer = [&](std::uint32_t i) {
        if (settled_[i]) return false;
        if (graph_.maximiser(i) != positive && --remaining_[i] != 0) return false;
        settled_[i] = 1;
        return true;
    };
    for (const auto& [v, origin] : events_) {
        if (!offer(origin)) continue;
        values[origin] = v;
        sources[origin] = origin;
        stack_.assign(1, origin);
        // Everything settled from here takes the same value v, which no later event beats.
        while (!stack_.empty()) {
            const std::uint32_t m = stack_.back();
            stack_.pop_back();
            for (const std::uint32_t p : graph_.predecessors(m)) {
                if (!offer(p)) continue;
                values[p] = v;
                sources[p] = origin;
                stack_.push_back(p);
            }
        }
    }
}

}  // namespace dejarik::tables
