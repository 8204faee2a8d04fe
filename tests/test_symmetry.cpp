// The board symmetries and the player swap (src/symmetry.h): group laws, invariance of the
// geometry and of the attack rules, exact round trips of positions at every phase, and
// perft counts that do not change under any transform.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "movegen.h"
#include "perft.h"
#include "random_positions.h"
#include "sanitized.h"
#include "symmetry.h"

using namespace dejarik;

namespace {

const Rules& rulesOf(Ruleset r) {
    static const std::array<Rules, 4> all = {
        Rules::preset(Ruleset::Kelly), Rules::preset(Ruleset::DalsianClassic),
        Rules::preset(Ruleset::Dalsian), Rules::preset(Ruleset::Holochess)};
    return all[static_cast<std::size_t>(r)];
}

using testing::fromDfen;

std::set<std::uint16_t> eventCodes(const Position& pos, Symmetry s = Symmetry()) {
    EventList list;
    pos.generate(list);
    std::set<std::uint16_t> codes;
    for (const Event e : list)
        codes.insert(transform(e, s).code());
    return codes;
}

// Positions of seeded random games of one ruleset, at every phase, finished games included.
std::vector<Position> samples(const Rules& rules, std::uint64_t seed, int games) {
    std::mt19937_64 rng(seed);
    std::vector<Position> out;
    for (int g = 0; g < games; ++g) {
        auto walk = testing::randomWalk(Position::startpos(rules), 400, rng,
                                        [](const Position&) { return true; });
        for (std::size_t i = 0; i < walk.size(); i += 3)
            out.push_back(walk[i]);
        // The end of the game, too: the walk stops before it.
        if (!walk.empty()) {
            Position last = walk.back();
            EventList list;
            last.generate(list);
            if (!list.empty()) {
                last.apply(list[0]);
                out.push_back(last);
            }
        }
    }
    return out;
}

const std::array<Symmetry, Symmetry::kCount> kAll = Symmetry::all();

// The whole game state as the public interface shows it, the defender's cell of a pending
// counter-push included (Position::operator== leaves that out).
bool sameState(const Position& a, const Position& b) {
    for (int i = 0; i < Cell::kCount; ++i)
        if (a.at(Cell(i)) != b.at(Cell(i))) return false;
    const bool pending = a.phase() != Phase::Decision;
    return &a.rules() == &b.rules() && a.key() == b.key() && a.sideToMove() == b.sideToMove() &&
           a.actionsLeft() == b.actionsLeft() && a.quiet() == b.quiet() && a.turn() == b.turn() &&
           a.hold(Player::One) == b.hold(Player::One) &&
           a.hold(Player::Two) == b.hold(Player::Two) && a.phase() == b.phase() &&
           a.decider() == b.decider() && a.result() == b.result() &&
           (!pending || (a.pendingFrom() == b.pendingFrom() && a.pendingTo() == b.pendingTo()));
}

}  // namespace

TEST_CASE("symmetry: 24 distinct permutations of the cells that fix the centre and orbits") {
    std::set<std::vector<int>> images;
    for (const Symmetry s : kAll) {
        std::vector<int> image;
        std::set<int> seen;
        for (int i = 0; i < Cell::kCount; ++i) {
            const Cell c = transform(Cell(i), s);
            CHECK(c.orbit() == Cell(i).orbit());
            image.push_back(c.index());
            seen.insert(c.index());
        }
        CHECK(seen.size() == static_cast<std::size_t>(Cell::kCount));
        CHECK(transform(Cell::centre(), s) == Cell::centre());
        CHECK(Symmetry::fromIndex(s.index()) == s);
        images.insert(image);
    }
    CHECK(images.size() == static_cast<std::size_t>(Symmetry::kCount));
    // The brief's reflection: ray i -> 13 - i; rotations shift rays.
    for (int r = 1; r <= 12; ++r) {
        CHECK(transform(Cell::inner(r), Symmetry::mirror()) == Cell::inner(13 - r));
        CHECK(transform(Cell::outer(r), Symmetry(1, false)) == Cell::outer(r % 12 + 1));
    }
    CHECK(Symmetry().isIdentity());
}

TEST_CASE("symmetry: composition, inverses and closure") {
    for (const Symmetry g : kAll) {
        CHECK(g.after(g.inverse()).isIdentity());
        CHECK(g.inverse().after(g).isIdentity());
        for (const Symmetry h : kAll) {
            const Symmetry gh = g.after(h);
            CHECK(std::find(kAll.begin(), kAll.end(), gh) != kAll.end());
            for (int i = 0; i < Cell::kCount; ++i)
                CHECK(transform(Cell(i), gh) == transform(transform(Cell(i), h), g));
        }
    }
    // Rotations commute with each other, a rotation and a reflection do not.
    CHECK(Symmetry(3, false).after(Symmetry(0, true)) !=
          Symmetry(0, true).after(Symmetry(3, false)));
    const Transform swap{Symmetry(), true};
    CHECK(swap.after(swap) == Transform{});
    const Transform t{Symmetry(5, true), true};
    CHECK(t.after(t.inverse()) == Transform{});
}

TEST_CASE("symmetry: adjacency, opposite rays, moves and attack restrictions are preserved") {
    std::vector<Rules> variants;
    for (const char* safe : {"false", "true"})
        for (const char* king : {"false", "true"})
            for (const char* straight : {"false", "true"}) {
                RuleOptions o;
                REQUIRE_FALSE(o.set("SafeOuterOrbit", safe));
                REQUIRE_FALSE(o.set("KingOfTheCentre", king));
                REQUIRE_FALSE(o.set("CentreStraight", straight));
                variants.emplace_back(o);
            }
    std::mt19937 rng(11);
    for (const Symmetry s : kAll) {
        for (int i = 0; i < Cell::kCount; ++i) {
            const Cell c(i);
            CHECK(board::adjacent(transform(c, s)) == transform(board::adjacent(c), s));
            if (c.orbit() == Orbit::Inner)
                CHECK(board::opposite(transform(c, s)) == transform(board::opposite(c), s));
        }
        for (int trial = 0; trial < 20; ++trial) {
            const Bitboard enemies(static_cast<std::uint32_t>(rng()) & Bitboard::kAllBits);
            const Bitboard empty = ~enemies & Bitboard(static_cast<std::uint32_t>(rng()));
            CHECK(board::neighbours(transform(enemies, s)) ==
                  transform(board::neighbours(enemies), s));
            for (int i = 0; i < Cell::kCount; ++i) {
                const Cell from(i);
                const Bitboard free = empty & ~Bitboard::of(from);
                for (const Rules& r : variants) {
                    CHECK(movegen::attackTargets(transform(from, s), transform(enemies, s), r) ==
                          transform(movegen::attackTargets(from, enemies, r), s));
                    for (int steps = 1; steps <= 3; ++steps)
                        CHECK(movegen::destinations(transform(from, s), steps, transform(free, s),
                                                    r.centreStraight()) ==
                              transform(
                                  movegen::destinations(from, steps, free, r.centreStraight()), s));
                }
            }
        }
    }
}

TEST_CASE("symmetry: events and tokens") {
    const Symmetry mirror = Symmetry::mirror();
    CHECK(transform(*Event::parse("c3-b3"), mirror).token() == "c10-b10");
    CHECK(transform(*Event::parse("b4xa"), mirror).token() == "b9xa");
    CHECK(transform(Event::place(Cell::inner(1), Cell::outer(1)), Symmetry(2, false)) ==
          Event::place(Cell::inner(3), Cell::outer(3)));
    CHECK(transform(Event::pass(), mirror) == Event::pass());
    CHECK(transform(Event::outcome(Outcome::CounterPush), mirror) ==
          Event::outcome(Outcome::CounterPush));
    CHECK(transformTokens("c3-b3 b4xa counterpush a-b7 pass", {mirror, true}) ==
          "c10-b10 b9xa counterpush a-b6 pass");
    CHECK_FALSE(transformTokens("c3-b3 nonsense", {}));
}

TEST_CASE("symmetry: DFEN strings") {
    const std::string melee = "S/Hk...mN....l/tG.........g 1 2 0 1";
    CHECK(transformDfen(melee, {}) == melee);
    CHECK(transformDfen(melee, {Symmetry(), true}) == "s/hK...Mn....L/Tg.........G 2 2 0 1");
    CHECK(transformDfen(melee, {Symmetry(1, false), false}) ==
          "S/lHk...mN..../gtG......... 1 2 0 1");
    CHECK(transformDfen("N/..k........./...G....mt.. 2 2 0 10 2/0", {Symmetry(), true}) ==
          "n/..K........./...g....MT.. 1 2 0 10 0/2");
    for (const Symmetry s : kAll) {
        for (const bool swap : {false, true}) {
            const Transform t{s, swap};
            const auto there = transformDfen(melee, t);
            REQUIRE(there);
            CHECK(transformDfen(*there, t.inverse()) == melee);
        }
    }
    CHECK_FALSE(transformDfen("S/Hk...mN....l/tG......... 1 2 0 1", {}));
    CHECK_FALSE(transformDfen("S/Hk...mN....l/tG.........g 3 2 0 1", {Symmetry(), true}));
    CHECK_FALSE(transformDfen("S/Hk...mN....l/tG.........g 1 2 0", {}));
}

TEST_CASE("symmetry: positions at every phase round-trip exactly and keep legal play") {
    int phases[3] = {0, 0, 0};
    int counterPlacements = 0;
    // Under a sanitizer each position meets a sixth of the symmetries, in turn, so that the
    // sample still meets them all.
    constexpr int kEvery = testing::kSanitized ? 6 : 1;
    int sampled = 0;
    for (const Ruleset r : kRulesets) {
        const Rules& rules = rulesOf(r);
        for (const Position& pos : samples(rules, 1000 + static_cast<int>(r), 6)) {
            ++phases[static_cast<int>(pos.phase())];
            if (pos.phase() == Phase::Placement && pos.decider() != pos.sideToMove())
                ++counterPlacements;
            const auto before = eventCodes(pos);
            ++sampled;
            for (const Symmetry s : kAll) {
                if ((s.index() + sampled) % kEvery != 0) continue;
                for (const bool swap : {false, true}) {
                    const Transform t{s, swap};
                    const Position there = transform(pos, t);
                    CAPTURE(s.index());
                    CAPTURE(swap);
                    CHECK(there.key() == there.computeKey());
                    CHECK(there.phase() == pos.phase());
                    CHECK(there.result() ==
                          (swap && pos.result() == Result::Player1Wins   ? Result::Player2Wins
                           : swap && pos.result() == Result::Player2Wins ? Result::Player1Wins
                                                                         : pos.result()));
                    CHECK(there.sideToMove() == transform(pos.sideToMove(), t));
                    CHECK(there.quiet() == pos.quiet());
                    CHECK(there.turn() == pos.turn());
                    CHECK(there.hold(Player::One) == pos.hold(transform(Player::One, t)));
                    if (pos.phase() != Phase::Outcome)
                        CHECK(there.decider() == transform(pos.decider(), t));
                    CHECK(eventCodes(there) == eventCodes(pos, s));
                    const Position back = transform(there, t.inverse());
                    CHECK(back == pos);
                    CHECK(sameState(back, pos));
                }
            }
            CHECK(eventCodes(pos) == before);
        }
    }
    // The samples reach every phase, the counter-push placement included.
    CHECK(phases[0] > 100);
    CHECK(phases[1] > 20);
    CHECK(phases[2] > 10);
    CHECK(counterPlacements > 3);
}

TEST_CASE("symmetry: a mid-attack player swap keeps who decides what") {
    const Rules& kelly = rulesOf(Ruleset::Kelly);
    // PERFT.md melee-mid-counterpush: player 2 places player 1's S.
    const Position pos = fromDfen("S/Hk...mN....l/tG.........g 1 2 0 1", kelly, "axb2 counterpush");
    REQUIRE(pos.phase() == Phase::Placement);
    REQUIRE(pos.decider() == Player::Two);
    const Position swapped = transform(pos, {Symmetry(), true});
    CHECK(swapped.sideToMove() == Player::Two);
    CHECK(swapped.decider() == Player::One);
    CHECK(swapped.at(Cell::centre()) == Piece(Player::Two, Creature::Savrip));
    CHECK(swapped == fromDfen("s/hK...Mn....L/Tg.........G 2 2 0 1", kelly, "axb2 counterpush"));
    for (int d = 1; d <= 3; ++d)
        CHECK(perft(swapped, d) == perft(pos, d));
}

TEST_CASE("symmetry: perft is invariant under every board symmetry and the player swap") {
    struct Case {
        Ruleset ruleset;
        const char* dfen;
        const char* moves;
        int depth;
    };
    const std::vector<Case> cases = {
        {Ruleset::Kelly, "./............/.GHSN..mltk. 1 2 0 1", "", 4},
        {Ruleset::Kelly, "S/Hk...mN....l/tG.........g 1 2 0 1", "", 3},
        {Ruleset::Kelly, "S/Hk...mN....l/tG.........g 1 2 0 1", "axb2 counterpush", 3},
        {Ruleset::Kelly, "L/n.........../...S........ 1 2 0 1", "", 4},
        {Ruleset::DalsianClassic, "N/..k........./...G....mt.. 1 2 0 9 2/2", "", 3},
        {Ruleset::DalsianClassic, "N/..k........./...G....mt.. 2 2 0 10 2/0", "", 4},
        {Ruleset::Dalsian, "./SmKl......../tNh......... 1 2 0 1", "", 3},
        {Ruleset::Dalsian, "./............/.GHSN..mltk. 1 2 0 1", "", 4},
        {Ruleset::Holochess, "./L..m.....t../...S..G..k.. 1 2 0 1", "", 4},
        {Ruleset::Holochess, "./Lm.........t/...S..G..k.. 1 2 0 1", "b1xb2", 4},
    };
    for (const Case& c : cases) {
        CAPTURE(c.dfen);
        CAPTURE(c.moves);
        const Rules& rules = rulesOf(c.ruleset);
        const Position pos = fromDfen(c.dfen, rules, c.moves);
        const std::uint64_t deep = perft(pos, c.depth);
        const std::uint64_t shallow = perft(pos, c.depth - 1);
        // Every symmetry at one ply less, a spread of them (and the swap) at full depth.
        for (const Symmetry s : kAll) {
            CHECK(perft(transform(pos, {s, false}), c.depth - 1) == shallow);
            if (s.index() % 7 == 0) {
                CHECK(perft(transform(pos, {s, false}), c.depth) == deep);
                CHECK(perft(transform(pos, {s, true}), c.depth) == deep);
            }
        }
        // The swap of a side-1 position is the same game with side 2 to move.
        const Position swapped = transform(pos, {Symmetry(), true});
        CHECK(swapped.sideToMove() == opponent(pos.sideToMove()));
        CHECK(perft(swapped, c.depth) == deep);
    }
}
