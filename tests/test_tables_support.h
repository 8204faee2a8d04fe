// Shared by the endgame-table suites: temporary table directories, the rule mixes the
// tests cover, and a reference solver of a set written independently of tables/solver.cpp.
#pragma once

#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "generate.h"
#include "index.h"
#include "position.h"
#include "rules.h"
#include "tablebase.h"
#include "temp_dir.h"

namespace dejarik::testing {

inline Rules rulesOf(Ruleset ruleset, const std::vector<std::string>& options = {}) {
    RuleOptions o;
    o.ruleset = ruleset;
    for (const auto& a : options)
        REQUIRE_FALSE(o.setAssignment(a));
    return Rules(o);
}

inline tables::Material material(std::string_view text) {
    std::string error;
    const auto m = tables::parseMaterial(text, &error);
    REQUIRE_MESSAGE(m, error);
    return *m;
}

// Two option mixes of each ruleset, each with a few 2v1 sets (either orientation).
struct Mix {
    std::string name;
    Ruleset ruleset;
    std::vector<std::string> options;
    std::vector<std::string> sets;
};

inline const std::vector<Mix>& testMixes() {
    static const std::vector<Mix> mixes = {
        {"kelly", Ruleset::Kelly, {}, {"KL v s", "m v TN", "SG v h"}},
        {"kelly d20 king",
         Ruleset::Kelly,
         {"Dice=d20", "KingOfTheCentre=true"},
         {"KL v s", "h v SG"}},
        {"dalsian-classic", Ruleset::DalsianClassic, {}, {"KL v s", "SG v h", "m v TN"}},
        {"dalsian-classic cw2",
         Ruleset::DalsianClassic,
         {"CentreWin=2", "BlockedPush=kill-on-push"},
         {"KL v s", "h v SG"}},
        {"dalsian", Ruleset::Dalsian, {}, {"KL v s", "SG v h"}},
        {"dalsian open",
         Ruleset::Dalsian,
         {"SafeOuterOrbit=false", "BlockedPush=kill"},
         {"KL v s", "m v TN"}},
        {"holochess", Ruleset::Holochess, {}, {"KL v s", "SG v h", "m v TN"}},
        {"holochess pools",
         Ruleset::Holochess,
         {"Dice=pools", "CentreStraight=false"},
         {"TN v l", "KL v s"}},
    };
    return mixes;
}

// One table root for a test program, filled on demand and removed at exit.
class TableRoot {
  public:
    [[nodiscard]] const std::filesystem::path& path() const { return dir_.path(); }

    // The table base of `rules` with `sets` generated (and what their captures need).
    const tables::Tablebase& with(const Rules& rules, const std::vector<std::string>& sets) {
        auto& tb = bases_[rules.gameFingerprint()];
        if (!tb) tb = std::make_unique<tables::Tablebase>(dir_.path(), rules);
        std::vector<tables::Material> wanted;
        for (const auto& s : sets)
            wanted.push_back(material(s));
        tables::generate(*tb, wanted, {}, nullptr);
        return *tb;
    }

  private:
    TempDir dir_;
    std::map<std::uint64_t, std::unique_ptr<tables::Tablebase>> bases_;
};

inline TableRoot& sharedRoot() {
    static TableRoot root;
    return root;
}

inline const tables::Tablebase& tablesOf(const Mix& mix) {
    return sharedRoot().with(rulesOf(mix.ruleset, mix.options), mix.sets);
}

// A set's game written out directly from Position, for reference computations that share
// nothing with tables/solver.cpp but the state numbering (tested on its own).
class ReferenceGame {
  public:
    ReferenceGame(const tables::Material& m, const tables::Tablebase& tb)
        : layout_(m.a.size(), m.b.size(), tb.rules().centreWin()) {
        const Rules& rules = tb.rules();
        states_.resize(layout_.size());
        for (std::uint32_t i = 0; i < layout_.size(); ++i) {
            const auto pos = Position::fromDfen(tables::stateDfen(m, layout_, i), rules);
            REQUIRE(pos);
            State& s = states_[i];
            s.maximiser = pos->sideToMove() == Player::One;
            s.firstMove = static_cast<std::uint32_t>(moves_.size());
            EventList events;
            pos->generate(events);
            for (const Event e : events) {
                Position child = *pos;
                child.apply(e);
                if (e.kind() != EventKind::Attack) {
                    moves_.push_back(leaf(child, tb, m));
                    continue;
                }
                Attack a;
                EventList outcomes;
                child.generate(outcomes);
                for (const Event o : outcomes) {
                    Position after = child;
                    after.apply(o);
                    Outcome out;
                    out.probability = child.probability(o);
                    if (after.phase() == Phase::Placement) {
                        out.maximiser = after.decider() == Player::One;
                        EventList placements;
                        after.generate(placements);
                        for (const Event q : placements) {
                            Position placed = after;
                            placed.apply(q);
                            out.options.push_back(leaf(placed, tb, m));
                        }
                    } else {
                        out.options.push_back(leaf(after, tb, m));
                    }
                    a.outcomes.push_back(out);
                }
                s.attacks.push_back(a);
            }
            s.moves = static_cast<std::uint32_t>(moves_.size()) - s.firstMove;
        }
    }

    [[nodiscard]] std::uint32_t size() const { return layout_.size(); }

    // The game with the quiet draw after `quietLimit` actions without an attack and at most
    // `attacks` attacks (a further attack is worth 0), solved exactly by backward induction:
    // plain expectiminimax to full depth, memoised over (state, quiet counter, attacks
    // left). Returns the values at a quiet counter of 0, attacks increased until they no
    // longer change by more than 1e-9 (or `attacks` is reached).
    [[nodiscard]] std::vector<double> quietDrawValues(int quietLimit, int attacks) const {
        const std::uint32_t n = size();
        std::vector<double> previous(n, 0.0), next(n), row(n);
        for (int k = 0; k <= attacks; ++k) {
            // Attack values from the previous budget's values at quiet 0.
            std::vector<std::vector<double>> attackValue(n);
            for (std::uint32_t i = 0; i < n; ++i)
                for (const Attack& a : states_[i].attacks)
                    attackValue[i].push_back(k == 0 ? 0.0 : value(a, previous));
            std::vector<double> above(n, 0.0);  // quiet counter q + 1 (the draw at the limit)
            for (int q = quietLimit - 1; q >= 0; --q) {
                for (std::uint32_t i = 0; i < n; ++i) {
                    const State& s = states_[i];
                    double best = s.maximiser ? -2.0 : 2.0;
                    const auto take = [&](double v) {
                        best = s.maximiser ? std::max(best, v) : std::min(best, v);
                    };
                    for (std::uint32_t k2 = s.firstMove; k2 < s.firstMove + s.moves; ++k2) {
                        const Leaf& l = moves_[k2];
                        take(l.state >= 0 ? (q + 1 < quietLimit ? above[l.state] : 0.0) : l.value);
                    }
                    for (const double v : attackValue[i])
                        take(v);
                    row[i] = best;
                }
                above.swap(row);
            }
            next = above;
            double change = 0;
            for (std::uint32_t i = 0; i < n; ++i)
                change = std::max(change, std::abs(next[i] - previous[i]));
            previous.swap(next);
            if (k > 0 && change < 1e-9) break;
        }
        return previous;
    }

    // Plain value iteration over every state at once from V = start, without the quiet
    // draw: the method that cannot tell stalling from waiting.
    [[nodiscard]] std::vector<double> naiveValues(int iterations, double start = 0) const {
        std::vector<double> v(size(), start);
        for (int it = 0; it < iterations; ++it) {
            for (std::uint32_t i = 0; i < size(); ++i) {
                const State& s = states_[i];
                double best = s.maximiser ? -2.0 : 2.0;
                for (std::uint32_t k = s.firstMove; k < s.firstMove + s.moves; ++k) {
                    const Leaf& l = moves_[k];
                    const double x = l.state >= 0 ? v[l.state] : l.value;
                    best = s.maximiser ? std::max(best, x) : std::min(best, x);
                }
                for (const Attack& a : s.attacks) {
                    const double x = value(a, v);
                    best = s.maximiser ? std::max(best, x) : std::min(best, x);
                }
                v[i] = best;
            }
        }
        return v;
    }

  private:
    // A child: a state of this set, or a fixed value (finished game, smaller set).
    struct Leaf {
        int state = -1;
        double value = 0;
    };
    struct Outcome {
        double probability = 0;
        bool maximiser = true;  // who chooses among the options (placements)
        std::vector<Leaf> options;
    };
    struct Attack {
        std::vector<Outcome> outcomes;
    };
    struct State {
        bool maximiser = true;
        std::uint32_t firstMove = 0;  // moves and passes, in moves_
        std::uint32_t moves = 0;
        std::vector<Attack> attacks;
    };

    Leaf leaf(const Position& pos, const tables::Tablebase& tb, const tables::Material& m) const {
        if (pos.isOver())
            return {-1, pos.winProbability(Player::One) - pos.winProbability(Player::Two)};
        const auto p = tables::place(pos);
        REQUIRE(p);
        if (p->slot == m.slot() && !p->swapped) {
            const auto i = layout_.index(p->key);
            REQUIRE(i);
            return {static_cast<int>(*i), 0};
        }
        const auto v = tb.probe(pos);
        REQUIRE_MESSAGE(v, "a smaller set is missing: " << pos.dfen());
        return {-1, *v};
    }

    static double value(const Attack& a, const std::vector<double>& v) {
        double sum = 0;
        for (const Outcome& o : a.outcomes) {
            double best = o.maximiser ? -2.0 : 2.0;
            for (const Leaf& l : o.options) {
                const double x = l.state >= 0 ? v[l.state] : l.value;
                best = o.maximiser ? std::max(best, x) : std::min(best, x);
            }
            sum += o.probability * best;
        }
        return sum;
    }

    tables::Layout layout_;
    std::vector<State> states_;
    std::vector<Leaf> moves_;
};

// |V(pos) - best over its decisions of V(child)| at a decision point: the Bellman equation
// through the public probe, the chance and placement nodes below derived by the probe.
inline double bellmanGap(const tables::Tablebase& tb, const Position& pos) {
    const auto v = tb.probe(pos);
    REQUIRE(v);
    const bool maximiser = pos.decider() == Player::One;
    double best = maximiser ? -2 : 2;
    EventList events;
    pos.generate(events);
    for (const Event e : events) {
        Position child = pos;
        child.apply(e);
        const auto c = tb.probe(child);
        REQUIRE_MESSAGE(c, pos.dfen() << " then " << e.token());
        best = maximiser ? std::max(best, *c) : std::min(best, *c);
    }
    return std::abs(*v - best);
}

}  // namespace dejarik::testing
