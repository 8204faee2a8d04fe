// Exact values against a fixed player (tables/policy.h): against a reference that solves
// the real game over raw positions (no symmetries, no layout, the quiet counter and the
// draw as Position keeps them) by plain value iteration; through the board's symmetries;
// and, for the race bound, never above what race::bound allows any player.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "policy.h"
#include "race.h"
#include "symmetry.h"
#include "test_tables_support.h"

namespace dejarik::testing {

namespace {

using tables::Objective;

// The random mover: every legal decision equally likely.
void randomMover(const Position& pos, EventList& out) {
    pos.generate(out);
}

// A fixed player that is not uniform over the legal decisions: every attack listed twice,
// so it attacks twice as often as the random mover would (weights and repeats matter).
void attackTwice(const Position& pos, EventList& out) {
    pos.generate(out);
    const int n = out.size();
    for (int i = 0; i < n; ++i)
        if (out[i].kind() == EventKind::Attack) out.push(out[i]);
}

double terminal(const Position& pos, Objective objective) {
    const double win = pos.winProbability(Player::One);
    return objective == Objective::Win ? win : win - pos.winProbability(Player::Two);
}

// The game of one set against a fixed player over raw decision positions, keyed by their
// DFEN without the turn number: built by walking every position play reaches from the
// given ones, then solved by Gauss-Seidel sweeps until nothing moves. Positions with fewer
// pieces than the set's must be finished games (sets of three).
class RawGame {
  public:
    RawGame(const tables::PolicyChoices& policy, Objective objective)
        : policy_(policy), objective_(objective) {}

    int node(const Position& pos) {
        const std::string key = keyOf(pos);
        if (const auto it = index_.find(key); it != index_.end()) return it->second;
        const int id = static_cast<int>(nodes_.size());
        index_.emplace(key, id);
        nodes_.emplace_back();
        pending_.push_back(pos);
        return id;
    }

    void build() {
        while (!pending_.empty()) {
            const Position pos = pending_.back();
            pending_.pop_back();
            const int id = index_.at(keyOf(pos));
            Node n;
            n.maximiser = pos.decider() == Player::One;
            EventList events;
            choices(pos, n.maximiser, events);
            for (const Event e : events) {
                Position child = pos;
                child.apply(e);
                Option o;
                if (e.kind() != EventKind::Attack) {
                    o.outcomes.push_back({1.0, {true, {leaf(child)}}});
                } else {
                    EventList outcomes;
                    child.generate(outcomes);
                    for (const Event r : outcomes) {
                        Position after = child;
                        after.apply(r);
                        Choice c;
                        if (!after.isOver() && after.phase() == Phase::Placement) {
                            c.maximiser = after.decider() == Player::One;
                            EventList placements;
                            choices(after, c.maximiser, placements);
                            for (const Event q : placements) {
                                Position placed = after;
                                placed.apply(q);
                                c.leaves.push_back(leaf(placed));
                            }
                        } else {
                            c.leaves.push_back(leaf(after));
                        }
                        o.outcomes.push_back({child.probability(r), c});
                    }
                }
                n.options.push_back(o);
            }
            nodes_[static_cast<std::size_t>(id)] = std::move(n);
        }
    }

    void solve() {
        values_.assign(nodes_.size(), 0.0);
        for (int sweep = 0; sweep < 100000; ++sweep) {
            double change = 0;
            for (std::size_t i = 0; i < nodes_.size(); ++i) {
                const double v = nodeValue(nodes_[i]);
                change = std::max(change, std::abs(v - values_[i]));
                values_[i] = v;
            }
            if (change < 1e-14) return;
        }
        FAIL("the reference did not settle");
    }

    [[nodiscard]] double value(const Position& pos) const {
        return values_[static_cast<std::size_t>(index_.at(keyOf(pos)))];
    }
    [[nodiscard]] std::size_t size() const { return nodes_.size(); }

  private:
    struct Leaf {
        int node = -1;
        double value = 0;
    };
    struct Choice {
        bool maximiser = true;
        std::vector<Leaf> leaves;
    };
    struct Option {
        std::vector<std::pair<double, Choice>> outcomes;
    };
    struct Node {
        bool maximiser = true;
        std::vector<Option> options;
    };

    static std::string keyOf(const Position& pos) {
        const std::string dfen = pos.dfen();
        // cells side actions quiet turn [holds]: drop the turn, which no rule reads.
        std::vector<std::string> fields;
        std::size_t start = 0;
        for (std::size_t end; (end = dfen.find(' ', start)) != std::string::npos; start = end + 1)
            fields.push_back(dfen.substr(start, end - start));
        fields.push_back(dfen.substr(start));
        return fields[0] + ' ' + fields[1] + ' ' + fields[2] + ' ' + fields[3];
    }

    void choices(const Position& pos, bool maximiser, EventList& out) const {
        if (maximiser)
            pos.generate(out);
        else
            policy_(pos, out);
        if (out.size() == 0) throw std::logic_error("no decision at " + pos.dfen());
    }

    Leaf leaf(const Position& pos) {
        if (pos.isOver()) return {-1, terminal(pos, objective_)};
        if (pos.phase() != Phase::Decision) throw std::logic_error("a leaf mid-attack");
        return {node(pos), 0};
    }

    [[nodiscard]] double leafValue(const Leaf& l) const {
        return l.node >= 0 ? values_[static_cast<std::size_t>(l.node)] : l.value;
    }

    [[nodiscard]] double choiceValue(const Choice& c) const {
        double v = c.maximiser ? -1e9 : 0;
        for (const Leaf& l : c.leaves)
            v = c.maximiser ? std::max(v, leafValue(l))
                            : v + leafValue(l) / static_cast<double>(c.leaves.size());
        return v;
    }

    [[nodiscard]] double nodeValue(const Node& n) const {
        double v = n.maximiser ? -1e9 : 0;
        for (const Option& o : n.options) {
            double x = 0;
            for (const auto& [p, c] : o.outcomes)
                x += p * choiceValue(c);
            v = n.maximiser ? std::max(v, x) : v + x / static_cast<double>(n.options.size());
        }
        return v;
    }

    const tables::PolicyChoices& policy_;
    Objective objective_;
    std::unordered_map<std::string, int> index_;
    std::vector<Node> nodes_;
    std::vector<Position> pending_;
    std::vector<double> values_;
};

const tables::SmallerSets noSmallerSet = [](const Position&) -> std::optional<double> {
    FAIL("a set of three asked for a smaller set");
    return std::nullopt;
};

}  // namespace

TEST_SUITE("tables") {
    TEST_CASE("values against a fixed player agree with the raw game solved by value iteration") {
        struct Case {
            Ruleset ruleset;
            std::string set;
            bool uniform;
        };
        // The random mover in holochess (pushes kill nothing with three pieces, so attacks
        // come back into the set a third of the time) and a player that favours attacks in
        // kelly, each for both objectives.
        const std::vector<Case> cases = {{Ruleset::Holochess, "SG v m", true},
                                         {Ruleset::Kelly, "KL v s", false}};
        const tables::PolicyChoices uniform = randomMover, twice = attackTwice;
        for (const Case& c : cases)
            for (const Objective objective : {Objective::Result, Objective::Win}) {
                const Rules rules = rulesOf(c.ruleset, {"DrawTurns=1"});
                const tables::Material m = material(c.set);
                const tables::PolicyChoices& policy = c.uniform ? uniform : twice;
                tables::PolicySolver solver(m, rules, policy, objective, noSmallerSet);
                std::vector<double> values;
                std::vector<float> counters;
                const auto report = solver.solve(values, 1e-11, 10000, &counters);
                const std::string label =
                    c.set + (objective == Objective::Win ? " win" : " result");
                INFO(label);
                REQUIRE(report.converged);
                CHECK(report.contraction > 0);
                CHECK(report.contraction < 1);

                const tables::Layout layout(m.a.size(), m.b.size(), 0);
                RawGame raw(policy, objective);
                std::vector<Position> states;
                for (std::uint32_t i = 0; i < layout.size(); ++i) {
                    const auto pos = Position::fromDfen(tables::stateDfen(m, layout, i), rules);
                    REQUIRE(pos);
                    states.push_back(*pos);
                    raw.node(*pos);
                }
                // The same states one action on the quiet counter (DrawTurns 1: the last
                // action before the draw).
                std::vector<Position> late;
                for (std::uint32_t i = 0; i < layout.size(); ++i) {
                    std::string dfen = tables::stateDfen(m, layout, i);
                    dfen.replace(dfen.size() - 3, 3, "1 1");  // "<quiet> <turn>": quiet 0 -> 1
                    const auto pos = Position::fromDfen(dfen, rules);
                    REQUIRE(pos);
                    REQUIRE(pos->quiet() == 1);
                    late.push_back(*pos);
                    raw.node(*pos);
                }
                raw.build();
                raw.solve();
                CHECK(raw.size() > 4 * layout.size());  // every quiet counter, not just 0

                double worst = 0, worstLate = 0, spread = 0;
                std::mt19937_64 rng(7);
                for (std::uint32_t i = 0; i < layout.size(); ++i) {
                    worst = std::max(worst, std::abs(raw.value(states[i]) - values[i]));
                    worstLate =
                        std::max({worstLate, std::abs(raw.value(states[i]) - counters[i]),
                                  std::abs(raw.value(late[i]) - counters[layout.size() + i])});
                    spread = std::max(spread, std::abs(values[i] - values[0]));
                    // The same state seen through any symmetry is found again.
                    const Position seen = transform(
                        states[i], {Symmetry::fromIndex(static_cast<int>(rng() % 24)), false});
                    CHECK(tables::locateState(m, layout, seen) == i);
                }
                CHECK(worst < 1e-8);
                CHECK(worstLate < 1e-6);  // the counters are kept as floats
                CHECK(spread > 0.1);      // not a comparison of constants
            }
    }

    TEST_CASE("locateState answers only for decision positions of its own set") {
        const Rules rules = rulesOf(Ruleset::Holochess);
        const tables::Material m = material("SG v m");
        const tables::Layout layout(2, 1, 0);
        const auto pos = Position::fromDfen(tables::stateDfen(m, layout, 17), rules);
        REQUIRE(pos);
        CHECK(tables::locateState(m, layout, *pos) == 17u);
        CHECK_FALSE(tables::locateState(material("SN v m"), layout, *pos));
        CHECK_FALSE(tables::locateState(material("m v SG"), tables::Layout(1, 2, 0), *pos));
        const auto four = Position::fromDfen("./SG........mh/............ 1 2 0 1", rules);
        REQUIRE(four);
        CHECK_FALSE(tables::locateState(m, layout, *four));
        // The same board at the quiet draw: a finished game, though the minimax tables'
        // place() (which ignores the counter) would still find it.
        std::string dfen = tables::stateDfen(m, layout, 17);
        const auto quiet = dfen.rfind(" 0 1");
        REQUIRE(quiet != std::string::npos);
        dfen.replace(quiet, 4, " " + std::to_string(2 * rules.drawTurns()) + " 99");
        const auto drawn = Position::fromDfen(dfen, rules);
        REQUIRE(drawn);
        REQUIRE(drawn->isOver());
        CHECK(tables::place(*drawn, tables::Orientation::AsGiven));
        CHECK_FALSE(tables::locateState(m, layout, *drawn));
    }

    TEST_CASE("choicesAt gives player 1 every decision and the fixed player its own, weighed") {
        const Rules rules = rulesOf(Ruleset::Holochess);
        const auto mine = Position::fromDfen("./SG........mh/............ 1 2 0 1", rules);
        const auto theirs = Position::fromDfen("./SG........mh/............ 2 2 0 1", rules);
        REQUIRE(mine);
        REQUIRE(theirs);
        REQUIRE(mine->decider() == Player::One);
        REQUIRE(theirs->decider() == Player::Two);
        EventList legal;
        mine->generate(legal);
        const tables::WeightedChoices one = tables::choicesAt(*mine, attackTwice);
        CHECK(one.events.size() == legal.size());
        CHECK(one.weight == 1.0);
        CHECK(one.maximiser);
        EventList twice;
        attackTwice(*theirs, twice);
        theirs->generate(legal);
        REQUIRE(twice.size() > legal.size());  // its attacks listed twice
        const tables::WeightedChoices two = tables::choicesAt(*theirs, attackTwice);
        CHECK(two.events.size() == twice.size());
        CHECK(two.weight == doctest::Approx(1.0 / twice.size()));
        CHECK_FALSE(two.maximiser);
        CHECK_THROWS_AS((void)tables::choicesAt(*theirs, [](const Position&, EventList&) {}),
                        std::logic_error);
    }

    TEST_CASE("the solver refuses rules without the quiet draw or with CentreWin") {
        for (const auto& rules :
             {rulesOf(Ruleset::Holochess, {"DrawTurns=0"}), rulesOf(Ruleset::DalsianClassic)})
            CHECK_THROWS_AS(tables::PolicySolver(material("SG v m"), rules, randomMover,
                                                 Objective::Result, noSmallerSet),
                            std::runtime_error);
    }

    TEST_CASE("exact small endings never exceed the race bound and tighten it") {
        // Holochess against the random mover, S, G and N against m under a quiet draw of
        // two actions (quick under the sanitizers): the sets of three and four these armies
        // reach, each objective. A set's best value is what some play
        // reaches against that player, and the race bound holds for every player: above it
        // would be a fault of one or the other.
        const Rules rules = rulesOf(Ruleset::Holochess, {"DrawTurns=1"});
        const std::vector<Creature> own = {Creature(0), Creature(2), Creature(5)};
        const std::vector<Creature> other = {Creature(1)};
        const tables::PolicySets result(rules, own, other, randomMover, Objective::Result, 1e-9, 2);
        const tables::PolicySets win(rules, own, other, randomMover, Objective::Win, 1e-9, 2);
        REQUIRE(result.sets().size() == 4);  // SG, SN, GN against m; SGN against m
        std::vector<race::Bound> plainBounds;
        for (const auto& s : result.sets()) {
            std::vector<Creature> a, b;
            for (int i = 0; i < s.material.a.size(); ++i)
                a.push_back(s.material.a[i]);
            for (int i = 0; i < s.material.b.size(); ++i)
                b.push_back(s.material.b[i]);
            const auto* w = win.find(a, b);
            REQUIRE(w);
            const auto plain = race::bound(rules, a, b);
            REQUIRE(plain);
            INFO(s.material.name());
            CHECK(s.report.converged);
            CHECK((s.best + 1) / 2 <= plain->score + 1e-9);
            CHECK(w->best <= plain->win + 1e-9);
        }
        const auto* r = result.find(own, other);
        const auto* w = win.find(own, other);
        REQUIRE(r);
        REQUIRE(w);
        const auto plain = race::bound(rules, own, other);
        REQUIRE(plain);
        CHECK((r->best + 1) / 2 < plain->score - 0.01);

        // Through the hook the bound takes the exact value where it answers.
        const race::KnownArmies known = [&](std::span<const Creature> a,
                                            std::span<const Creature> b) {
            return tables::knownBound(result, win, a, b);
        };
        const auto exact =
            race::bound(rules, own, other, {}, race::Boxing::WhereArmiesAllow, nullptr, known);
        REQUIRE(exact);
        CHECK(exact->score == doctest::Approx((r->best + 1) / 2));
        CHECK(exact->win == doctest::Approx(w->best));
        // A value of a set is found again by position; a position of no set finds nothing.
        const auto pos = Position::fromDfen(tables::stateDfen(r->material, r->layout, 5), rules);
        REQUIRE(pos);
        REQUIRE(result.value(*pos));
        CHECK(*result.value(*pos) == r->values[5]);
        const auto none = Position::fromDfen("./SGNL.......m/............ 1 2 0 1", rules);
        REQUIRE(none);
        CHECK_FALSE(result.value(*none));
    }

    TEST_CASE("a set's sweeps on the threads its size leaves idle give the same values") {
        // S and G against M and H: SG v MH is the one set of four (50,720 states, four chunks
        // of a sweep), so with two threads its sweeps take both; the four sets of three run one
        // a thread. Every value and counter equal to the one-thread solution's, bit for bit.
        const Rules rules = rulesOf(Ruleset::Holochess, {"DrawTurns=1"});
        const std::vector<Creature> own = {Creature(0), Creature(2)};
        const std::vector<Creature> other = {Creature(1), Creature(3)};
        const tables::PolicySets one(rules, own, other, randomMover, Objective::Result, 1e-9, 1,
                                     true);
        const tables::PolicySets two(rules, own, other, randomMover, Objective::Result, 1e-9, 2,
                                     true);
        REQUIRE(one.sets().size() == 5);
        REQUIRE(two.sets().size() == 5);
        const auto* a = one.find(own, other);
        const auto* b = two.find(own, other);
        REQUIRE(a);
        REQUIRE(b);
        CHECK(a->layout.size() > 3 * (1u << 14));
        CHECK(a->report.converged);
        CHECK(a->report.iterations == b->report.iterations);
        CHECK(a->values == b->values);
        CHECK(a->counters == b->counters);
        CHECK(a->counters.size() == 2 * a->values.size());
        CHECK(*std::ranges::max_element(a->values) > *std::ranges::min_element(a->values));
    }

    TEST_CASE("a set of five against a fixed player stays below the race bound and tightens it") {
        // Holochess against the random mover, S, G and N against M and H under a quiet draw
        // of two actions: the one set of five (3 v 2) and those of three and four below it.
        const Rules rules = rulesOf(Ruleset::Holochess, {"DrawTurns=1"});
        const std::vector<Creature> own = {Creature(0), Creature(2), Creature(5)};
        const std::vector<Creature> other = {Creature(1), Creature(3)};
        std::vector<std::pair<std::size_t, std::size_t>> heard;
        tables::PolicyScope five{
            5, {}, [&](std::size_t done, std::size_t total) { heard.emplace_back(done, total); }};
        const tables::PolicySets result(rules, own, other, randomMover, Objective::Result, 1e-9, 2,
                                        false, nullptr, five);
        five.progress = nullptr;
        const tables::PolicySets win(rules, own, other, randomMover, Objective::Win, 1e-9, 2, false,
                                     nullptr, five);
        const tables::PolicySets four(rules, own, other, randomMover, Objective::Result, 1e-9, 2);
        // Of three: 2 v 1 (6), 1 v 2 (3); of four: SGN v M or H (2), SG, SN or GN v MH (3); of
        // five: SGN v MH.
        REQUIRE(result.sets().size() == 9 + 5 + 1);
        CHECK(four.sets().size() == 9 + 5);
        REQUIRE(heard.size() == result.sets().size());
        for (std::size_t k = 0; k < heard.size(); ++k)
            CHECK(heard[k] == std::pair(k + 1, result.sets().size()));
        for (std::size_t k = 0; k < four.sets().size(); ++k)
            CHECK(four.sets()[k].values == result.sets()[k].values);  // the same sets below five

        const auto* r = result.find(own, other);
        const auto* w = win.find(own, other);
        REQUIRE(r);
        REQUIRE(w);
        CHECK(r->report.converged);
        CHECK(w->report.converged);
        CHECK_FALSE(four.find(own, other));
        const auto known = [](const tables::PolicySets& x, const tables::PolicySets& y) {
            return [&x, &y](std::span<const Creature> a, std::span<const Creature> b) {
                return tables::knownBound(x, y, a, b);
            };
        };
        // The race with the smaller sets exact holds for every player, so for the best play
        // against this one too; with the set itself exact it says what that set says.
        const tables::PolicySets winFour(rules, own, other, randomMover, Objective::Win, 1e-9, 2);
        const auto below = race::bound(rules, own, other, {}, race::Boxing::WhereArmiesAllow,
                                       nullptr, known(four, winFour));
        const auto exact = race::bound(rules, own, other, {}, race::Boxing::WhereArmiesAllow,
                                       nullptr, known(result, win));
        REQUIRE(below);
        REQUIRE(exact);
        CHECK((r->best + 1) / 2 <= below->score + 1e-9);
        CHECK(w->best <= below->win + 1e-9);
        CHECK(exact->score == doctest::Approx((r->best + 1) / 2));
        CHECK(exact->score < below->score - 0.01);

        // A position of five finds its value; sets of five named solve only those.
        const auto pos = Position::fromDfen(tables::stateDfen(r->material, r->layout, 7), rules);
        REQUIRE(pos);
        REQUIRE(result.value(*pos));
        CHECK(*result.value(*pos) == r->values[7]);
        CHECK_FALSE(four.value(*pos));
        const tables::Material sgnMh = r->material;
        const tables::PolicySets named(rules, own, other, randomMover, Objective::Result, 1e-9, 2,
                                       false, nullptr, {5, {sgnMh}, {}});
        REQUIRE(named.find(own, other));
        CHECK(named.find(own, other)->values == r->values);
        const tables::Material notOfThese{
            tables::Army::of({Creature(0), Creature(2)}),
            tables::Army::of({Creature(1), Creature(3), Creature(4)})};
        CHECK_THROWS_AS(tables::PolicySets(rules, own, other, randomMover, Objective::Result, 1e-9,
                                           2, false, nullptr, {5, {notOfThese}, {}}),
                        std::runtime_error);
        CHECK_THROWS_AS(tables::PolicySets(rules, own, other, randomMover, Objective::Result, 1e-9,
                                           2, false, nullptr, {6, {}, {}}),
                        std::runtime_error);
    }
}

}  // namespace dejarik::testing
