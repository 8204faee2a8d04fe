#include "policy.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include "outcomes.h"
#include "parallel.h"

namespace dejarik::tables {

namespace {

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

double terminalValue(const Position& pos, Objective objective) {
    const double win = pos.winProbability(Player::One);
    return objective == Objective::Win ? win : win - pos.winProbability(Player::Two);
}

// Each (target, weight) once, weights of a repeated target summed.
void mergeWeighted(std::vector<std::pair<std::uint32_t, double>>& items) {
    std::ranges::sort(items);
    std::size_t out = 0;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (out > 0 && items[out - 1].first == items[i].first)
            items[out - 1].second += items[i].second;
        else
            items[out++] = items[i];
    }
    items.resize(out);
}

// Where a live position stands among the sets as it is given (side A as player 1, as the
// solutions keep it): its set's slot and its key in that set's layout; nothing for a
// position no set holds or a finished game, a quiet draw too (which place() does not see:
// the minimax tables ignore the counter, these solutions do not).
std::optional<Placement> placedAsGiven(const Position& pos) {
    if (pos.isOver()) return std::nullopt;
    return place(pos, Orientation::AsGiven);
}

}  // namespace

std::optional<std::uint32_t> locateState(const Material& material, const Layout& layout,
                                         const Position& pos) {
    const std::optional<Placement> at = placedAsGiven(pos);
    if (!at || at->slot != material.slot()) return std::nullopt;
    return layout.index(at->key);
}

WeightedChoices choicesAt(const Position& pos, const PolicyChoices& policy) {
    WeightedChoices c;
    c.maximiser = pos.decider() == Player::One;
    if (c.maximiser)
        pos.generate(c.events);
    else
        policy(pos, c.events);
    if (c.events.empty()) throw std::logic_error("tables: no decision at " + pos.dfen());
    if (!c.maximiser) c.weight = 1.0 / c.events.size();
    return c;
}

struct PolicySolver::Impl {
    // Player 1's placements keep the best of a group (`fixed`: the best that ends the game,
    // NaN if none); the fixed player's are weighed (`fixed`: the weighted sum of those that
    // end the game).
    using Group = OutcomeGroup;
    using Attack = AttackOutcomes;

    Material material;
    const Rules& rules;
    const PolicyChoices& policy;
    Objective objective;
    Layout layout;
    int layers;  // counter values: 0 .. 2 x DrawTurns - 1
    // Per state: who decides, the decisions that end the game (player 1: the best, NaN if
    // none; the fixed player: their weighted sum), the weight of each of the fixed player's
    // choices (one for all: it picks them evenly), the moves' states and the attacks. The
    // sweeps stream the moves' states once per counter value, so they are kept as bare
    // indices: at the fixed player's states a state two choices reach stands twice rather
    // than once with a weight beside it (a third of the bytes).
    std::vector<std::uint8_t> maximiser;
    std::vector<double> fixed;
    std::vector<double> weight;
    std::vector<std::uint32_t> moveStart{0}, moveTarget;
    std::vector<std::uint32_t> attackStart{0}, attackOf;
    std::vector<Attack> attacks;
    std::vector<Group> groups;
    std::vector<std::uint32_t> children;
    std::vector<double> childWeight;
    double contraction = 0;
    const std::atomic<bool>* cancel;

    Impl(const Material& m, const Rules& r, const PolicyChoices& p, Objective o,
         const SmallerSets& smaller, const std::atomic<bool>* c)
        : material(m),
          rules(r),
          policy(p),
          objective(o),
          layout(m.a.size(), m.b.size(), 0),
          layers(2 * r.drawTurns()),
          cancel(c) {
        if (r.drawTurns() <= 0 || r.centreWin() > 0 || r.courtier())
            throw std::runtime_error(
                "tables: play against a fixed player is solved only with the quiet draw and "
                "without CentreWin");
        build(smaller);
    }

    std::uint32_t locateHere(const Position& pos) const {
        const auto i = locateState(material, layout, pos);
        if (!i)
            throw std::logic_error("tables: " + pos.dfen() + " left the set " + material.name());
        return *i;
    }

    double smallerValue(const Position& pos, const SmallerSets& smaller) const {
        if (const auto v = smaller(pos)) return *v;
        throw std::runtime_error("tables: a set that " + material.name() +
                                 " captures into is missing: " + pos.dfen());
    }

    std::uint32_t buildAttack(const Position& pos, Event attack, const SmallerSets& smaller) {
        const int pieces = pos.occupied().count();
        Position pending = pos;
        pending.apply(attack);
        EventList outcomes;
        pending.generate(outcomes);
        Attack a;
        a.firstGroup = static_cast<std::uint32_t>(groups.size());
        double stay = 0;
        for (const Event o : outcomes) {
            const double p = pending.probability(o);
            Position after = pending;
            after.apply(o);
            if (after.isOver()) {
                a.constant += p * terminalValue(after, objective);
                continue;
            }
            if (after.phase() == Phase::Decision && after.occupied().count() < pieces) {
                a.constant += p * smallerValue(after, smaller);
                continue;
            }
            Group g;
            g.probability = p;
            g.first = static_cast<std::uint32_t>(children.size());
            std::vector<std::pair<std::uint32_t, double>> next;
            if (after.phase() == Phase::Decision) {  // a blocked push that removes nothing
                next.emplace_back(locateHere(after), 1.0);
            } else {
                const auto [placements, w, isMax] = choicesAt(after, policy);
                g.maximiser = isMax;
                g.fixed = g.maximiser ? kNone : 0.0;
                for (const Event q : placements) {
                    Position placed = after;
                    placed.apply(q);
                    if (!placed.isOver())
                        next.emplace_back(locateHere(placed), w);
                    else if (g.maximiser)
                        g.fixed = std::isnan(g.fixed)
                                      ? terminalValue(placed, objective)
                                      : std::max(g.fixed, terminalValue(placed, objective));
                    else
                        g.fixed += w * terminalValue(placed, objective);
                }
            }
            mergeWeighted(next);
            for (const auto& [child, w] : next) {
                children.push_back(child);
                childWeight.push_back(w);
            }
            g.count = static_cast<std::uint32_t>(next.size());
            if (g.count == 0) {
                a.constant += p * g.fixed;
            } else {
                groups.push_back(g);
                stay += p;
            }
        }
        a.groups = static_cast<std::uint32_t>(groups.size()) - a.firstGroup;
        contraction = std::max(contraction, stay);
        attacks.push_back(a);
        return static_cast<std::uint32_t>(attacks.size() - 1);
    }

    void build(const SmallerSets& smaller) {
        const std::uint32_t n = layout.size();
        maximiser.resize(n);
        fixed.resize(n);
        weight.resize(n);
        for (std::uint32_t i = 0; i < n; ++i) {
            if (i % 1024 == 0) checkCancel();
            std::string error;
            const auto pos = Position::fromDfen(stateDfen(material, layout, i), rules, &error);
            if (!pos || pos->isOver())
                throw std::logic_error("tables: state " + std::to_string(i) + " of " +
                                       material.name() + " is not a live position " + error);
            const auto [events, w, isMax] = choicesAt(*pos, policy);
            maximiser[i] = isMax;
            fixed[i] = isMax ? kNone : 0.0;
            weight[i] = w;
            std::vector<std::uint32_t> moves;
            for (const Event e : events) {
                if (e.kind() == EventKind::Attack) {
                    attackOf.push_back(buildAttack(*pos, e, smaller));
                    continue;
                }
                Position next = *pos;
                next.apply(e);
                if (!next.isOver())
                    moves.push_back(locateHere(next));
                else if (isMax)
                    fixed[i] = std::isnan(fixed[i])
                                   ? terminalValue(next, objective)
                                   : std::max(fixed[i], terminalValue(next, objective));
                else
                    fixed[i] += w * terminalValue(next, objective);
            }
            // Player 1's best is the same over each state once; the fixed player's sum is not.
            std::ranges::sort(moves);
            if (isMax) moves.erase(std::unique(moves.begin(), moves.end()), moves.end());
            moveTarget.insert(moveTarget.end(), moves.begin(), moves.end());
            moveStart.push_back(static_cast<std::uint32_t>(moveTarget.size()));
            attackStart.push_back(static_cast<std::uint32_t>(attackOf.size()));
        }
    }

    double attackValue(const Attack& a, const std::vector<double>& v) const {
        double q = a.constant;
        for (std::uint32_t k = a.firstGroup; k < a.firstGroup + a.groups; ++k) {
            const Group& g = groups[k];
            double value = g.fixed;
            if (g.maximiser) {
                for (std::uint32_t j = g.first; j < g.first + g.count; ++j)
                    value = std::isnan(value) ? v[children[j]] : std::max(value, v[children[j]]);
            } else {
                for (std::uint32_t j = g.first; j < g.first + g.count; ++j)
                    value += childWeight[j] * v[children[j]];
            }
            q += g.probability * value;
        }
        return q;
    }

    // Calls task(begin, end) over [0, count) in chunks, on `threads` threads: each state of
    // a counter value (and each attack) depends only on values already fixed, so the chunks
    // are independent.
    template <typename Task>
    static void inChunks(std::size_t count, int threads, Task&& task) {
        if (threads <= 1) return task(std::size_t{0}, count);
        constexpr std::size_t kChunk = 1 << 14;
        forEachIndex(0, (count + kChunk - 1) / kChunk, threads,
                     [&](std::size_t c) { task(c * kChunk, std::min(count, (c + 1) * kChunk)); });
    }

    // One counter value: `out` from the values one counter on (`next`) and the attacks', for
    // the states [begin, end).
    void layer(const std::vector<double>& next, const std::vector<double>& attackValues,
               std::vector<double>& out, std::size_t begin, std::size_t end) const {
        for (std::size_t i = begin; i < end; ++i) {
            if (maximiser[i]) {
                double best =
                    std::isnan(fixed[i]) ? -std::numeric_limits<double>::infinity() : fixed[i];
                for (std::uint32_t j = moveStart[i]; j < moveStart[i + 1]; ++j)
                    best = std::max(best, next[moveTarget[j]]);
                for (std::uint32_t j = attackStart[i]; j < attackStart[i + 1]; ++j)
                    best = std::max(best, attackValues[attackOf[j]]);
                out[i] = best;
            } else {
                double sum = 0;
                for (std::uint32_t j = moveStart[i]; j < moveStart[i + 1]; ++j)
                    sum += next[moveTarget[j]];
                for (std::uint32_t j = attackStart[i]; j < attackStart[i + 1]; ++j)
                    sum += attackValues[attackOf[j]];
                out[i] = fixed[i] + weight[i] * sum;
            }
        }
    }

    // One sweep from the last counter down to 0 with the attacks valued from `values`
    // (counter 0); `next` ends with the new values at counter 0. With `counters`, each
    // counter's values are kept there.
    void sweep(const std::vector<double>& values, std::vector<double>& attackValues,
               std::vector<double>& next, std::vector<double>& out, std::vector<float>* counters,
               int threads) const {
        const std::uint32_t n = layout.size();
        inChunks(attacks.size(), threads, [&](std::size_t begin, std::size_t end) {
            for (std::size_t k = begin; k < end; ++k)
                attackValues[k] = attackValue(attacks[k], values);
        });
        std::fill(next.begin(), next.end(), 0.0);  // the counter at its limit: a draw
        for (int q = layers - 1; q >= 0; --q) {
            inChunks(n, threads, [&](std::size_t begin, std::size_t end) {
                layer(next, attackValues, out, begin, end);
            });
            next.swap(out);
            if (counters)
                std::copy(next.begin(), next.end(),
                          counters->begin() + static_cast<std::ptrdiff_t>(q) * n);
        }
    }

    void checkCancel() const {
        if (cancel && cancel->load()) throw Cancelled();
    }

    PolicyReport solve(std::vector<double>& values, double tolerance, int maxIterations,
                       std::vector<float>* counters, int threads) {
        const std::uint32_t n = layout.size();
        PolicyReport report;
        report.contraction = contraction;
        values.assign(n, 0.0);
        std::vector<double> next(n), out(n), attackValues(attacks.size());
        while (report.iterations < maxIterations) {
            checkCancel();
            sweep(values, attackValues, next, out, nullptr, threads);
            double residual = 0;
            for (std::uint32_t i = 0; i < n; ++i)
                residual = std::max(residual, std::abs(next[i] - values[i]));
            values.swap(next);
            ++report.iterations;
            report.residual = residual;
            report.error = contraction < 1 ? residual * contraction / (1 - contraction)
                                           : std::numeric_limits<double>::infinity();
            if (report.error < tolerance) {
                report.converged = true;
                break;
            }
            // Where an attack can stay in the set for ever (contraction 1) nothing certifies
            // the values: the sweeps stop once they settle, and the report says unconverged.
            if (contraction >= 1 && residual < tolerance) break;
        }
        if (counters) {
            // The values at counter 0 are the fixed point's to within the error; one more
            // sweep from them gives every counter's, each within the error too.
            counters->assign(static_cast<std::size_t>(layers) * n, 0.0f);
            sweep(values, attackValues, next, out, counters, threads);
        }
        return report;
    }
};

PolicySolver::PolicySolver(const Material& material, const Rules& rules,
                           const PolicyChoices& policy, Objective objective,
                           const SmallerSets& smaller, const std::atomic<bool>* cancel)
    : impl_(std::make_unique<Impl>(material, rules, policy, objective, smaller, cancel)) {}

PolicySolver::~PolicySolver() = default;

std::uint32_t PolicySolver::states() const {
    return impl_->layout.size();
}

PolicyReport PolicySolver::solve(std::vector<double>& values, double tolerance, int maxIterations,
                                 std::vector<float>* counters, int threads) {
    return impl_->solve(values, tolerance, maxIterations, counters, threads);
}

PolicySets::PolicySets(const Rules& rules, const std::vector<Creature>& one,
                       const std::vector<Creature>& two, const PolicyChoices& policy,
                       Objective objective, double tolerance, int threads, bool keepCounters,
                       const std::atomic<bool>* cancel, const PolicyScope& scope)
    : maxPieces_(scope.maxPieces) {
    if (one.size() > 8 || two.size() > 8)
        throw std::runtime_error("tables: an army of more than 8 creatures");
    if (maxPieces_ < 3 || maxPieces_ > kMaxPieces)
        throw std::runtime_error("tables: sets of 3 to " + std::to_string(kMaxPieces) +
                                 " creatures, not " + std::to_string(maxPieces_));
    // Every set first, fewer creatures first, so that progress knows the whole count.
    std::vector<std::size_t> sizeEnds;
    for (int pieces = 3; pieces <= maxPieces_; ++pieces) {
        for (unsigned m1 = 1; m1 < (1u << one.size()); ++m1)
            for (unsigned m2 = 1; m2 < (1u << two.size()); ++m2) {
                if (std::popcount(m1) + std::popcount(m2) != pieces) continue;
                std::vector<Creature> a, b;
                for (std::size_t i = 0; i < one.size(); ++i)
                    if (m1 >> i & 1) a.push_back(one[i]);
                for (std::size_t j = 0; j < two.size(); ++j)
                    if (m2 >> j & 1) b.push_back(two[j]);
                const Material m{Army::of(a), Army::of(b)};
                if (pieces == maxPieces_ && !scope.largest.empty() &&
                    std::ranges::find(scope.largest, m) == scope.largest.end())
                    continue;
                const int slot = m.slot();
                if (bySlot_[static_cast<std::size_t>(slot)] >= 0) continue;
                bySlot_[static_cast<std::size_t>(slot)] = static_cast<std::int32_t>(sets_.size());
                sets_.push_back({m, Layout(m.a.size(), m.b.size(), 0), {}, {}, {}, 0});
            }
        if (pieces == maxPieces_)
            for (const Material& m : scope.largest)
                if (m.pieces() != maxPieces_ || !atSlot(m.slot()))
                    throw std::runtime_error("tables: " + m.name() + " is not a set of " +
                                             std::to_string(maxPieces_) +
                                             " creatures of these armies");
        sizeEnds.push_back(sets_.size());
    }
    const SmallerSets smaller = [this](const Position& pos) { return value(pos); };
    std::mutex heard;
    std::size_t solved = 0, begin = 0;
    for (const std::size_t end : sizeEnds) {
        // Fewer sets of a size than threads (a set of five named alone): each set's sweeps
        // take the threads the sets leave idle.
        const int sweepThreads =
            std::max(1, threads / static_cast<int>(std::max<std::size_t>(1, end - begin)));
        forEachIndex(begin, end, threads, [&](std::size_t k) {
            Set& s = sets_[k];
            PolicySolver solver(s.material, rules, policy, objective, smaller, cancel);
            s.report = solver.solve(s.values, tolerance, 10000,
                                    keepCounters ? &s.counters : nullptr, sweepThreads);
            s.best = *std::ranges::max_element(s.values) + s.report.error;
            if (!scope.progress) return;
            const std::lock_guard lock(heard);
            scope.progress(++solved, sets_.size());
        });
        begin = end;
    }
}

const PolicySets::Set* PolicySets::find(const std::vector<Creature>& one,
                                        const std::vector<Creature>& two) const {
    if (one.size() > kMaxSide || two.size() > kMaxSide) return nullptr;
    return atSlot(Material{Army::of(one), Army::of(two)}.slot());
}

const PolicySets::Set* PolicySets::atSlot(int slot) const {
    const std::int32_t k = bySlot_[static_cast<std::size_t>(slot)];
    return k < 0 ? nullptr : &sets_[static_cast<std::size_t>(k)];
}

std::optional<double> PolicySets::value(const Position& pos) const {
    // The set's slot and the state at once (both sides present): no armies to build. No set
    // here has more creatures (nor are the orbits of more built for nothing).
    if (pos.occupied().count() > maxPieces_) return std::nullopt;
    const std::optional<Placement> at = placedAsGiven(pos);
    if (!at) return std::nullopt;
    const Set* s = atSlot(at->slot);
    if (!s || s->values.empty()) return std::nullopt;
    const std::optional<std::uint32_t> i = s->layout.index(at->key);
    if (!i) return std::nullopt;
    const std::uint32_t q = pos.quiet();
    if (q == 0) return s->values[*i];
    const std::size_t c = static_cast<std::size_t>(q) * s->layout.size() + *i;
    if (c >= s->counters.size()) return std::nullopt;
    return static_cast<double>(s->counters[c]);
}

std::optional<race::Bound> knownBound(const PolicySets& result, const PolicySets& win,
                                      std::span<const Creature> own,
                                      std::span<const Creature> other) {
    const std::vector<Creature> a(own.begin(), own.end()), b(other.begin(), other.end());
    const PolicySets::Set* r = result.find(a, b);
    const PolicySets::Set* w = win.find(a, b);
    if (!r || !w) return std::nullopt;
    return race::Bound{std::min(1.0, (r->best + 1) / 2), std::min(1.0, w->best)};
}

}  // namespace dejarik::tables
