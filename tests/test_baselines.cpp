// The baseline players (search/baselines.h): names, and what `cautious` leaves out.
#include <doctest/doctest.h>

#include "baselines.h"
#include "random_positions.h"

using namespace dejarik;
using namespace dejarik::search;

namespace {

// Whether the attacker wins the roll (kill or push) at least as often as it loses it.
bool evenOdds(const Position& pos, Event e) {
    const auto& p =
        pos.rules().combat(pos.at(e.from()).creature(), pos.at(e.to()).creature()).probability;
    return p[0] + p[1] >= p[2] + p[3];
}

bool onlyAttacks(const Position& pos) {
    EventList list;
    pos.generate(list);
    for (const Event e : list)
        if (e.kind() != EventKind::Attack) return false;
    return true;
}

bool isLegal(const Position& pos, Event e) {
    EventList list;
    pos.generate(list);
    for (const Event x : list)
        if (x == e) return true;
    return false;
}

}  // namespace

TEST_CASE("baseline names: each parses to its player, nothing else does") {
    for (std::size_t i = 0; i < kBaselineNames.size(); ++i)
        CHECK(parseBaseline(kBaselineNames[i]) == static_cast<Baseline>(i));
    CHECK(parseBaseline("cautious") == Baseline::Cautious);
    CHECK_FALSE(parseBaseline("Cautious"));
    CHECK_FALSE(parseBaseline("search"));
    CHECK_FALSE(parseBaseline(""));
}

TEST_CASE("baseline names: the refusal lists every name, the option values follow the first") {
    CHECK(notABaseline("timid") == "'timid' is not a baseline player (random, greedy, cautious)");
    constexpr auto names = withBaselines("none");
    static_assert(names.size() == kBaselineNames.size() + 1);
    CHECK(names[0] == "none");
    for (std::size_t i = 0; i < kBaselineNames.size(); ++i)
        CHECK(parseBaseline(names[i + 1]) == static_cast<Baseline>(i));
}

TEST_CASE("cautious is greedy without the attacks below even odds") {
    int cautiousAttacks = 0, greedyOnlyAttacks = 0, sameAsGreedy = 0, positions = 0;
    for (const Ruleset r : kRulesets) {
        const Rules rules = Rules::preset(r);
        for (const Position& pos : testing::samplePositions(rules, 300, 11)) {
            ++positions;
            std::uint64_t a = 5, b = 5;
            const Event careful = cautiousDecision(pos, a);
            const Event greedy = greedyDecision(pos, b);
            REQUIRE(isLegal(pos, careful));
            CHECK(baselineDecision(Baseline::Cautious, pos, b = 5) == careful);
            if (careful.kind() == EventKind::Attack) {
                ++cautiousAttacks;
                CHECK((evenOdds(pos, careful) || onlyAttacks(pos)));
            }
            if (greedy.kind() == EventKind::Attack && !evenOdds(pos, greedy) && !onlyAttacks(pos))
                ++greedyOnlyAttacks;
            // An even-odds attack greedy picks is one cautious may pick too: it stays an
            // attack (ties among equal gains may pick another one).
            if (greedy.kind() == EventKind::Attack && evenOdds(pos, greedy)) {
                CHECK(careful.kind() == EventKind::Attack);
                if (careful == greedy) ++sameAsGreedy;
            }
        }
    }
    MESSAGE(positions, " positions: cautious attacked in ", cautiousAttacks,
            ", greedy below "
            "even odds in ",
            greedyOnlyAttacks, ", the same attack in ", sameAsGreedy);
    // The sample must show both sides of the rule, or the checks above say nothing.
    CHECK(cautiousAttacks > 0);
    CHECK(greedyOnlyAttacks > 0);
    CHECK(sameAsGreedy > 0);
}

TEST_CASE("baseline choices: every legal decision for random, greedy's own picks for greedy") {
    for (const Ruleset r : kRulesets) {
        const Rules rules = Rules::preset(r);
        for (const Position& pos : testing::samplePositions(rules, 40, 17)) {
            EventList all, random, greedy, cautious;
            pos.generate(all);
            baselineChoices(Baseline::Random, pos, random);
            baselineChoices(Baseline::Greedy, pos, greedy);
            baselineChoices(Baseline::Cautious, pos, cautious);
            CHECK(random.size() == all.size());
            REQUIRE(!greedy.empty());
            REQUIRE(!cautious.empty());
            for (std::uint64_t seed = 1; seed <= 8; ++seed) {
                std::uint64_t a = seed, b = seed;
                CHECK(greedy.contains(greedyDecision(pos, a)));
                CHECK(cautious.contains(cautiousDecision(pos, b)));
            }
        }
    }
}

TEST_CASE("mayChooseAttack: every attack greedy or cautious picks while it can move, none else") {
    int attacks = 0;
    for (const Ruleset r : kRulesets) {
        const Rules rules = Rules::preset(r);
        if (rules.courtier()) continue;
        for (const Position& pos : testing::samplePositions(rules, 60, 23)) {
            if (pos.phase() != Phase::Decision || onlyAttacks(pos)) continue;
            for (const Baseline b : {Baseline::Greedy, Baseline::Cautious}) {
                EventList choices;
                baselineChoices(b, pos, choices);
                for (const Event e : choices) {
                    if (e.kind() != EventKind::Attack) continue;
                    CAPTURE(pos.dfen());
                    CHECK(mayChooseAttack(b, rules, pos.at(e.from()).creature(),
                                          pos.at(e.to()).creature()));
                    ++attacks;
                }
            }
        }
    }
    CHECK(attacks > 20);
    // Kelly: the Ng'ok (attack 3) on a Savrip (defence 6) is counter-killed 78% of the time;
    // the K'lor'slug (attack 7) on a Molator (defence 2) wins material.
    const Rules kelly = Rules::preset(Ruleset::Kelly);
    CHECK_FALSE(mayChooseAttack(Baseline::Greedy, kelly, Creature::Ngok, Creature::Savrip));
    CHECK(mayChooseAttack(Baseline::Greedy, kelly, Creature::Klorslug, Creature::Molator));
    CHECK(mayChooseAttack(Baseline::Random, kelly, Creature::Ngok, Creature::Savrip));
    // Cautious chooses a subset of greedy's attacks.
    for (int a = 0; a < kCreatureCount; ++a)
        for (int d = 0; d < kCreatureCount; ++d) {
            const auto ca = static_cast<Creature>(a), cd = static_cast<Creature>(d);
            if (mayChooseAttack(Baseline::Cautious, kelly, ca, cd))
                CHECK(mayChooseAttack(Baseline::Greedy, kelly, ca, cd));
        }
}
