// The race bound (src/race.h): its base cases by hand, its recursion against a direct
// computation, and the properties that make it a bound.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <set>
#include <span>
#include <vector>

#include "board.h"
#include "movegen.h"
#include "race.h"
#include "rules.h"

using namespace dejarik;

namespace {

double decisive(const Rules& rules, Creature attacker, Creature defender) {
    const auto& p = rules.combat(attacker, defender).probability;
    const double k = p[static_cast<int>(Outcome::Kill)];
    const double ck = p[static_cast<int>(Outcome::CounterKill)];
    return k / (k + ck);
}

double showdownScore(const Rules& rules, Creature a, Creature b) {
    const auto& s = rules.showdown(a, b);
    return s.p1Wins + (1 - s.p1Wins - s.p2Wins) / 2;
}

// Whether `found` holds for some set of `k` of the bits of `from`.
template <class Found>
bool anySubset(std::uint32_t from, int k, const Found& found) {
    std::vector<std::uint32_t> bits;
    for (std::uint32_t rest = from; rest != 0; rest &= rest - 1)
        bits.push_back(rest & -rest);
    const auto m = bits.size();
    if (k < 0 || static_cast<std::size_t>(k) > m) return false;
    // Gosper's hack over k of the m bits, each set mapped onto the bits of `from`.
    for (std::uint64_t pick = (std::uint64_t{1} << k) - 1; pick < (std::uint64_t{1} << m);) {
        std::uint32_t set = 0;
        for (std::size_t i = 0; i < m; ++i)
            if (pick >> i & 1) set |= bits[i];
        if (found(set)) return true;
        if (pick == 0) return false;
        const std::uint64_t low = pick & -pick, ripple = pick + low;
        pick = ripple | (((pick ^ ripple) >> 2) / low);
    }
    return false;
}

constexpr auto S = Creature::Savrip, M = Creature::Monnok, G = Creature::Ghhhk,
               H = Creature::Houjix, T = Creature::Strider, N = Creature::Ngok,
               K = Creature::Klorslug, L = Creature::Molator;

}  // namespace

TEST_SUITE("race") {
    TEST_CASE("one against one is the showdown") {
        for (const Ruleset r : {Ruleset::Kelly, Ruleset::Dalsian, Ruleset::Holochess}) {
            const Rules rl = Rules::preset(r);
            for (const Creature a : {S, N, L})
                for (const Creature b : {M, T, K}) {
                    const std::array own{a};
                    const std::array other{b};
                    const auto bound = race::bound(rl, own, other);
                    REQUIRE(bound);
                    CHECK(bound->score == doctest::Approx(showdownScore(rl, a, b)).epsilon(1e-12));
                    CHECK(bound->win == doctest::Approx(rl.showdown(a, b).p1Wins).epsilon(1e-12));
                }
        }
    }

    TEST_CASE("two against one: the best decisive attack, bait or draw, by hand") {
        // Under dalsian (BlockedPush=stay) only kills and counter-kills decide.
        const Rules rl = Rules::preset(Ruleset::Dalsian);
        const std::array own{L, T};
        const std::array other{N};
        // Each of the four choices: the winner's side loses the piece it staked.
        const double lAttacks = decisive(rl, L, N), tAttacks = decisive(rl, T, N);
        const double nAttacksL = 1 - decisive(rl, N, L), nAttacksT = 1 - decisive(rl, N, T);
        const double afterL = showdownScore(rl, T, N), afterT = showdownScore(rl, L, N);
        const double expected =
            std::max({0.5, lAttacks + (1 - lAttacks) * afterL, tAttacks + (1 - tAttacks) * afterT,
                      nAttacksL + (1 - nAttacksL) * afterL, nAttacksT + (1 - nAttacksT) * afterT});
        const auto bound = race::bound(rl, own, other);
        REQUIRE(bound);
        CHECK(bound->score == doctest::Approx(expected).epsilon(1e-12));
        // The bait of the Ng'ok attacking the Strider (defence 7) is the best of them here.
        CHECK(expected == doctest::Approx(nAttacksT + (1 - nAttacksT) * afterT).epsilon(1e-12));
    }

    TEST_CASE("more creatures never lower the bound, and an army's order does not matter") {
        for (const Ruleset r : {Ruleset::Kelly, Ruleset::Dalsian}) {
            const Rules rl = Rules::preset(r);
            const std::vector<Creature> other{M, T, K};
            std::vector<Creature> own{S};
            double last = 0;
            for (const Creature extra : {N, G, H, L}) {
                const auto b = race::bound(rl, own, other);
                REQUIRE(b);
                CHECK(b->score >= last - 1e-12);
                CHECK(b->win <= b->score + 1e-12);  // a win is worth 1, a draw 1/2
                CHECK(b->score >= 0.5 - 1e-12);     // the player may always settle for a draw
                // The armies are sets: listed in another order, the same bound (a check on
                // the recursion's indexing of sub-armies).
                const std::vector<Creature> ownReversed(own.rbegin(), own.rend());
                const std::vector<Creature> otherReversed(other.rbegin(), other.rend());
                const auto reordered = race::bound(rl, ownReversed, otherReversed);
                REQUIRE(reordered);
                CHECK(reordered->score == doctest::Approx(b->score).epsilon(1e-12));
                CHECK(reordered->win == doctest::Approx(b->win).epsilon(1e-12));
                last = b->score;
                own.push_back(extra);
            }
        }
    }

    TEST_CASE("pushes that may kill count as kills: the bound never falls") {
        RuleOptions stay, kill;
        stay.ruleset = kill.ruleset = Ruleset::Dalsian;
        stay.blockedPush = BlockedPush::Stay;
        kill.blockedPush = BlockedPush::KillOnPush;
        const Rules a(stay), b(kill);
        const std::array own{G, H, S};
        const std::array other{N, T, M};
        const auto withStay = race::bound(a, own, other), withKill = race::bound(b, own, other);
        REQUIRE(withStay);
        REQUIRE(withKill);
        CHECK(withKill->score >= withStay->score);
        CHECK(withKill->score > withStay->score + 0.01);
    }

    TEST_CASE("a push kills only with four pieces on the board: three cannot box one in") {
        const Rules holochess = Rules::preset(Ruleset::Holochess);  // BlockedPush=kill
        RuleOptions stayOptions;
        stayOptions.ruleset = Ruleset::Holochess;
        stayOptions.blockedPush = BlockedPush::Stay;
        const Rules stay(stayOptions);
        const std::array two{S, G};
        const std::array one{M};
        const std::array pair{M, H};
        // Two against one: the same bound as if pushes never killed.
        const auto a = race::bound(holochess, two, one), b = race::bound(stay, two, one);
        REQUIRE(a);
        REQUIRE(b);
        CHECK(a->score == doctest::Approx(b->score).epsilon(1e-12));
        CHECK(a->win == doctest::Approx(b->win).epsilon(1e-12));
        // Two against two: pushes (a third of the rolls and more) may kill.
        const auto c = race::bound(holochess, two, pair), d = race::bound(stay, two, pair);
        REQUIRE(c);
        REQUIRE(d);
        CHECK(c->score > d->score + 0.01);
    }

    TEST_CASE("an opponent model: fewer attacks of the other side never raise the bound") {
        const Rules kelly = Rules::preset(Ruleset::Kelly);
        const std::array own{G, H, S};
        const std::array other{N, T};
        const auto any = race::bound(kelly, own, other);
        const auto all = race::bound(kelly, own, other,
                                     race::Opponent{[](Creature, Creature) { return true; }, {}});
        const race::Opponent never{[](Creature, Creature) { return false; }, {}};
        const auto none = race::bound(kelly, own, other, never);
        const auto noneUnboxed = race::bound(kelly, own, other, never, race::Boxing::Never);
        REQUIRE(any);
        REQUIRE(all);
        REQUIRE(none);
        REQUIRE(noneUnboxed);
        CHECK(all->score == any->score);
        CHECK(all->win == any->win);
        CHECK(none->score <= any->score);
        CHECK(noneUnboxed->score <= none->score);
        // The Ng'ok and the Strider are all but unkillable in kelly: only their own attacks,
        // baited or forced, would lose them, so without those the player can hardly win.
        CHECK(any->score > 0.99);
        CHECK(noneUnboxed->win < 0.05);
        CHECK(noneUnboxed->score == doctest::Approx(0.5).epsilon(0.02));
        // Boxed in at 3 v 1, the last of them must attack.
        CHECK(none->win > noneUnboxed->win + 0.05);
    }

    TEST_CASE("a side without a move: one piece needs three others, two need four, three more") {
        for (const Ruleset r : {Ruleset::Kelly, Ruleset::Holochess}) {  // holochess: CentreStraight
            const Rules rl = Rules::preset(r);
            CAPTURE(r);
            for (const Creature c : {S, M, G, H, T, N, K, L}) {
                const std::array one{c};
                CHECK_FALSE(race::canBeLeftWithoutMove(rl, one, 2));
                CHECK(race::canBeLeftWithoutMove(rl, one, 3));  // an outer cell's three neighbours
            }
            for (const auto& pair : {std::array{N, H}, std::array{T, M}, std::array{S, K}}) {
                CHECK_FALSE(race::canBeLeftWithoutMove(rl, pair, 3));
                CHECK(race::canBeLeftWithoutMove(rl, pair, 4));  // side by side on the outer ring
            }
            CHECK_FALSE(race::canBeLeftWithoutMove(rl, std::array{N, H, G}, 4));
            CHECK_FALSE(race::canBeLeftWithoutMove(rl, std::array{T, M, L}, 4));
            CHECK_FALSE(race::canBeLeftWithoutMove(rl, std::array{N, T, G, S}, 4));
            CHECK(race::canBeLeftWithoutMove(rl, std::array{N, H, G}, 5));
            CHECK_FALSE(race::canBeLeftWithoutMove(rl, std::array{N}, 0));
        }
    }

    TEST_CASE("a side without a move: the search over boards against every board") {
        // Every board of one or two pieces and `others` more, each piece's moves from the
        // move generator: the hitting-set search must find a board exactly when one exists.
        const auto exists = [](const Rules& rl, std::span<const Creature> side, int others) {
            const int n = static_cast<int>(side.size());
            const std::uint32_t all = Bitboard::kAllBits;
            return anySubset(all, n, [&](std::uint32_t sideCells) {
                std::vector<Cell> cells;
                for (const Cell c : Bitboard(sideCells))
                    cells.push_back(c);
                // Every order of the pieces on their cells (one or two pieces here).
                for (int swap = 0; swap < n; ++swap) {
                    if (swap) std::swap(cells[0], cells[1]);
                    const bool stuck = anySubset(all & ~sideCells, others, [&](std::uint32_t b) {
                        const Bitboard empty(all & ~(sideCells | b));
                        for (int i = 0; i < n; ++i) {
                            const int steps =
                                rl.ratings(side[static_cast<std::size_t>(i)]).movement;
                            if (movegen::destinations(cells[static_cast<std::size_t>(i)], steps,
                                                      empty, rl.centreStraight())
                                    .any())
                                return false;
                        }
                        return true;
                    });
                    if (stuck) return true;
                }
                return false;
            });
        };
        for (const Ruleset r : {Ruleset::Kelly, Ruleset::Holochess}) {
            const Rules rl = Rules::preset(r);
            CAPTURE(r);
            for (const Creature c : {H, S, T}) {  // movement 1, 2 and 3 in kelly
                const std::array one{c};
                for (int others = 0; others <= 3; ++others)
                    CHECK(race::canBeLeftWithoutMove(rl, one, others) == exists(rl, one, others));
            }
            // Pairs against three others once: a million boards.
            const std::array pair{N, T};
            for (int others = 0; others <= (r == Ruleset::Kelly ? 3 : 2); ++others)
                CHECK(race::canBeLeftWithoutMove(rl, pair, others) == exists(rl, pair, others));
        }
    }

    TEST_CASE("against a model, forced attacks count only where the side can be left stuck") {
        const Rules kelly = Rules::preset(Ruleset::Kelly);
        const race::Opponent none{[](Creature, Creature) { return false; }, {}};
        // Three against a lone Ng'ok: it can be boxed in and made to attack, so the bound is
        // as without a model; never boxed in, it never attacks and is all but unkillable.
        const std::array three{G, H, S};
        const std::array ngok{N};
        const auto any = race::bound(kelly, three, ngok);
        const auto boxed = race::bound(kelly, three, ngok, none);
        const auto unboxed = race::bound(kelly, three, ngok, none, race::Boxing::Never);
        REQUIRE(any);
        REQUIRE(boxed);
        REQUIRE(unboxed);
        CHECK(boxed->score <= any->score);  // at 2 v 1, after a loss, the model holds again
        CHECK(unboxed->score < boxed->score - 0.1);
        // Two against it cannot box it in: the model holds either way.
        const std::array two{G, H};
        const auto a = race::bound(kelly, two, ngok, none);
        const auto b = race::bound(kelly, two, ngok, none, race::Boxing::Never);
        REQUIRE(a);
        REQUIRE(b);
        CHECK(a->score == b->score);
        CHECK(a->score < race::bound(kelly, two, ngok)->score - 0.1);
        // A cache shared between bounds changes nothing.
        race::WithoutMoveCache cache;
        const auto cached =
            race::bound(kelly, three, ngok, none, race::Boxing::WhereArmiesAllow, &cache);
        REQUIRE(cached);
        CHECK(cached->score == boxed->score);
    }

    TEST_CASE("against a model, boxing a lone piece only leaves out two boxed in by four") {
        const Rules kelly = Rules::preset(Ruleset::Kelly);
        const race::Opponent none{[](Creature, Creature) { return false; }, {}};
        const auto scores = [&](std::span<const Creature> own, std::span<const Creature> other) {
            std::array<double, 3> out{};
            const std::array modes{race::Boxing::WhereArmiesAllow, race::Boxing::LonePiece,
                                   race::Boxing::Never};
            for (std::size_t i = 0; i < modes.size(); ++i) {
                const auto b = race::bound(kelly, own, other, none, modes[i]);
                REQUIRE(b);
                out[i] = b->score;
            }
            return out;
        };
        // Four against a Ng'ok and a Strider that never attack: they can be boxed in side by
        // side, or one after a kill; with a lone piece only, the pair must first lose one.
        const std::array four{G, H, M, S};
        const std::array pair{N, T};
        const auto [both, lone, never] = scores(four, pair);
        CHECK(lone < both - 0.1);
        CHECK(never < lone);
        // Three against a lone Ng'ok: boxing it in is boxing a lone piece.
        const std::array three{G, H, S};
        const std::array ngok{N};
        const auto [a, b, c] = scores(three, ngok);
        CHECK(b == a);
        CHECK(c < b - 0.1);
    }

    TEST_CASE("forced attacks: the boards without a move, and who can be attacked there") {
        const Rules kelly = Rules::preset(Ruleset::Kelly);
        using Targets = std::set<race::ForcedTargets>;
        // A lone Ng'ok (movement 1) is stuck only with every neighbour taken: on the outer
        // ring by three pieces, all of which it can attack; on the inner ring by four.
        const std::array ngok{N};
        CHECK(race::forcedTargets(kelly, ngok, 2) == Targets{});
        CHECK(race::forcedTargets(kelly, ngok, 3) == Targets{{1, 1, 1}});
        CHECK(race::forcedTargets(kelly, ngok, 4) == Targets{{0, 1, 1, 1}, {1, 1, 1, 1}});
        // Two side by side on the outer ring, boxed in by four: two of them next to each.
        CHECK(race::forcedTargets(kelly, std::array{N, H}, 4) == Targets{{1, 1, 2, 2}});
        // A Strider (movement 3) can be stuck in a pocket with some of the four away from it.
        const auto strider = race::forcedTargets(kelly, std::array{T}, 4);
        REQUIRE(strider);
        CHECK(strider->contains({0, 0, 1, 1}));
        // Under SafeOuterOrbit a piece on the outer ring attacks nothing, and from the inner
        // ring nothing on the outer ring.
        const Rules dalsian = Rules::preset(Ruleset::Dalsian);
        CHECK(race::forcedTargets(dalsian, ngok, 4) == Targets{{0, 0, 0, 0}, {0, 1, 1, 1}});
        // A board is found exactly where the hitting-set search finds one.
        for (const Ruleset r : {Ruleset::Kelly, Ruleset::Holochess}) {
            const Rules rl = Rules::preset(r);
            for (const auto& side : std::vector<std::vector<Creature>>{{H}, {S}, {T}, {N, T}})
                for (int others = 0; others <= 4; ++others) {
                    CAPTURE(others);
                    const auto t = race::forcedTargets(rl, side, others);
                    REQUIRE(t);
                    CHECK(t->empty() == !race::canBeLeftWithoutMove(rl, side, others));
                }
        }
        // Too many boards to walk: nothing, and the bound lets every forced attack happen.
        CHECK_FALSE(race::forcedTargets(kelly, std::array{N, T, H}, 8));
    }

    TEST_CASE("forced attacks under a preference: the boxed-in side attacks what it values") {
        const Rules kelly = Rules::preset(Ruleset::Kelly);
        const std::array three{G, H, S};
        const std::array ngok{N};
        // Never attacks while it can move; boxed in, it attacks the piece it beats most often.
        const auto never = [](Creature, Creature) { return false; };
        const race::Opponent model{never, [&kelly](Creature a, Creature d) {
                                       const double v = decisive(kelly, a, d);
                                       return std::pair{v, v};
                                   }};
        const auto b = race::bound(kelly, three, ngok, model);
        REQUIRE(b);
        // By hand: 2 v 1 never boxes the Ng'ok in; the player attacks, or draws.
        const auto twoVersusNgok = [&](Creature x, Creature y) {
            return std::max(
                {0.5,
                 decisive(kelly, x, N) + (1 - decisive(kelly, x, N)) * showdownScore(kelly, y, N),
                 decisive(kelly, y, N) + (1 - decisive(kelly, y, N)) * showdownScore(kelly, x, N)});
        };
        const auto without = [&](Creature gone) {
            std::vector<Creature> rest;
            for (const Creature c : three)
                if (c != gone) rest.push_back(c);
            return twoVersusNgok(rest[0], rest[1]);
        };
        double expected = 0.5;
        for (const Creature c : three)
            expected = std::max(expected,
                                decisive(kelly, c, N) + (1 - decisive(kelly, c, N)) * without(c));
        // Boxed in, all three stand around it, and it picks its best target.
        const Creature target =
            *std::ranges::max_element(three, {}, [&](Creature c) { return decisive(kelly, N, c); });
        const double forced = decisive(kelly, N, target);
        expected = std::max(expected, (1 - forced) + forced * without(target));
        CHECK(b->score == doctest::Approx(expected));
        // Free to pick the Ng'ok's target, the player would win nearly always.
        const auto free = race::bound(kelly, three, ngok, race::Opponent{never, {}});
        REQUIRE(free);
        CHECK(free->score > b->score + 0.1);
    }

    TEST_CASE("refused where material is not all that decides, or an army is empty or too big") {
        CHECK_FALSE(race::bound(Rules::preset(Ruleset::DalsianClassic), std::array{S},
                                std::array{M}));  // CentreWin 3
        CHECK_FALSE(race::bound(Rules::preset(Ruleset::Courtier), std::array{S}, std::array{M}));
        CHECK_FALSE(
            race::bound(Rules::preset(Ruleset::Kelly), std::vector<Creature>{}, std::array{M}));
        const std::vector<Creature> nine(race::kMaxArmy + 1, S);
        CHECK_FALSE(race::bound(Rules::preset(Ruleset::Kelly), nine, std::array{M}));
    }
}
