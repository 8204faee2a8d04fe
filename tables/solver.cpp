#include "solver.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "retrograde.h"

namespace dejarik::tables {

namespace {

constexpr double kNoExit = std::numeric_limits<double>::quiet_NaN();

double terminalValue(const Position& pos) {
    return pos.winProbability(Player::One) - pos.winProbability(Player::Two);
}

// The better of a and b for the maximiser or the minimiser; NaN is "nothing yet".
double better(bool maximiser, double a, double b) {
    if (std::isnan(a)) return b;
    if (std::isnan(b)) return a;
    return maximiser ? std::max(a, b) : std::min(a, b);
}

// One chance outcome of an attack that stays in the set: its states after the
// placement (or the single state after a blocked push that removes nothing), chosen by
// the placer; `fixed` is the best placement that ends the game (CentreWin), NaN if none.
struct Group {
    double probability = 0;
    double fixed = kNoExit;
    std::uint32_t first = 0;
    std::uint32_t count = 0;
    bool maximiser = true;
};

struct Attack {
    std::uint32_t node = 0;
    double constant = 0;  // the outcomes that leave the set, probability-weighted
    std::uint32_t firstGroup = 0;
    std::uint32_t groups = 0;
};

}  // namespace

struct SetSolver::Impl {
    Material material;
    const Rules& rules;
    Layout layout;
    std::unique_ptr<GameGraph> graph;
    std::vector<double> terminal;  // per node: the best move that ends the game, NaN if none
    std::vector<Attack> attacks;   // in node order
    std::vector<std::uint32_t> attackStart;  // per node, its first attack
    std::vector<Group> groups;
    std::vector<std::uint32_t> children;
    std::unique_ptr<AttackFreeSolver> retrograde;
    std::vector<double> exits;
    std::vector<std::uint32_t> sources;

    Impl(const Material& m, const Rules& r, const SmallerSets& smaller)
        : material(m), rules(r), layout(m.a.size(), m.b.size(), r.centreWin()) {
        build(smaller);
        retrograde = std::make_unique<AttackFreeSolver>(*graph);
        exits.resize(layout.size());
        sources.resize(layout.size());
    }

    // The state of a position that must be in this set, in this orientation.
    std::uint32_t locateHere(const Position& pos) const {
        const auto p = place(pos);
        if (!p || p->slot != material.slot() || p->swapped)
            throw std::logic_error("tables: " + pos.dfen() + " left the set " + material.name());
        const auto i = layout.index(p->key);
        if (!i) throw std::logic_error("tables: " + pos.dfen() + " has no state in the layout");
        return *i;
    }

    double smallerValue(const Position& pos, const SmallerSets& smaller) const {
        if (const auto v = smaller(pos)) return *v;
        const auto m = materialOf(pos);
        throw std::runtime_error("tables: the set " + (m ? m->name() : pos.dfen()) + " that " +
                                 material.name() + " captures into is missing");
    }

    void buildAttack(std::uint32_t node, const Position& pos, Event attack,
                     const SmallerSets& smaller) {
        const int pieces = pos.occupied().count();
        Position pending = pos;
        pending.apply(attack);
        EventList outcomes;
        pending.generate(outcomes);
        Attack a;
        a.node = node;
        a.firstGroup = static_cast<std::uint32_t>(groups.size());
        for (const Event o : outcomes) {
            const double p = pending.probability(o);
            Position after = pending;
            after.apply(o);
            if (after.isOver()) {
                a.constant += p * terminalValue(after);
            } else if (after.phase() == Phase::Decision) {
                if (after.occupied().count() < pieces) {
                    a.constant += p * smallerValue(after, smaller);
                } else {  // a blocked push that removes nothing
                    Group g;
                    g.probability = p;
                    g.first = static_cast<std::uint32_t>(children.size());
                    g.count = 1;
                    children.push_back(locateHere(after));
                    groups.push_back(g);
                }
            } else {
                Group g;
                g.probability = p;
                g.maximiser = after.decider() == Player::One;
                g.first = static_cast<std::uint32_t>(children.size());
                EventList placements;
                after.generate(placements);
                for (const Event q : placements) {
                    Position placed = after;
                    placed.apply(q);
                    if (placed.isOver())
                        g.fixed = better(g.maximiser, g.fixed, terminalValue(placed));
                    else
                        children.push_back(locateHere(placed));
                }
                std::sort(children.begin() + g.first, children.end());
                children.erase(std::unique(children.begin() + g.first, children.end()),
                               children.end());
                g.count = static_cast<std::uint32_t>(children.size()) - g.first;
                if (g.count == 0)
                    a.constant += p * g.fixed;
                else
                    groups.push_back(g);
            }
        }
        a.groups = static_cast<std::uint32_t>(groups.size()) - a.firstGroup;
        attacks.push_back(a);
    }

    void build(const SmallerSets& smaller) {
        const std::uint32_t n = layout.size();
        std::vector<std::uint32_t> start{0}, targets;
        std::vector<std::uint8_t> maximiser(n);
        terminal.assign(n, kNoExit);
        start.reserve(n + 1);
        EventList events;
        for (std::uint32_t i = 0; i < n; ++i) {
            const std::string dfen = stateDfen(material, layout, i);
            std::string error;
            const auto pos = Position::fromDfen(dfen, rules, &error);
            if (!pos || pos->isOver())
                throw std::logic_error("tables: state " + std::to_string(i) + " of " +
                                       material.name() + " is not a live position: " + dfen + " " +
                                       error);
            maximiser[i] = pos->sideToMove() == Player::One;
            attackStart.push_back(static_cast<std::uint32_t>(attacks.size()));
            pos->generate(events);
            const std::size_t first = targets.size();
            for (const Event e : events) {
                if (e.kind() == EventKind::Attack) {
                    buildAttack(i, *pos, e, smaller);
                    continue;
                }
                Position next = *pos;
                next.apply(e);
                if (next.isOver())
                    terminal[i] = better(maximiser[i] != 0, terminal[i], terminalValue(next));
                else
                    targets.push_back(locateHere(next));
            }
            std::sort(targets.begin() + static_cast<std::ptrdiff_t>(first), targets.end());
            targets.erase(
                std::unique(targets.begin() + static_cast<std::ptrdiff_t>(first), targets.end()),
                targets.end());
            start.push_back(static_cast<std::uint32_t>(targets.size()));
        }
        attackStart.push_back(static_cast<std::uint32_t>(attacks.size()));
        graph =
            std::make_unique<GameGraph>(std::move(start), std::move(targets), std::move(maximiser));
    }

    double attackValue(const Attack& a, std::span<const double> v) const {
        double q = a.constant;
        for (std::uint32_t k = a.firstGroup; k < a.firstGroup + a.groups; ++k) {
            const Group& g = groups[k];
            double best = g.fixed;
            const std::uint32_t* c = children.data() + g.first;
            if (g.maximiser) {
                for (std::uint32_t j = 0; j < g.count; ++j)
                    best = std::isnan(best) ? v[c[j]] : std::max(best, v[c[j]]);
            } else {
                for (std::uint32_t j = 0; j < g.count; ++j)
                    best = std::isnan(best) ? v[c[j]] : std::min(best, v[c[j]]);
            }
            q += g.probability * best;
        }
        return q;
    }

    double apply(std::span<const double> in, std::span<double> out) {
        std::copy(terminal.begin(), terminal.end(), exits.begin());
        for (const Attack& a : attacks)
            exits[a.node] = better(graph->maximiser(a.node), exits[a.node], attackValue(a, in));
        retrograde->solve(exits, out, sources);
        double residual = 0;
        for (std::size_t i = 0; i < out.size(); ++i)
            residual = std::max(residual, std::abs(out[i] - in[i]));
        return residual;
    }

    void completeDerived(std::span<double> v) const {
        for (std::uint32_t i = layout.storedSize(); i < layout.size(); ++i) {
            const bool max = graph->maximiser(i);
            double best = terminal[i];
            for (std::uint32_t a = attackStart[i]; a < attackStart[i + 1]; ++a)
                best = better(max, best, attackValue(attacks[a], v));
            for (const std::uint32_t s : graph->successors(i)) {
                if (!layout.isStored(s))
                    throw std::logic_error("tables: a derived state leads to another");
                best = better(max, best, v[s]);
            }
            v[i] = best;
        }
    }
};

SetSolver::SetSolver(const Material& material, const Rules& rules, const SmallerSets& smaller)
    : impl_(std::make_unique<Impl>(material, rules, smaller)) {}

SetSolver::~SetSolver() = default;

const Layout& SetSolver::layout() const {
    return impl_->layout;
}

std::uint32_t SetSolver::states() const {
    return impl_->layout.size();
}

std::uint64_t SetSolver::edges() const {
    return impl_->graph->edges();
}

std::uint64_t SetSolver::attacks() const {
    return impl_->attacks.size();
}

double SetSolver::apply(std::span<const double> in, std::span<double> out) {
    return impl_->apply(in, out);
}

void SetSolver::completeDerived(std::span<double> values) {
    impl_->completeDerived(values);
}

SolveReport SetSolver::solve(std::vector<double>& values, double tolerance, int maxIterations) {
    SolveReport report;
    values.assign(states(), 0.0);
    std::vector<double> next(states());
    for (;;) {
        const double step = apply(values, next);
        ++report.iterations;
        values.swap(next);
        if (step < tolerance || report.iterations >= maxIterations) break;
    }
    // The certificate: T applied once more to the values returned.
    report.residual = apply(values, next);
    ++report.iterations;
    report.converged = report.residual < tolerance;
    return report;
}

}  // namespace dejarik::tables
