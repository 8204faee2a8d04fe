// The evaluator (eval/eval.h): bounds, the symmetries of the game, the breakdown, material,
// the quiet counter, CentreWin holds, the pending attack, placements and wdl, on positions
// of seeded random games of every ruleset at every phase.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <new>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "attack.h"
#include "eval.h"
#include "movegen.h"
#include "random_positions.h"
#include "random_tunables.h"
#include "symmetry.h"
#include "tunables.h"

using namespace dejarik;

// Heap allocations made by this program, so that evaluate() can be shown to make none. The
// replacements pair malloc with free; GCC cannot see that they replace the library's pair.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
namespace {
std::atomic<long> gAllocations{0};
}  // namespace

void* operator new(std::size_t size) {
    ++gAllocations;
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
    return operator new(size);
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete[](void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
    std::free(p);
}

namespace {

struct Variant {
    const char* name;
    std::vector<const char*> options;  // Name=Value, the first sets the ruleset
    const char* start;                 // nullptr: the ruleset's startpos
};

// Every ruleset, some options on top, and a custom army with creatures twice (which the
// evaluator cannot read from its table).
const std::vector<Variant> kVariants = {
    {"kelly", {"Ruleset=kelly"}, nullptr},
    {"dalsian-classic", {"Ruleset=dalsian-classic"}, nullptr},
    {"dalsian", {"Ruleset=dalsian"}, nullptr},
    {"holochess", {"Ruleset=holochess"}, nullptr},
    {"kelly king", {"Ruleset=kelly", "KingOfTheCentre=true"}, nullptr},
    {"kelly death push", {"Ruleset=kelly", "BlockedPush=kill-on-push"}, nullptr},
    {"holochess pools", {"Ruleset=holochess", "Dice=pools"}, nullptr},
    {"kelly twins", {"Ruleset=kelly"}, "./............/.SSLL..llss. 1 2 0 1"},
};

const std::vector<Rules>& allRules() {
    static const std::vector<Rules> rules = [] {
        std::vector<Rules> out;
        for (const Variant& v : kVariants) {
            RuleOptions o;
            for (const char* assignment : v.options)
                REQUIRE_FALSE(o.setAssignment(assignment));
            out.emplace_back(o);
        }
        return out;
    }();
    return rules;
}

const Rules& preset(Ruleset r) {
    return allRules()[static_cast<std::size_t>(r)];
}

Position start(std::size_t variant) {
    const Rules& rules = allRules()[variant];
    if (!kVariants[variant].start) return Position::startpos(rules);
    return *Position::fromDfen(kVariants[variant].start, rules);
}

using testing::fromDfen;
using testing::randomTunables;

// Positions of games not over, every fourth of seeded random games, at every phase.
std::vector<Position> samples(std::size_t variant, int games, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<Position> out;
    for (int g = 0; g < games; ++g) {
        const auto walk = testing::randomWalk(start(variant), 300, rng,
                                              [](const Position& p) { return !p.isOver(); });
        for (std::size_t i = 0; i < walk.size(); i += 4)
            out.push_back(walk[i]);
    }
    return out;
}

const std::vector<std::vector<Position>>& allSamples() {
    static const std::vector<std::vector<Position>> all = [] {
        std::vector<std::vector<Position>> out;
        for (std::size_t v = 0; v < kVariants.size(); ++v)
            out.push_back(samples(v, 8, 100 + v));
        return out;
    }();
    return all;
}

std::string label(const Position& pos) {
    std::string s = pos.dfen();
    if (pos.phase() != Phase::Decision)
        s += pos.phase() == Phase::Outcome ? " outcome of " : " placement of ";
    if (pos.phase() != Phase::Decision) s += pos.pendingFrom().name();
    return s;
}

// The DFEN of a decision point with the piece on `c` taken off the board.
std::string without(const Position& pos, Cell c) {
    std::string dfen = pos.dfen();
    const int i = c.index();
    dfen[static_cast<std::size_t>(i == 0 ? 0 : i <= 12 ? i + 1 : i + 2)] = '.';
    return dfen;
}

double sign(Player p) {
    return p == Player::One ? 1.0 : -1.0;
}

bool anyAttack(const Position& pos) {
    for (const Player p : {Player::One, Player::Two})
        for (const Cell c : pos.pieces(p))
            if (movegen::attackTargets(c, pos.pieces(opponent(p)), pos.rules()).any()) return true;
    return false;
}

Rules withDrawTurns(Ruleset r, int drawTurns) {
    RuleOptions o;
    o.ruleset = r;
    o.drawTurns = drawTurns;
    return Rules(o);
}

std::string withQuiet(std::string dfen, int quiet) {
    // Fields: cells side actions quiet turn [holds].
    std::vector<std::string> f;
    std::size_t i = 0;
    while (i < dfen.size()) {
        const std::size_t j = std::min(dfen.find(' ', i), dfen.size());
        f.push_back(dfen.substr(i, j - i));
        i = j + 1;
    }
    f[3] = std::to_string(quiet);
    std::string s;
    for (std::size_t k = 0; k < f.size(); ++k)
        s += (k ? " " : "") + f[k];
    return s;
}

}  // namespace

TEST_CASE("eval: values are strictly inside (-1, 1) and deterministic at every phase") {
    std::array<int, 3> phases{};
    for (const auto& positions : allSamples()) {
        for (const Position& pos : positions) {
            ++phases[static_cast<std::size_t>(pos.phase())];
            const double v = eval::evaluate(pos);
            CAPTURE(label(pos));
            CHECK(std::isfinite(v));
            CHECK(v > -1.0);
            CHECK(v < 1.0);
            CHECK(std::abs(v) <= 0.999);
            CHECK(eval::evaluate(pos) == v);
        }
    }
    CHECK(phases[0] > 500);
    CHECK(phases[1] > 50);
    CHECK(phases[2] > 20);
}

TEST_CASE("eval: finished games get their exact result, inside the bounds") {
    const Rules& kelly = preset(Ruleset::Kelly);
    CHECK(eval::evaluate(fromDfen("L/............/............ 1 2 0 1", kelly)) ==
          doctest::Approx(0.999));
    CHECK(eval::evaluate(fromDfen("l/............/............ 1 2 0 1", kelly)) ==
          doctest::Approx(-0.999));
    // A showdown is decided by its odds: N against G wins every decided round.
    const Position showdown = fromDfen("N/g.........../............ 1 2 0 1", kelly);
    REQUIRE(showdown.result() == Result::Showdown);
    const double odds = showdown.winProbability(Player::One) - showdown.winProbability(Player::Two);
    CHECK(eval::evaluate(showdown) == doctest::Approx(std::clamp(odds, -0.999, 0.999)));
    CHECK(eval::evaluate(fromDfen("N/g.........../.........K.. 1 2 80 1", kelly)) == 0.0);
}

TEST_CASE("eval: invariant under all 24 board symmetries, negated under the player swap") {
    int checked = 0;
    for (const auto& positions : allSamples()) {
        for (std::size_t i = 0; i < positions.size(); i += 3) {
            const Position& pos = positions[i];
            const double v = eval::evaluate(pos);
            CAPTURE(label(pos));
            for (const Symmetry s : Symmetry::all()) {
                CAPTURE(s.index());
                CHECK(std::abs(eval::evaluate(transform(pos, {s, false})) - v) <= 1e-12);
                CHECK(std::abs(eval::evaluate(transform(pos, {s, true})) + v) <= 1e-12);
            }
            const Position swapped = transform(pos, {Symmetry(), true});
            const auto w = eval::wdl(pos, v);
            CHECK(eval::wdl(swapped, -v) == std::array<int, 3>{w[2], w[1], w[0]});
            ++checked;
        }
    }
    CHECK(checked > 300);
}

TEST_CASE("explain: the terms add up to the raw score that evaluate() squashes") {
    const std::set<std::string> expected = {"material",  "pending attack", "threats",
                                            "exposure",  "mobility",       "centre",
                                            "safe ring", "hold",           "draw clock"};
    for (const auto& positions : allSamples()) {
        for (std::size_t i = 0; i < positions.size(); i += 5) {
            const Position& pos = positions[i];
            CAPTURE(label(pos));
            const eval::Breakdown b = eval::explain(pos);
            std::set<std::string> names;
            double sum = 0;
            for (const eval::Term& t : b.terms) {
                names.insert(t.name);
                CHECK(std::isfinite(t.player1));
                CHECK(std::isfinite(t.player2));
                sum += t.player1 - t.player2;
            }
            CHECK(names == expected);
            CHECK(std::abs(sum - b.raw) <= 1e-12);
            CHECK(std::abs(std::tanh(b.raw) - b.value) <= 1e-12 + (std::abs(b.value) >= 0.999));
            CHECK(b.value == eval::evaluate(pos));
        }
    }
}

TEST_CASE("material: the table is the attrition model, which an extra piece never hurts") {
    for (std::size_t v = 0; v < kVariants.size(); ++v) {
        for (std::size_t i = 0; i < allSamples()[v].size(); i += 7) {
            const Position& pos = allSamples()[v][i];
            CAPTURE(label(pos));
            const double w = eval::attritionWin(pos);
            const eval::Breakdown b = eval::explain(pos);
            if (pos.phase() == Phase::Placement) continue;  // explained after the placement
            // The material term is the calibrated logit of the attrition win chance, credited
            // to the side it favours.
            const double wc = std::clamp(w, 5e-4, 1 - 5e-4);
            const eval::Term& material = b.terms[0];
            const double calibration =
                eval::kDefaultTunables.evalWeights(pos.rules().ruleset()).calibration;
            CHECK(material.player1 - material.player2 ==
                  doctest::Approx(calibration * 0.5 * std::log(wc / (1 - wc))).epsilon(1e-9));
            CHECK(std::min(material.player1, material.player2) == 0.0);
            if (pos.phase() != Phase::Decision) continue;
            for (const Cell c : pos.occupied()) {
                const Player owner = pos.at(c).owner();
                const auto fewer = Position::fromDfen(without(pos, c), pos.rules());
                if (!fewer) continue;  // no pieces left, or a won hold counter on turn
                const double w2 = eval::attritionWin(*fewer);
                CHECK((owner == Player::One ? w2 <= w + 1e-12 : w2 >= w - 1e-12));
            }
        }
    }
}

TEST_CASE("material: removing a piece in a quiet position lowers its owner's value") {
    // Quiet: no attack in place for either side, the quiet draw far away.
    int checked = 0;
    for (const auto& positions : allSamples()) {
        for (const Position& pos : positions) {
            if (pos.phase() != Phase::Decision || anyAttack(pos)) continue;
            if (pos.quiet() + 30 > 2 * static_cast<std::uint32_t>(pos.rules().drawTurns()))
                continue;
            const double v = eval::evaluate(pos);
            for (const Cell c : pos.occupied()) {
                const Player owner = pos.at(c).owner();
                const auto fewer = Position::fromDfen(without(pos, c), pos.rules());
                if (!fewer || fewer->isOver()) continue;
                CAPTURE(label(pos));
                CAPTURE(c.name());
                // Strictly, unless the value is already at its limit.
                const double v2 = sign(owner) * eval::evaluate(*fewer);
                const double before = sign(owner) * v;
                CHECK((v2 < before || (v2 == before && std::abs(before) >= 0.999)));
                ++checked;
            }
        }
    }
    CHECK(checked > 500);
}

TEST_CASE("draw clock: the value shrinks to a draw as the quiet counter nears it") {
    const Rules& kelly = preset(Ruleset::Kelly);
    // Player 1 two pieces up, nothing in contact.
    const std::string dfen = "./S..........M/.....l...G.. 1 2 0 30";
    const double v0 = eval::evaluate(fromDfen(dfen, kelly));
    REQUIRE(v0 > 0.3);
    double previous = v0;
    for (int quiet = 0; quiet < 80; ++quiet) {
        const double v = eval::evaluate(fromDfen(withQuiet(dfen, quiet), kelly));
        CAPTURE(quiet);
        CHECK(v >= 0);
        CHECK(v <= previous + 1e-15);
        previous = v;
    }
    // One action before the draw and no attack in place: a draw.
    CHECK(previous == 0);
    CHECK(eval::evaluate(fromDfen(withQuiet(dfen, 76), kelly)) < 0.5 * v0);
    // With the draw 30 actions or more away, the clock does not matter.
    CHECK(eval::evaluate(fromDfen(withQuiet(dfen, 50), kelly)) == v0);

    // The counter matters only through min(actions left before the draw, 100).
    const Rules long1000 = withDrawTurns(Ruleset::Kelly, 1000);
    const Rules short40 = withDrawTurns(Ruleset::Kelly, 40);
    const Rules off = withDrawTurns(Ruleset::Kelly, 0);
    const double far = eval::evaluate(fromDfen(withQuiet(dfen, 0), long1000));
    CHECK(eval::evaluate(fromDfen(withQuiet(dfen, 1900), long1000)) == far);
    CHECK(eval::evaluate(fromDfen(withQuiet(dfen, 5000), off)) == far);
    for (const int left : {1, 7, 20, 29}) {
        CAPTURE(left);
        CHECK(eval::evaluate(fromDfen(withQuiet(dfen, 2000 - left), long1000)) ==
              eval::evaluate(fromDfen(withQuiet(dfen, 80 - left), short40)));
    }
}

TEST_CASE("contempt: a draw's share of the value costs its side, the other side gains") {
    const Rules& kelly = preset(Ruleset::Kelly);
    const std::string dfen = "./S..........M/.....l...G.. 1 2 0 30";
    eval::Memo memo;
    const eval::Contempt one{Player::One, 0.4}, two{Player::Two, 0.4};
    // Far from the quiet draw and nobody hiding (no safe ring): no draw share, no change.
    const Position far = fromDfen(withQuiet(dfen, 10), kelly);
    CHECK(eval::evaluate(far, memo, one) == eval::evaluate(far, memo));
    int shrunk = 0;
    for (int quiet = 50; quiet < 80; ++quiet) {
        CAPTURE(quiet);
        const Position pos = fromDfen(withQuiet(dfen, quiet), kelly);
        const double v = eval::evaluate(pos, memo);
        const double forOne = eval::evaluate(pos, memo, one);
        const double forTwo = eval::evaluate(pos, memo, two);
        // Exactly mirrored, never past either bound, and never better for the contempt's side.
        CHECK(forOne - v == doctest::Approx(v - forTwo).epsilon(1e-12));
        CHECK(forOne <= v);
        CHECK(forOne > -1);
        CHECK(forTwo < 1);
        if (forOne < v - 0.01) ++shrunk;
    }
    CHECK(shrunk > 10);
    // The draw certain one action away: the value is the contempt itself.
    const Position drawn = fromDfen(withQuiet(dfen, 79), kelly);
    CHECK(eval::evaluate(drawn, memo) == 0);
    CHECK(eval::evaluate(drawn, memo, one) == doctest::Approx(-0.4));
    CHECK(eval::evaluate(drawn, memo, two) == doctest::Approx(0.4));

    // dalsian: a side hiding on the outer ring is a draw share even far from the clock.
    const Rules& dalsian = preset(Ruleset::Dalsian);
    const Position hidden = fromDfen("./S..........M/.....l...... 1 2 0 30", dalsian);
    CHECK(eval::evaluate(hidden, memo, one) < eval::evaluate(hidden, memo) - 0.01);
}

TEST_CASE("contempt: a finished game, its draw chance at the contempt") {
    const Rules& kelly = preset(Ruleset::Kelly);
    // Player 1 on turn with one action left, a quiet draw after it: any move ends the game.
    const Position pos = fromDfen("./S..........M/.....l...G.. 1 1 79 30", kelly);
    EventList list;
    pos.generate(list);
    Position over = pos;
    for (const Event e : list)
        if (e.kind() == EventKind::Move) {
            over.apply(e);
            break;
        }
    REQUIRE(over.isOver());
    REQUIRE(over.result() == Result::Draw);
    CHECK(eval::contemptOfOver(over, {Player::One, 0.3}) == doctest::Approx(-0.3));
    CHECK(eval::contemptOfOver(over, {Player::Two, 0.3}) == doctest::Approx(0.3));
    CHECK(eval::contemptOfOver(over, {Player::Two, 0}) == 0);
}

TEST_CASE("edge: a logit shift toward its side, fading with the quiet draw") {
    const Rules& kelly = preset(Ruleset::Kelly);
    const std::string dfen = "./S..........M/.....l...G.. 1 2 0 30";
    const eval::Tunables& t = eval::kDefaultTunables;
    const eval::Edge one{Player::One, 0.7}, two{Player::Two, 0.7};
    const Position far = fromDfen(withQuiet(dfen, 10), kelly);
    for (const double v : {-0.9, -0.3, 0.0, 0.2, 0.8}) {
        CAPTURE(v);
        // Far from the draw: exactly the logit moved, toward the side, mirrored for the other.
        CHECK(eval::withEdge(v, far, one, t) == doctest::Approx(std::tanh(std::atanh(v) + 0.7)));
        CHECK(eval::withEdge(v, far, two, t) ==
              doctest::Approx(-eval::withEdge(-v, far, one, t)).epsilon(1e-12));
        CHECK(eval::withEdge(v, far, {Player::One, 0}, t) == v);
        // Taken back by the opposite edge.
        CHECK(eval::withEdge(eval::withEdge(v, far, one, t), far, {Player::One, -0.7}, t) ==
              doctest::Approx(v).epsilon(1e-12));
    }
    // Certain values, and values so large that tanh would round them to 1, stay inside.
    CHECK(eval::withEdge(1, far, one, t) == 1);
    CHECK(eval::withEdge(-1, far, two, t) == -1);
    CHECK(eval::withEdge(1 - 1e-15, far, {Player::One, 3}, t) < 1);
    CHECK(eval::withEdge(-1 + 1e-15, far, {Player::Two, 3}, t) > -1);

    // Over the quiet draw's last quietHorizon actions the shift falls with the evaluator's
    // own fade, to nothing at the draw.
    const int horizon = t.quietHorizon;
    const int limit = 2 * kelly.drawTurns();
    double previous = 1;
    for (int quiet = limit - horizon - 2; quiet < limit; ++quiet) {
        CAPTURE(quiet);
        const Position pos = fromDfen(withQuiet(dfen, quiet), kelly);
        const int left = limit - quiet;
        CHECK(eval::actionsToDraw(pos) == left);
        const double fade = eval::quietFade(left, horizon);
        CHECK(fade <= previous);
        previous = fade;
        CHECK(eval::withEdge(0.2, pos, one, t) ==
              doctest::Approx(std::tanh(std::atanh(0.2) + 0.7 * fade)));
    }
    CHECK(previous < 0.1);
    CHECK(eval::quietFade(0, horizon) == 0);
    CHECK(eval::quietFade(horizon, horizon) == 1);
    CHECK(eval::quietFade(horizon / 2, horizon) == doctest::Approx(0.75));
    // Without the quiet draw it never fades.
    const Rules noDraw = withDrawTurns(Ruleset::Kelly, 0);  // the Position refers to it
    const Position off = fromDfen(withQuiet(dfen, 5000), noDraw);
    CHECK(eval::actionsToDraw(off) == eval::kQuietCap);
    CHECK(eval::withEdge(0.2, off, one, t) == doctest::Approx(std::tanh(std::atanh(0.2) + 0.7)));
}

TEST_CASE("hold: a player close to CentreWin with a piece on a is close to winning") {
    const Rules& classic = preset(Ruleset::DalsianClassic);
    const auto value = [&](const char* dfen) { return eval::evaluate(fromDfen(dfen, classic)); };
    // Player 1's N on a, to move: with hold 2 of 3 it wins at the end of this turn.
    const double noHold = value("N/..k........./...G....mt.. 1 2 0 9");
    const double hold2 = value("N/..k........./...G....mt.. 1 2 0 9 2/0");
    CHECK(hold2 >= 0.99);
    CHECK(hold2 > noHold + 0.3);
    // A count short of the win is worth holdStep a step (little in the fitted defaults: the
    // search sees the win coming), less when contested; checked with a step of 0.6.
    eval::Tunables stepped;
    REQUIRE_FALSE(stepped.set("holdStep", 0.6));
    REQUIRE_FALSE(stepped.set("holdContested", 0.4));
    const auto steppedValue = [&](const char* dfen) {
        return eval::evaluate(fromDfen(dfen, classic), stepped);
    };
    CHECK(steppedValue("N/..k........./...G....mt.. 1 2 0 9 1/0") >
          steppedValue("N/..k........./...G....mt.. 1 2 0 9"));
    CHECK(value("N/..k........./...G....mt.. 1 2 0 9 1/0") >= noHold);
    CHECK(value("N/..k........./...G....mt.. 1 2 0 9 1/0") < noHold + 0.05);
    // Off a but one move from it, the same.
    CHECK(value("./N.k........./...G....mt.. 1 1 0 9 2/0") >= 0.99);
    // Player 2 to move must break the count by attacking, which it can: contested, but the
    // forced attack and the threat are still worth something.
    const double contested = value("N/..k........./...G....mt.. 2 2 0 10 2/0");
    const double contestedNoHold = value("N/..k........./...G....mt.. 2 2 0 10");
    CHECK(contested < 0.99);
    CHECK(contested >= contestedNoHold);
    CHECK(steppedValue("N/..k........./...G....mt.. 2 2 0 10 2/0") >
          steppedValue("N/..k........./...G....mt.. 2 2 0 10") + 0.05);
    // Far from a, the counter is worth nothing (it will be reset at the end of the turn).
    CHECK(value("./..k........./...H....mt.N 1 2 0 9 2/0") ==
          value("./..k........./...H....mt.N 1 2 0 9"));
    // Player 2, mirrored.
    CHECK(value("n/..K........./...g....MT.. 2 2 0 9 0/2") <= -0.99);
    // Without CentreWin the counters mean nothing.
    const Rules& kelly = preset(Ruleset::Kelly);
    CHECK(eval::evaluate(fromDfen("N/..k........./...G....mt.. 1 2 0 9 2/0", kelly)) ==
          eval::evaluate(fromDfen("N/..k........./...G....mt.. 1 2 0 9", kelly)));
}

TEST_CASE("pending attack: valued by its outcomes") {
    const Rules& kelly = preset(Ruleset::Kelly);
    // L attacks G (kill 97%): as good as the likely kill; T attacks N (counter-kill 100%).
    const Position strong = fromDfen("./Lg........../.......N.t.. 1 2 0 5", kelly, "b1xb2");
    const Position weak = fromDfen("./Tn........../.......L.g.. 1 2 0 5", kelly, "b1xb2");
    REQUIRE(strong.phase() == Phase::Outcome);
    REQUIRE(weak.phase() == Phase::Outcome);
    for (const Position* pos : {&strong, &weak}) {
        EventList outcomes;
        pos->generate(outcomes);
        double expected = 0;
        for (const Event o : outcomes) {
            Position child = *pos;
            child.apply(o);
            expected += pos->probability(o) * eval::evaluate(child);
        }
        CAPTURE(label(*pos));
        CHECK(std::abs(eval::evaluate(*pos) - expected) < 0.15);
    }
    CHECK(eval::evaluate(strong) > 0.3);
    CHECK(eval::evaluate(weak) < -0.3);
}

TEST_CASE("placement: the decider's best placement") {
    int checked = 0;
    for (const auto& positions : allSamples()) {
        for (const Position& pos : positions) {
            if (pos.phase() != Phase::Placement) continue;
            EventList list;
            pos.generate(list);
            double best = pos.decider() == Player::One ? -2 : 2;
            for (const Event e : list) {
                Position child = pos;
                child.apply(e);
                const double v = eval::evaluate(child);
                best = pos.decider() == Player::One ? std::max(best, v) : std::min(best, v);
            }
            CHECK(eval::evaluate(pos) == best);
            ++checked;
        }
    }
    CHECK(checked > 20);
}

TEST_CASE("wdl: W - L is the reported value, the shares add up, exact draws follow the position") {
    std::mt19937 rng(5);
    using eval::Certainty;
    for (const auto& positions : allSamples()) {
        for (std::size_t i = 0; i < positions.size(); i += 9) {
            const Position& pos = positions[i];
            for (const double value : {eval::evaluate(pos), 0.0, 1.0, -1.0, 0.4995, -0.0005,
                                       std::uniform_real_distribution<double>(-1, 1)(rng)}) {
                CAPTURE(label(pos));
                CAPTURE(value);
                const eval::Reported r = eval::reported(value, pos.rules().ruleset());
                for (const Certainty c : {Certainty::Estimate, Certainty::Exact}) {
                    const auto w = eval::wdl(pos, value, eval::kDefaultTunables, c);
                    CHECK(w[0] >= 0);
                    CHECK(w[1] >= 0);
                    CHECK(w[2] >= 0);
                    CHECK(w[0] + w[1] + w[2] == 1000);
                    // Courtier reports its own way, its value as it is.
                    const double ev =
                        c == Certainty::Exact || pos.rules().courtier() ? value : r.value;
                    CHECK(w[0] - w[2] == std::lround(1000 * ev));
                    if (c == Certainty::Estimate && !pos.rules().courtier())
                        CHECK(std::abs(w[1] - 1000 * r.draw) <= 2);  // rounding and W - L parity
                }
            }
        }
    }
    const Rules& kelly = preset(Ruleset::Kelly);
    const std::string dfen = "./S..........M/.....l...G.. 1 2 0 30";
    const auto exact = [](const Position& pos, double v) {
        return eval::wdl(pos, v, eval::kDefaultTunables, eval::Certainty::Exact);
    };
    const auto far = exact(fromDfen(dfen, kelly), 0.2);
    const auto near = exact(fromDfen(withQuiet(dfen, 75), kelly), 0.2);
    CHECK(near[1] > far[1]);
    CHECK(exact(fromDfen(withQuiet(dfen, 80), kelly), 0.0) == std::array<int, 3>{0, 1000, 0});
    // Dalsian: the side behind can hide on the safe outer ring.
    const Rules& dalsian = preset(Ruleset::Dalsian);
    const auto hidden = exact(fromDfen("./............/.S..M...l... 1 2 0 5", dalsian), 0.3);
    const auto open = exact(fromDfen("./.S..M...l.../............ 1 2 0 5", dalsian), 0.3);
    CHECK(hidden[1] > open[1]);
}

TEST_CASE("reported value: odd, monotone, ends fixed, draws within the room; identity knots") {
    for (const Ruleset ruleset : kRulesets) {
        CAPTURE(rulesetName(ruleset));
        double last = -2;
        for (int i = -1000; i <= 1000; ++i) {
            const double v = i / 1000.0;
            const eval::Reported r = eval::reported(v, ruleset);
            CHECK(r.value >= last);
            last = r.value;
            CHECK(eval::reported(-v, ruleset).value == -r.value);
            CHECK(eval::reported(-v, ruleset).draw == r.draw);
            CHECK(r.draw >= 0);
            CHECK(r.draw <= 1 - std::abs(r.value) + 1e-12);
        }
        CHECK(eval::reported(0, ruleset).value == 0);
        CHECK(eval::reported(1, ruleset).value == 1);
        CHECK(eval::reported(1, ruleset).draw == 0);
    }
    // Knots on the diagonal and no draws report the searched value itself.
    eval::Tunables identity;
    for (const auto& [name, knot] :
         {std::pair{"kellyReport25", 0.25}, std::pair{"kellyReport50", 0.5},
          std::pair{"kellyReport75", 0.75}})
        REQUIRE_FALSE(identity.set(name, knot));
    for (const char* name : {"kellyDraw0", "kellyDraw25", "kellyDraw50", "kellyDraw75"})
        REQUIRE_FALSE(identity.set(name, 0.0));
    for (const double v : {-0.93, -0.5, -0.1, 0.0, 0.3, 0.62, 0.8})
        CHECK(eval::reported(v, Ruleset::Kelly, identity).value == doctest::Approx(v));
    // The kelly default: a small lead between sound players mostly ends in the quiet draw.
    CHECK(eval::reported(0.1, Ruleset::Kelly).draw > 0.5);
    CHECK(eval::reported(0.1, Ruleset::Kelly).value < 0.1);
}

TEST_CASE("eval: no heap allocation") {
    for (const auto& positions : allSamples())
        (void)eval::evaluate(positions.front());  // build the attrition tables first
    const long before = gAllocations.load();
    double sum = 0;
    for (const auto& positions : allSamples())
        for (const Position& pos : positions)
            sum += eval::evaluate(pos);
    CHECK(gAllocations.load() == before);
    CHECK(std::isfinite(sum));
}

TEST_CASE("memo: evaluate(pos, memo) is evaluate(pos), custom armies included") {
    eval::Memo memo;
    const Rules kelly;
    std::vector<Position> positions;
    for (const auto& variant : allSamples())
        positions.insert(positions.end(), variant.begin(), variant.end());
    // The melee has a Ghhhk on each side: the custom-army path the memo serves.
    std::mt19937_64 rng(5);
    const auto melee = testing::randomWalk(fromDfen("S/Hk...mN....l/tG.........g 1 2 0 1", kelly),
                                           200, rng, [](const Position& p) { return !p.isOver(); });
    positions.insert(positions.end(), melee.begin(), melee.end());
    REQUIRE(melee.size() > 20);
    // Twice over, so that the second pass reads what the first remembered.
    for (int pass = 0; pass < 2; ++pass)
        for (const Position& pos : positions)
            CHECK(eval::evaluate(pos, memo) == eval::evaluate(pos));
}

TEST_CASE("attack gain: blocked pushes count as kills where BlockedPush says so") {
    // Kill, push, counter-push, counter-kill.
    const std::array<double, 4> odds = {0.4, 0.3, 0.2, 0.1};
    const eval::AttackStakes stakes{2.0, 3.0, 0.5};
    const eval::Boxed both{true, true};
    // Nobody boxed in, or pushes never kill: kill and counter-kill at stake, pushes displace.
    for (const BlockedPush policy : {BlockedPush::Stay, BlockedPush::Kill, BlockedPush::KillOnPush})
        CHECK(eval::attackGain(odds, stakes, policy, {}) ==
              doctest::Approx(0.4 * 2 - 0.1 * 3 + 0.5 * (0.3 - 0.2)));
    CHECK(eval::attackGain(odds, stakes, BlockedPush::Stay, both) ==
          doctest::Approx(0.4 * 2 - 0.1 * 3 + 0.5 * (0.3 - 0.2)));
    // kill-on-push: the boxed-in defender's push kills it; a counter-push never kills.
    CHECK(eval::attackGain(odds, stakes, BlockedPush::KillOnPush, both) ==
          doctest::Approx(0.7 * 2 - 0.1 * 3 - 0.5 * 0.2));
    // kill: both.
    CHECK(eval::attackGain(odds, stakes, BlockedPush::Kill, both) ==
          doctest::Approx(0.7 * 2 - 0.3 * 3));
    CHECK(eval::attackGain(odds, stakes, BlockedPush::Kill, {false, true}) ==
          doctest::Approx(0.4 * 2 - 0.3 * 3 + 0.5 * 0.3));
    // Without a displacement stake, the expected change of material alone.
    CHECK(eval::attackGain(odds, {2.0, 3.0}, BlockedPush::Kill, {true, false}) ==
          doctest::Approx(0.7 * 2 - 0.1 * 3));
}

TEST_CASE("decisive share: the attacker's part of the pieces an attack removes") {
    // Kill, push, counter-push, counter-kill.
    const std::array<double, 4> odds = {0.4, 0.3, 0.2, 0.1};
    const eval::Boxed both{true, true};
    CHECK(eval::decisiveShare(odds, BlockedPush::Stay, both) == doctest::Approx(0.4 / 0.5));
    CHECK(eval::decisiveShare(odds, BlockedPush::KillOnPush, both) == doctest::Approx(0.7 / 0.8));
    CHECK(eval::decisiveShare(odds, BlockedPush::Kill, both) == doctest::Approx(0.7 / 1.0));
    CHECK(eval::decisiveShare(odds, BlockedPush::Kill, {false, true}) ==
          doctest::Approx(0.4 / 0.7));
    // An attack that can remove nothing is even.
    CHECK(eval::decisiveShare({0, 0.5, 0.5, 0}, BlockedPush::Stay, {}) == 0.5);
    // Holochess: a roll of 6 kills and a roll of 1 counter-kills whatever the creatures, so
    // only a boxed-in piece tips the share.
    const Rules& holochess = preset(Ruleset::Holochess);
    const int n = holochess.creatureCount();
    for (int a = 0; a < n; ++a)
        for (int d = 0; d < n; ++d) {
            const auto& p =
                holochess.combat(static_cast<Creature>(a), static_cast<Creature>(d)).probability;
            CHECK(eval::decisiveShare(p, holochess.blockedPush(), {}) == doctest::Approx(0.5));
            CHECK(eval::decisiveShare(p, holochess.blockedPush(), {true, false}) >= 0.5);
            CHECK(eval::decisiveShare(p, holochess.blockedPush(), {false, true}) <= 0.5);
        }
}

namespace {

// The sample positions, and some with the rarer terms: holds near a win, a piece on `a`
// under KingOfTheCentre, the quiet draw near.
std::vector<Position> weightProbes() {
    std::vector<Position> out;
    for (const auto& positions : allSamples())
        for (std::size_t i = 0; i < positions.size(); i += 2)
            out.push_back(positions[i]);
    const Rules& classic = preset(Ruleset::DalsianClassic);
    for (const char* dfen :
         {"N/..k........./...G....mt.. 1 2 0 9 2/0", "N/..k........./...G....mt.. 2 2 0 10 2/0",
          "N/..k........./...G....mt.. 2 2 0 10 1/0"})
        out.push_back(fromDfen(dfen, classic));
    out.push_back(fromDfen("./S..........M/.....l...G.. 1 2 70 30", preset(Ruleset::Kelly)));
    // Two pieces each, of every pair of creatures: some can hardly kill each other.
    for (const char* ours : {"GG", "HH", "KK", "LL", "MM", "NN", "SS", "TT"})
        for (const char* theirs : {"gg", "hh", "kk", "ll", "mm", "nn", "ss", "tt"})
            out.push_back(
                fromDfen(std::string("./") + ours + "........../......" + theirs + ".... 1 2 0 1",
                         preset(Ruleset::Kelly)));
    return out;
}

}  // namespace

TEST_CASE("tunables: the defaults are evaluate()'s, and every weight is read") {
    const std::vector<Position> probes = weightProbes();
    eval::Memo memo(eval::kDefaultTunables);
    for (const Position& pos : probes) {
        CHECK(eval::evaluate(pos, eval::kDefaultTunables) == eval::evaluate(pos));
        CHECK(eval::evaluate(pos, memo) == eval::evaluate(pos));
    }
    // Each weight moved to either end of its range changes some value or wdl, from the
    // defaults or from every weight a quarter into its range (a weight may be muted by
    // another's default: holdContested scales holdStep, 0 in the defaults, and a sure hold
    // win leaves no room for holdWinRest at dalsian-classic's calibration).
    eval::Tunables quarter;
    for (const eval::TunableSpec& spec : eval::tunableSpecs()) {
        const double v = spec.min + (spec.max - spec.min) / 4;
        spec.set(quarter, spec.integral() ? std::round(v) : v);
    }
    const auto moves = [&](const eval::Tunables& base, const eval::Tunables& t) {
        for (const Position& pos : probes) {
            const double v = eval::evaluate(pos, base);
            const auto exact = eval::Certainty::Exact;
            if (eval::evaluate(pos, t) != v || eval::wdl(pos, v, t) != eval::wdl(pos, v, base) ||
                eval::wdl(pos, v, t, exact) != eval::wdl(pos, v, base, exact))
                return true;
        }
        return false;
    };
    for (const eval::TunableSpec& spec : eval::tunableSpecs()) {
        CAPTURE(spec.name);
        bool changed = false;
        for (const eval::Tunables* base :
             std::array{&eval::kDefaultTunables, &std::as_const(quarter)})
            for (const double end : {spec.min, spec.max}) {
                eval::Tunables t = *base;
                spec.set(t, end);
                changed = changed || (spec.get(*base) != end && moves(*base, t));
            }
        CHECK(changed);
    }
}

TEST_CASE("tunables: holochess and dalsian-classic read their own evaluation weights") {
    const std::vector<Position> probes = weightProbes();
    const auto changes = [&](const char* name, Ruleset ruleset) {
        const eval::TunableSpec* spec = eval::findTunable(name);
        REQUIRE(spec != nullptr);
        eval::Tunables t;
        spec->set(t, spec->defaultValue() - spec->min > spec->max - spec->defaultValue()
                         ? spec->min
                         : spec->max);
        int changed = 0;
        for (const Position& pos : probes)
            if (pos.rules().ruleset() == ruleset)
                changed += eval::evaluate(pos, t) != eval::evaluate(pos);
        return changed;
    };
    for (const char* base : {"calibration", "exposure", "secondAttack", "slopeFloor"}) {
        CAPTURE(base);
        const std::string holochess = eval::evalWeightName(base, Ruleset::Holochess);
        const std::string classic = eval::evalWeightName(base, Ruleset::DalsianClassic);
        CHECK(eval::evalWeightName(base, Ruleset::Kelly) == base);
        CHECK(eval::evalWeightName(base, Ruleset::Dalsian) == base);
        CHECK(changes(base, Ruleset::Kelly) > 0);
        CHECK(changes(base, Ruleset::Dalsian) > 0);
        CHECK(changes(base, Ruleset::Holochess) == 0);
        CHECK(changes(base, Ruleset::DalsianClassic) == 0);
        CHECK(changes(holochess.c_str(), Ruleset::Holochess) > 0);
        CHECK(changes(holochess.c_str(), Ruleset::Kelly) == 0);
        CHECK(changes(classic.c_str(), Ruleset::DalsianClassic) > 0);
        CHECK(changes(classic.c_str(), Ruleset::Holochess) == 0);
    }
    CHECK(eval::evalWeightName("calibration", Ruleset::Holochess) == "holochessCalibration");
    CHECK(eval::evalWeightName("mobilityCap", Ruleset::DalsianClassic) == "classicMobilityCap");
    // Every name of kEvalWeightNames is a weight, under every ruleset's prefix.
    for (const std::string_view base : eval::kEvalWeightNames)
        for (const Ruleset r : {Ruleset::Kelly, Ruleset::Holochess, Ruleset::DalsianClassic}) {
            CAPTURE(base);
            CHECK(eval::findTunable(eval::evalWeightName(base, r)) != nullptr);
        }
}

TEST_CASE("memo: evaluate(pos, memo) is evaluate(pos, memo's weights), for any weights") {
    std::mt19937_64 rng(11);
    const std::vector<Position> probes = weightProbes();
    eval::Memo memo;
    for (int round = 0; round < 4; ++round) {
        const eval::Tunables t = randomTunables(rng);
        memo.setTunables(t);
        CHECK(memo.tunables() == t);
        for (int pass = 0; pass < 2; ++pass)
            for (std::size_t i = round; i < probes.size(); i += 3)
                CHECK(eval::evaluate(probes[i], memo) == eval::evaluate(probes[i], t));
    }
}

TEST_CASE("explain: its value is evaluate()'s, to the bit, for any weights") {
    // Random positions of every variant and phase, each under its own random weight set
    // (and the defaults); explain() and evaluate() must compute the same way, not only
    // when the calibration is a power of two.
    std::mt19937_64 rng(17);
    const std::vector<Position> probes = weightProbes();
    int checked = 0, sets = 0;
    for (std::size_t i = 0; i < probes.size(); i += 2) {
        const eval::Tunables t = i % 10 == 0 ? eval::kDefaultTunables : randomTunables(rng);
        sets += !(t == eval::kDefaultTunables);
        const Position& pos = probes[i];
        CAPTURE(label(pos));
        const eval::Breakdown b = eval::explain(pos, t);
        CHECK(b.value == eval::evaluate(pos, t));
        double sum = 0;
        for (const eval::Term& term : b.terms)
            sum += term.player1 - term.player2;
        CHECK(sum == b.raw);
        ++checked;
    }
    CHECK(checked > 700);
    CHECK(sets > 500);
}

// RULES §16: the evaluator reads ratings, never letters. A set with the Kelly ratings under
// other letters (and in another order) evaluates every position as the built-in kelly does,
// whether the army is standard (the built-in table) or custom (solved from the ratings).
TEST_CASE("eval: a creature set is judged by its ratings, not its letters") {
    std::string error;
    // Kelly's S M G H T N K L as Q R V W X Y Z P, listed in another order.
    const auto set = CreatureSet::parse(
        "start VWQY RPXZ\nP 8 2 2 Molator\nQ 6 6 2 Savrip\nR 6 5 3 Monnok\nV 4 3 2 Ghhhk\n"
        "W 4 4 1 Houjix\nX 2 7 3 Strider\nY 3 8 1 Ng'ok\nZ 7 3 2 K'lor'slug\n",
        "renamed", &error);
    REQUIRE_MESSAGE(set, error);
    RuleOptions o;
    o.creatureFile = std::make_shared<const CreatureSet>(*set);
    const Rules renamed(o);
    const Rules kelly = Rules::preset(Ruleset::Kelly);
    CHECK(renamed.startDfen() == "./............/.VWQY..rpxz. 1 2 0 1");
    // The same board in the renamed set's letters, cell by cell.
    const auto renamedDfen = [&](std::string dfen) {
        constexpr std::string_view kRenamed = "QRVWXYZP";  // of S M G H T N K L
        for (std::size_t i = 0; i < dfen.find(' '); ++i)
            if (const auto p = kelly.pieceOf(dfen[i])) {
                const auto c = renamed.pieceOf(kRenamed[static_cast<std::size_t>(p->creature())]);
                dfen[i] = renamed.letter(Piece(p->owner(), c->creature()));
            }
        return dfen;
    };
    for (const char* dfen :
         {"./............/.GHSN..mltk. 1 2 0 1", "S/Hk...mN....l/tG.........g 1 2 0 1",
          "L/n.........../...S........ 1 2 0 1", "./SmKl......../tNhS....s... 2 1 5 9"}) {
        CAPTURE(dfen);
        const auto a = Position::fromDfen(dfen, kelly, &error);
        REQUIRE_MESSAGE(a, error);
        const auto b = Position::fromDfen(renamedDfen(dfen), renamed, &error);
        REQUIRE_MESSAGE(b, error);
        CHECK(eval::evaluate(*b) == doctest::Approx(eval::evaluate(*a)).epsilon(1e-9));
        CHECK(eval::attritionWin(*b) == doctest::Approx(eval::attritionWin(*a)).epsilon(1e-12));
    }
}
