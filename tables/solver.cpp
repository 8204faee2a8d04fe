#include "solver.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "outcomes.h"
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

}  // namespace

struct SetSolver::Impl {
    // The placer takes the best of a group's states; `fixed` is the best placement that
    // ends the game (CentreWin), NaN if none.
    using Group = OutcomeGroup;

    struct Attack : AttackOutcomes {
        std::uint32_t node = 0;
    };

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
    std::vector<std::uint32_t> distances;  // of the last apply()
    std::vector<std::int32_t> exitAttack;  // per state: the attack that is its exit, or -1
    double contraction = 0;                // the most probability of an attack's staying in the set
    // accelerate()'s work arrays.
    std::vector<std::int32_t> reference;
    std::vector<std::uint8_t> inUse;
    std::vector<std::uint32_t> active, termStart, position;
    std::vector<double> constants, x;
    struct Term {
        double probability;
        std::uint32_t child;
    };
    std::vector<Term> terms;

    Impl(const Material& m, const Rules& r, const SmallerSets& smaller)
        : material(m), rules(r), layout(m.a.size(), m.b.size(), r.centreWin()) {
        build(smaller);
        retrograde = std::make_unique<AttackFreeSolver>(*graph);
        exits.resize(layout.size());
        sources.resize(layout.size());
        distances.resize(layout.size());
        exitAttack.resize(layout.size());
        for (const Attack& a : attacks) {
            double stay = 0;
            for (std::uint32_t g = a.firstGroup; g < a.firstGroup + a.groups; ++g)
                stay += groups[g].probability;
            contraction = std::max(contraction, stay);
        }
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
        std::fill(exitAttack.begin(), exitAttack.end(), -1);
        for (std::uint32_t k = 0; k < attacks.size(); ++k) {
            const Attack& a = attacks[k];
            const double q = attackValue(a, in);
            const double current = exits[a.node];
            if (std::isnan(current) || (graph->maximiser(a.node) ? q > current : q < current)) {
                exits[a.node] = q;
                exitAttack[a.node] = static_cast<std::int32_t>(k);
            }
        }
        retrograde->solve(exits, out, sources, distances);
        double residual = 0;
        for (std::size_t i = 0; i < out.size(); ++i)
            residual = std::max(residual, std::abs(out[i] - in[i]));
        return residual;
    }

    // A jump towards the fixed point: the last apply() says which exit every state's value
    // is (an attack, a finished game, or 0); with those choices and the placements that are
    // best under `v` frozen, T is affine in the attacks' values, and its fixed point is
    // found by sweeps over the attacks in use only, far cheaper than applications of T.
    // `v` gets the states' values at that point; false (and `v` untouched) if the sweeps do
    // not settle. Whatever comes of it, only T's residual certifies the result.
    bool accelerate(std::span<double> v) {
        const std::uint32_t n = layout.size();
        reference.assign(n, -1);
        inUse.assign(attacks.size(), 0);
        for (std::uint32_t i = 0; i < n; ++i) {
            const std::uint32_t src = sources[i];
            if (src == AttackFreeSolver::kNoSource || exitAttack[src] < 0) continue;
            reference[i] = exitAttack[src];
            inUse[static_cast<std::size_t>(exitAttack[src])] = 1;
        }
        // The attacks in use with their frozen outcome choices: a child state, or the group's
        // fixed value (kFixed).
        constexpr std::uint32_t kFixed = 0xFFFFFFFF;
        active.clear();
        terms.clear();
        termStart.assign(1, 0);
        constants.clear();
        for (std::uint32_t k = 0; k < attacks.size(); ++k) {
            if (!inUse[k]) continue;
            const Attack& a = attacks[k];
            double constant = a.constant;
            for (std::uint32_t g = a.firstGroup; g < a.firstGroup + a.groups; ++g) {
                const Group& grp = groups[g];
                double best = grp.fixed;
                std::uint32_t chosen = kFixed;
                for (std::uint32_t j = 0; j < grp.count; ++j) {
                    const std::uint32_t c = children[grp.first + j];
                    if (std::isnan(best) || (grp.maximiser ? v[c] > best : v[c] < best))
                        best = v[c], chosen = c;
                }
                if (chosen == kFixed)
                    constant += grp.probability * grp.fixed;
                else
                    terms.push_back({grp.probability, chosen});
            }
            active.push_back(k);
            constants.push_back(constant);
            termStart.push_back(static_cast<std::uint32_t>(terms.size()));
        }
        position.assign(attacks.size(), 0);
        for (std::uint32_t j = 0; j < active.size(); ++j)
            position[active[j]] = j;
        x.assign(active.size(), 0.0);
        for (std::uint32_t j = 0; j < active.size(); ++j)
            x[j] = attackValue(attacks[active[j]], v);
        const auto valueOf = [&](std::uint32_t c) {
            return reference[c] < 0 ? v[c] : x[position[static_cast<std::size_t>(reference[c])]];
        };
        constexpr int kSweeps = 5000;
        bool settled = false;
        for (int sweep = 0; sweep < kSweeps && !settled; ++sweep) {
            double change = 0;
            for (std::uint32_t j = 0; j < active.size(); ++j) {
                double q = constants[j];
                for (std::uint32_t t = termStart[j]; t < termStart[j + 1]; ++t)
                    q += terms[t].probability * valueOf(terms[t].child);
                change = std::max(change, std::abs(q - x[j]));
                x[j] = q;
            }
            settled = change < 1e-15;
        }
        if (!settled) return false;
        for (std::uint32_t i = 0; i < n; ++i)
            if (reference[i] >= 0) v[i] = x[position[static_cast<std::size_t>(reference[i])]];
        return true;
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

std::span<const std::uint32_t> SetSolver::distances() const {
    return impl_->distances;
}

double SetSolver::contraction() const {
    return impl_->contraction;
}

SolveReport SetSolver::solve(std::vector<double>& values, double tolerance, int maxIterations) {
    SolveReport report;
    report.contraction = contraction();
    // The jumps assume one fixed point, which holds when T contracts: every attack leaves
    // the set (a kill, a counter-kill) with some probability.
    const bool jumps = report.contraction < 1 - 1e-9;
    values.assign(states(), 0.0);
    std::vector<double> next(states());
    for (;;) {
        const double step = apply(values, next);
        ++report.iterations;
        if (step < tolerance) {
            // `values` itself is certified: max |T(values) - values| = step.
            report.residual = step;
            break;
        }
        values.swap(next);
        if (report.iterations >= maxIterations) {
            report.residual = apply(values, next);
            ++report.iterations;
            break;
        }
        if (jumps && impl_->accelerate(values)) ++report.jumps;
    }
    report.converged = report.residual < tolerance;
    return report;
}

}  // namespace dejarik::tables
