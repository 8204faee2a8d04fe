// Exact combat and showdown odds (RULES §6–§8): hand-computed values, the PERFT.md samples,
// and brute-force enumeration of every roll of the actual dice against the convolution.
#include <doctest/doctest.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "dice.h"
#include "event.h"
#include "position.h"
#include "rules.h"

using namespace dejarik;

namespace doctest {
template <>
struct StringMaker<Fraction> {
    static String convert(const Fraction& f) { return f.str().c_str(); }
};
}  // namespace doctest

namespace {

constexpr std::array<DiceModel, 4> kModels = {DiceModel::Pools, DiceModel::D20, DiceModel::TwoD10,
                                              DiceModel::SplitD6};

Fraction frac(std::uint64_t num, std::uint64_t den) {
    return Fraction{num, den};
}

// The secondary die of d20 and 2d10, from the table of RULES §7.
int secondaryDie(int rating) {
    switch (rating) {
        case 1:
        case 2:
            return 10;
        case 3:
        case 4:
            return 8;
        case 5:
        case 6:
            return 6;
        default:
            return 4;
    }
}

// One side's roll: a fixed bonus plus the sum of these dice.
struct Roll {
    int bonus = 0;
    std::vector<int> dice;  // number of sides of each die
};

Roll rollFor(DiceModel model, int rating) {
    switch (model) {
        case DiceModel::Pools:
            return {0, std::vector<int>(static_cast<std::size_t>(rating), 6)};
        case DiceModel::D20:
            return {rating, {20, secondaryDie(rating)}};
        case DiceModel::TwoD10:
            return {rating, {10, 10, secondaryDie(rating)}};
        case DiceModel::SplitD6:
            break;
    }
    FAIL("split-d6 has no per-side roll");
    return {};
}

// Calls f(scoreA, scoreB) once for every joint roll of both sides' dice.
template <typename F>
void everyRoll(const Roll& a, const Roll& b, F f) {
    std::vector<int> sides = a.dice;
    sides.insert(sides.end(), b.dice.begin(), b.dice.end());
    std::vector<int> face(sides.size(), 1);
    const std::size_t split = a.dice.size();
    while (true) {
        int sa = a.bonus, sb = b.bonus;
        for (std::size_t i = 0; i < face.size(); ++i)
            (i < split ? sa : sb) += face[i];
        f(sa, sb);
        std::size_t i = 0;
        while (i < face.size() && face[i] == sides[i])
            face[i++] = 1;
        if (i == face.size()) return;
        ++face[i];
    }
}

// RULES §6: the outcome of a margin.
Outcome outcomeOf(int margin) {
    if (margin >= 7) return Outcome::Kill;
    if (margin >= 1) return Outcome::Push;
    if (margin >= -6) return Outcome::CounterPush;
    return Outcome::CounterKill;
}

AttackOdds bruteForceAttack(DiceModel model, int attack, int defence) {
    AttackOdds odds;
    auto count = [&odds](Outcome o) {
        ++odds.counts[static_cast<int>(o)];
        ++odds.total;
    };
    if (model == DiceModel::SplitD6) {
        for (int r = 1; r <= 6; ++r) {
            if (r == 6) {
                count(Outcome::Kill);
            } else if (r == 1) {
                count(Outcome::CounterKill);
            } else {
                count(r + attack > (7 - r) + defence ? Outcome::Push : Outcome::CounterPush);
            }
        }
        return odds;
    }
    everyRoll(rollFor(model, attack), rollFor(model, defence),
              [&](int sa, int sd) { count(outcomeOf(sa - sd)); });
    return odds;
}

ShowdownOdds bruteForceShowdown(DiceModel model, int r1, int r2) {
    ShowdownOdds odds;
    const Roll a = model == DiceModel::SplitD6 ? Roll{r1, {6}} : rollFor(model, r1);
    const Roll b = model == DiceModel::SplitD6 ? Roll{r2, {6}} : rollFor(model, r2);
    const int decisive = model == DiceModel::SplitD6 ? 1 : 7;
    everyRoll(a, b, [&](int s1, int s2) {
        odds.p1Round += s1 - s2 >= decisive;
        odds.p2Round += s2 - s1 >= decisive;
        ++odds.total;
    });
    return odds;
}

std::uint64_t power(std::uint64_t base, int exp) {
    std::uint64_t r = 1;
    for (int i = 0; i < exp; ++i)
        r *= base;
    return r;
}

// The number of equally likely rolls of one attack.
std::uint64_t rollCount(DiceModel model, int attack, int defence) {
    switch (model) {
        case DiceModel::Pools:
            return power(6, attack + defence);
        case DiceModel::D20:
            return 400ull *
                   static_cast<std::uint64_t>(secondaryDie(attack) * secondaryDie(defence));
        case DiceModel::TwoD10:
            return 10000ull *
                   static_cast<std::uint64_t>(secondaryDie(attack) * secondaryDie(defence));
        case DiceModel::SplitD6:
            return 6;
    }
    return 0;
}

void checkOdds(DiceModel model, int attack, int defence, Fraction kill, Fraction push,
               Fraction counterPush, Fraction counterKill) {
    CAPTURE(attack);
    CAPTURE(defence);
    const AttackOdds odds = attackOdds(model, attack, defence);
    CHECK(odds.fraction(Outcome::Kill) == kill);
    CHECK(odds.fraction(Outcome::Push) == push);
    CHECK(odds.fraction(Outcome::CounterPush) == counterPush);
    CHECK(odds.fraction(Outcome::CounterKill) == counterKill);
}

}  // namespace

TEST_CASE("dice: names of models and outcomes") {
    for (const DiceModel m : kModels)
        CHECK(parseDiceModel(diceModelName(m)) == m);
    CHECK(diceModelName(DiceModel::Pools) == "pools");
    CHECK(diceModelName(DiceModel::D20) == "d20");
    CHECK(diceModelName(DiceModel::TwoD10) == "2d10");
    CHECK(diceModelName(DiceModel::SplitD6) == "split-d6");
    CHECK_FALSE(parseDiceModel("d6").has_value());
    CHECK_FALSE(parseDiceModel("").has_value());
    CHECK(outcomeName(Outcome::Kill) == "kill");
    CHECK(outcomeName(Outcome::Push) == "push");
    CHECK(outcomeName(Outcome::CounterPush) == "counterpush");
    CHECK(outcomeName(Outcome::CounterKill) == "counterkill");
}

TEST_CASE("fractions are reduced and print as RULES numbers") {
    CHECK(Fraction::reduced(6, 8) == frac(3, 4));
    CHECK(Fraction::reduced(0, 36) == frac(0, 1));
    CHECK(Fraction::reduced(36, 36) == frac(1, 1));
    CHECK(Fraction::reduced(35, 1296) == frac(35, 1296));
    CHECK(frac(3, 4).str() == "3/4");
    CHECK(frac(0, 1).str() == "0");
    CHECK(frac(1, 1).str() == "1");
    CHECK(frac(1, 4).value() == 0.25);
}

TEST_CASE("dice: hand-computed odds") {
    // Pools 1 against 1: 36 rolls, no margin reaches 7; a push needs the higher die.
    checkOdds(DiceModel::Pools, 1, 1, frac(0, 1), frac(5, 12), frac(7, 12), frac(0, 1));
    // Pools 2 against 1: 2d6 totals 8..12 (5, 4, 3, 2, 1 ways) kill against defence faces
    // up to total - 7 (1, 2, 3, 4, 5 faces): 5 + 8 + 9 + 8 + 5 = 35 of 216 rolls.
    CHECK(attackOdds(DiceModel::Pools, 2, 1).fraction(Outcome::Kill) == frac(35, 216));
    // split-d6 S(5) against K(2): 6 kills, 1 counter-kills, 3..5 push (r + 5 > 9 - r), 2
    // counter-pushes (7 against 7 is not greater).
    checkOdds(DiceModel::SplitD6, 5, 2, frac(1, 6), frac(1, 2), frac(1, 6), frac(1, 6));
    // split-d6 1 against 6: r + 1 > 13 - r never holds for r = 2..5.
    checkOdds(DiceModel::SplitD6, 1, 6, frac(1, 6), frac(0, 1), frac(2, 3), frac(1, 6));
    // d20 8 against 8: equal dice on both sides, so the margin is symmetric; kill and
    // counter-kill have equal weight.
    const AttackOdds even = attackOdds(DiceModel::D20, 8, 8);
    CHECK(even.count(Outcome::Kill) == even.count(Outcome::CounterKill));
    CHECK(even.total == 20u * 4u * 20u * 4u);

    // Showdown split-d6 6 against 5: d6 + 6 beats d6 + 5 unless the second die is 2 or
    // more higher (10 of 36 rolls); ties (5) are rolled again: 21 / (21 + 10).
    const ShowdownOdds s = showdownOdds(DiceModel::SplitD6, 6, 5);
    CHECK(s.p1Round == 21u);
    CHECK(s.p2Round == 10u);
    CHECK(s.total == 36u);
    CHECK(s.p1Wins() == frac(21, 31));
    CHECK(s.p2Wins() == frac(10, 31));
    // Pools 1 against 1 can never decide a round: the showdown is drawn.
    const ShowdownOdds drawn = showdownOdds(DiceModel::Pools, 1, 1);
    CHECK(drawn.drawn());
    CHECK(drawn.p1Wins() == frac(0, 1));
    CHECK(drawn.p2Wins() == frac(0, 1));
}

TEST_CASE("dice: every odds sample of PERFT.md, exactly") {
    checkOdds(DiceModel::Pools, 2, 2, frac(35, 1296), frac(5, 12), frac(343, 648), frac(35, 1296));
    checkOdds(DiceModel::Pools, 6, 8, frac(218042255, 13060694016), frac(1368923045, 13060694016),
              frac(2270158913, 6530347008), frac(3466705445, 6530347008));
    checkOdds(DiceModel::TwoD10, 6, 8, frac(9041, 80000), frac(2927, 10000), frac(24311, 60000),
              frac(9077, 48000));
    checkOdds(DiceModel::D20, 6, 8, frac(961, 4800), frac(1111, 4800), frac(481, 1600),
              frac(257, 960));
    checkOdds(DiceModel::SplitD6, 5, 2, frac(1, 6), frac(1, 2), frac(1, 6), frac(1, 6));
    checkOdds(DiceModel::Pools, 8, 7, frac(17059583999, 52242776064), frac(9061804033, 26121388032),
              frac(40896275885, 156728328192), frac(642654757, 9795520512));

    // The same pairs through the rulesets' creatures (a bare number in PERFT.md is a rating).
    const Rules kelly = Rules::preset(Ruleset::Kelly);
    CHECK(kelly.combat(Creature::Savrip, Creature::Ngok).exact.fraction(Outcome::Kill) ==
          frac(218042255, 13060694016));
    CHECK(kelly.combat(Creature::Molator, Creature::Strider).exact.fraction(Outcome::CounterKill) ==
          frac(642654757, 9795520512));
    const Rules holochess = Rules::preset(Ruleset::Holochess);
    CHECK(holochess.combat(Creature::Savrip, Creature::Klorslug).exact.fraction(Outcome::Push) ==
          frac(1, 2));
    const Rules dalsian = Rules::preset(Ruleset::Dalsian);
    CHECK(dalsian.combat(Creature::Savrip, Creature::Ngok).exact.fraction(Outcome::Push) ==
          frac(2927, 10000));
    const Rules classic = Rules::preset(Ruleset::DalsianClassic);
    CHECK(classic.combat(Creature::Savrip, Creature::Ngok).exact.fraction(Outcome::Kill) ==
          frac(961, 4800));
}

TEST_CASE("dice: every showdown sample of PERFT.md, exactly") {
    struct Sample {
        Ruleset ruleset;
        Creature p1, p2;
        DiceModel model;
        int r1, r2;
        Fraction round1, round2, win1, win2;
    };
    const std::vector<Sample> samples = {
        {Ruleset::Kelly, Creature::Savrip, Creature::Ngok, DiceModel::Pools, 6, 8,
         frac(218042255, 13060694016), frac(3466705445, 6530347008), frac(43608451, 1430290629),
         frac(1386682178, 1430290629)},
        {Ruleset::Dalsian, Creature::Savrip, Creature::Ngok, DiceModel::TwoD10, 6, 8,
         frac(9041, 80000), frac(9077, 48000), frac(27123, 72508), frac(45385, 72508)},
        {Ruleset::Holochess, Creature::Savrip, Creature::Klorslug, DiceModel::SplitD6, 5, 6,
         frac(5, 18), frac(7, 12), frac(10, 31), frac(21, 31)},
    };
    for (const Sample& s : samples) {
        const std::string ruleset(rulesetName(s.ruleset));
        CAPTURE(ruleset);
        const ShowdownOdds odds = showdownOdds(s.model, s.r1, s.r2);
        CHECK(Fraction::reduced(odds.p1Round, odds.total) == s.round1);
        CHECK(Fraction::reduced(odds.p2Round, odds.total) == s.round2);
        CHECK(odds.p1Wins() == s.win1);
        CHECK(odds.p2Wins() == s.win2);
        // The ruleset's table uses each piece's highest rating.
        const Rules rules = Rules::preset(s.ruleset);
        const auto& table = rules.showdown(s.p1, s.p2);
        CHECK(table.exact.p1Wins() == s.win1);
        CHECK(table.p1Wins == doctest::Approx(s.win1.value()).epsilon(1e-15));
        CHECK(table.p2Wins == doctest::Approx(s.win2.value()).epsilon(1e-15));
    }
}

TEST_CASE("dice: every distribution counts all rolls exactly (ratings 1..8, all models)") {
    for (const DiceModel model : kModels) {
        for (int a = 1; a <= 8; ++a) {
            for (int d = 1; d <= 8; ++d) {
                const std::string name(diceModelName(model));
                CAPTURE(name);
                CAPTURE(a);
                CAPTURE(d);
                const AttackOdds odds = attackOdds(model, a, d);
                const std::uint64_t sum =
                    std::accumulate(odds.counts.begin(), odds.counts.end(), std::uint64_t{0});
                CHECK(sum == odds.total);
                CHECK(odds.total == rollCount(model, a, d));
                double p = 0;
                for (const Outcome o : kOutcomes)
                    p += odds.probability(o);
                CHECK(p == doctest::Approx(1.0).epsilon(1e-14));

                const ShowdownOdds s = showdownOdds(model, a, d);
                CHECK(s.p1Round + s.p2Round <= s.total);
                CHECK(s.total == (model == DiceModel::SplitD6 ? 36u : rollCount(model, a, d)));
                if (!s.drawn()) {
                    const Fraction w1 = s.p1Wins(), w2 = s.p2Wins();
                    CHECK(w1.num * w2.den + w2.num * w1.den == w1.den * w2.den);
                }
                if (model != DiceModel::SplitD6) {
                    const std::uint64_t sides = model == DiceModel::Pools ? power(6, a)
                                                : model == DiceModel::D20
                                                    ? 20u * static_cast<unsigned>(secondaryDie(a))
                                                    : 100u * static_cast<unsigned>(secondaryDie(a));
                    CHECK(scoreDistribution(model, a).total() == sides);
                }
            }
        }
    }
}

TEST_CASE("dice: score distributions of single sides") {
    // Pools: r d6, scores r..6r.
    const ScoreDistribution p3 = scoreDistribution(DiceModel::Pools, 3);
    CHECK(p3.offset == 3);
    CHECK(p3.counts.size() == 16u);
    CHECK(p3.total() == 216u);
    CHECK(p3.counts[0] == 1u);   // 3
    CHECK(p3.counts[7] == 27u);  // 10
    CHECK(p3.counts[15] == 1u);  // 18
    // d20, rating 8: 8 + d20 + d4, scores 10..32.
    const ScoreDistribution d8 = scoreDistribution(DiceModel::D20, 8);
    CHECK(d8.offset == 10);
    CHECK(d8.counts.size() == 23u);
    CHECK(d8.total() == 80u);
    CHECK(d8.counts[3] == 4u);
    // 2d10, rating 1: 1 + 2d10 + d10, scores 4..31.
    const ScoreDistribution t1 = scoreDistribution(DiceModel::TwoD10, 1);
    CHECK(t1.offset == 4);
    CHECK(t1.counts.size() == 28u);
    CHECK(t1.total() == 1000u);
    CHECK(t1.counts[0] == 1u);
    // Each side's secondary die follows RULES §7 rating by rating.
    for (int r = 1; r <= 8; ++r) {
        CAPTURE(r);
        CHECK(scoreDistribution(DiceModel::D20, r).total() ==
              20u * static_cast<unsigned>(secondaryDie(r)));
        CHECK(scoreDistribution(DiceModel::TwoD10, r).counts.size() ==
              static_cast<std::size_t>(10 + 10 + secondaryDie(r) - 2));
    }
}

TEST_CASE("dice: brute-force enumeration of every roll equals the convolution") {
    auto same = [](const AttackOdds& x, const AttackOdds& y) {
        return x.counts == y.counts && x.total == y.total;
    };
    SUBCASE("pools, up to six dice in all") {
        for (int a = 1; a <= 5; ++a) {
            for (int d = 1; a + d <= 6; ++d) {
                CAPTURE(a);
                CAPTURE(d);
                CHECK(same(attackOdds(DiceModel::Pools, a, d),
                           bruteForceAttack(DiceModel::Pools, a, d)));
                const ShowdownOdds s = showdownOdds(DiceModel::Pools, a, d);
                const ShowdownOdds b = bruteForceShowdown(DiceModel::Pools, a, d);
                CHECK(s.p1Round == b.p1Round);
                CHECK(s.p2Round == b.p2Round);
                CHECK(s.total == b.total);
            }
        }
    }
    SUBCASE("d20 and split-d6, every rating pair") {
        for (int a = 1; a <= 8; ++a) {
            for (int d = 1; d <= 8; ++d) {
                CAPTURE(a);
                CAPTURE(d);
                for (const DiceModel model : {DiceModel::D20, DiceModel::SplitD6}) {
                    CHECK(same(attackOdds(model, a, d), bruteForceAttack(model, a, d)));
                    const ShowdownOdds s = showdownOdds(model, a, d);
                    const ShowdownOdds b = bruteForceShowdown(model, a, d);
                    CHECK(s.p1Round == b.p1Round);
                    CHECK(s.p2Round == b.p2Round);
                    CHECK(s.total == b.total);
                }
            }
        }
    }
    SUBCASE("2d10, one pair per secondary die combination") {
        for (const auto& pair : std::vector<std::pair<int, int>>{
                 {1, 1}, {2, 7}, {3, 5}, {4, 8}, {6, 8}, {7, 3}, {8, 2}, {8, 8}, {5, 6}}) {
            const int a = pair.first, d = pair.second;  // named: CAPTURE cannot take bindings
            CAPTURE(a);
            CAPTURE(d);
            CHECK(same(attackOdds(DiceModel::TwoD10, a, d),
                       bruteForceAttack(DiceModel::TwoD10, a, d)));
        }
    }
}

TEST_CASE("dice: zero-probability outcomes are never generated") {
    // Pools T(2) against N(8): at most 12 against at least 8, no kill. L(8) against L(2):
    // at least 8 against at most 12, no counter-kill.
    CHECK(attackOdds(DiceModel::Pools, 2, 8).count(Outcome::Kill) == 0u);
    CHECK(attackOdds(DiceModel::Pools, 8, 2).count(Outcome::CounterKill) == 0u);
    const Rules kelly = Rules::preset(Ruleset::Kelly);
    const auto& weak = kelly.combat(Creature::Strider, Creature::Ngok);
    CHECK((weak.mask & (1u << static_cast<int>(Outcome::Kill))) == 0);
    CHECK(weak.outcomeCount == 3);
    CHECK(weak.probability[static_cast<int>(Outcome::Kill)] == 0.0);

    // In a game: the zeroprob position of PERFT.md.
    const auto pos = Position::fromDfen("./Tn.lL......./........k... 1 2 0 1", kelly);
    REQUIRE(pos);
    auto outcomes = [](const Position& p) {
        EventList list;
        p.generate(list);
        std::vector<std::string> tokens;
        for (const Event e : list)
            tokens.push_back(e.token());
        return tokens;
    };
    const auto tn = playTokens(*pos, "b1xb2");
    REQUIRE(tn);
    CHECK(outcomes(*tn) == std::vector<std::string>{"push", "counterpush", "counterkill"});
    CHECK(tn->countEvents() == 3);
    CHECK_FALSE(tn->isLegal(Event::outcome(Outcome::Kill)));
    CHECK_FALSE(tn->parseEvent("kill").has_value());
    std::string error;
    CHECK_FALSE(playTokens(*pos, "b1xb2 kill", &error).has_value());
    CHECK(error.find("'kill' is not legal") != std::string::npos);
    const auto ll = playTokens(*pos, "b5xb4");
    REQUIRE(ll);
    CHECK(outcomes(*ll) == std::vector<std::string>{"kill", "push", "counterpush"});

    // Everywhere: an outcome is a branch exactly when it has rolls, in every ruleset.
    for (const Ruleset r : kRulesets) {
        const Rules rules = Rules::preset(r);
        for (int a = 0; a < kCreatureCount; ++a) {
            for (int d = 0; d < kCreatureCount; ++d) {
                const auto& c = rules.combat(static_cast<Creature>(a), static_cast<Creature>(d));
                int n = 0;
                double sum = 0;
                for (const Outcome o : kOutcomes) {
                    const int i = static_cast<int>(o);
                    CHECK(((c.mask >> i) & 1u) == (c.exact.counts[i] != 0 ? 1u : 0u));
                    CHECK((c.probability[i] > 0) == (c.exact.counts[i] != 0));
                    n += c.exact.counts[i] != 0;
                    sum += c.probability[i];
                }
                CHECK(c.outcomeCount == n);
                CHECK(sum == doctest::Approx(1.0).epsilon(1e-14));
            }
        }
    }
}
