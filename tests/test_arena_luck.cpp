// The arena's dice: rolls are real dice, the outcome follows from them, and the outcomes
// have exactly the probabilities of src/dice.h; deals are valid and fair.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "deals.h"
#include "luck.h"
#include "position.h"
#include "results.h"
#include "verify.h"

using namespace dejarik;
using namespace dejarik::arena;

namespace {

// RULES §6 written out again, as the reference the rolls are checked against.
Outcome referenceOutcome(int m) {
    return m >= 7   ? Outcome::Kill
           : m >= 1 ? Outcome::Push
           : m > -7 ? Outcome::CounterPush
                    : Outcome::CounterKill;
}

// A roll's faces, the attacker's then the defender's, as one number: digits 1-32 in base 33
// (a face of up to 31 sides, and the split between the two), twelve at most.
std::uint64_t facesCode(const AttackRoll& roll) {
    REQUIRE(roll.attacker.faces.size() + roll.defender.faces.size() < 12);
    std::uint64_t code = 0;
    const auto put = [&](int digit) {
        REQUIRE((digit >= 0 && digit < 32));
        code = code * 33 + static_cast<std::uint64_t>(digit) + 1;
    };
    for (const int f : roll.attacker.faces)
        put(f);
    put(0);
    for (const int f : roll.defender.faces)
        put(f);
    return code;
}

// Every rank of a small attack: each roll appears once, the margin never increases along
// the ranks, and the outcome counts are those of attackOdds.
void checkExhaustively(DiceModel model, int attack, int defence) {
    CAPTURE(diceModelName(model));
    CAPTURE(attack);
    CAPTURE(defence);
    const std::uint64_t n = rollCount(model, attack, defence);
    const AttackOdds odds = attackOdds(model, attack, defence);
    REQUIRE(n == odds.total);
    std::array<std::uint64_t, 4> counts{};
    std::vector<std::uint64_t> rolls;  // each rank's faces, all distinct (codes, not sets)
    std::set<int> dice;                // SplitD6: the die each rank names
    int previousMargin = 1000;
    for (std::uint64_t r = 0; r < n; ++r) {
        const AttackRoll roll = rollAttackRank(model, attack, defence, r);
        ++counts[static_cast<int>(roll.outcome)];
        for (std::size_t i = 0; i < roll.attacker.faces.size(); ++i) {
            VERIFY(roll.attacker.faces[i] >= 1);
            VERIFY(roll.attacker.faces[i] <= roll.attacker.sides[i]);
        }
        for (std::size_t i = 0; i < roll.defender.faces.size(); ++i) {
            VERIFY(roll.defender.faces[i] >= 1);
            VERIFY(roll.defender.faces[i] <= roll.defender.sides[i]);
        }
        if (model == DiceModel::SplitD6) {
            dice.insert(roll.die);
            continue;
        }
        rolls.push_back(facesCode(roll));
        const int margin = roll.attacker.score() - roll.defender.score();
        VERIFY(margin <= previousMargin);
        previousMargin = margin;
        VERIFY(roll.outcome == referenceOutcome(margin));
    }
    if (model == DiceModel::SplitD6) {
        CHECK(dice.size() == 6u);
    } else {
        std::ranges::sort(rolls);
        CHECK(std::ranges::adjacent_find(rolls) == rolls.end());
        CHECK(rolls.size() == n);
    }
    CHECK(counts == odds.counts);
}

}  // namespace

TEST_SUITE("arena-unit") {
    TEST_CASE("a 128-bit uniform picks exactly") {
        CHECK(Uniform{0, 0}.below(7) == 0);
        CHECK(Uniform{~0ull, ~0ull}.below(7) == 6);
        CHECK(Uniform{1ull << 63, 0}.below(10) == 5);
        CHECK(Uniform{1ull << 63, 0}.value() == 0.5);
        // 6^16 rolls: the largest attack.
        const std::uint64_t big = 2821109907456ull;
        CHECK(Uniform{~0ull, ~0ull}.below(big) == big - 1);
    }

    TEST_CASE("every roll of small attacks, all dice models") {
        checkExhaustively(DiceModel::Pools, 2, 3);
        checkExhaustively(DiceModel::Pools, 4, 1);
        checkExhaustively(DiceModel::D20, 6, 8);
        checkExhaustively(DiceModel::D20, 2, 2);
        checkExhaustively(DiceModel::TwoD10, 8, 7);
        for (int a = 1; a <= 6; ++a)
            for (int d = 1; d <= 6; ++d)
                checkExhaustively(DiceModel::SplitD6, a, d);
    }

    TEST_CASE("the outcome boundaries of the largest attacks are exact") {
        for (const auto& [a, d] :
             {std::pair{8, 8}, std::pair{8, 2}, std::pair{2, 8}, std::pair{6, 8}}) {
            const AttackOdds odds = attackOdds(DiceModel::Pools, a, d);
            std::uint64_t cumulative = 0;
            for (const Outcome o : kOutcomes) {
                const std::uint64_t c = odds.count(o);
                if (c == 0) continue;
                CHECK(rollAttackRank(DiceModel::Pools, a, d, cumulative).outcome == o);
                CHECK(rollAttackRank(DiceModel::Pools, a, d, cumulative + c - 1).outcome == o);
                cumulative += c;
            }
            CHECK(cumulative == rollCount(DiceModel::Pools, a, d));
        }
    }

    TEST_CASE("the record shows the dice") {
        const AttackRoll roll = rollAttackRank(DiceModel::Pools, 2, 1, 0);
        CHECK(roll.describe('L', 't') == "L 6+6=12 vs t 1=1");
        CHECK(roll.outcome == Outcome::Kill);
        const AttackRoll d20 = rollAttackRank(DiceModel::D20, 6, 8, 0);
        CHECK(d20.describe('S', 'n') == "S 6+20+6=32 vs n 8+1+1=10");
        CHECK(rollAttackRank(DiceModel::SplitD6, 5, 2, 0).describe('S', 'k') == "die 6");
        CHECK(rollAttackRank(DiceModel::SplitD6, 5, 2, 2).describe('S', 'k') ==
              "die 4: S 5+4=9 vs k 2+3=5");
    }

    TEST_CASE("attack luck: zero on average, and a push onto a boxed-in piece is a kill") {
        // Holochess's c2 has no empty neighbour: a push kills it where BlockedPush says so.
        for (const BlockedPush policy :
             {BlockedPush::Stay, BlockedPush::Kill, BlockedPush::KillOnPush}) {
            RuleOptions options;
            options.ruleset = Ruleset::Holochess;
            options.blockedPush = policy;
            const Rules rules(options);
            std::string error;
            const auto parsed =
                Position::fromDfen("./.N.Lk......./StG......... 1 2 0 1", rules, &error);
            REQUIRE_MESSAGE(parsed, error);
            const Position& start = *parsed;
            EventList list;
            start.generate(list);
            for (const Event e : list) {
                if (e.kind() != EventKind::Attack) continue;
                Position pos = start;
                pos.apply(e);
                CAPTURE(start.token(e));
                CAPTURE(blockedPushName(policy));
                const auto boxed = [&](Cell c) {
                    return (board::adjacent(c) & pos.emptyCells()).empty();
                };
                const auto worth = [&](Cell c) {
                    const Ratings& r = rules.ratings(pos.at(c).creature());
                    return static_cast<double>(r.attack + r.defence);
                };
                const auto& p = rules.combat(pos.at(e.from()).creature(), pos.at(e.to()).creature())
                                    .probability;
                std::array<double, 4> luck{};
                double mean = 0;
                for (int o = 0; o < 4; ++o) {
                    luck[o] = attackLuck(pos, static_cast<Outcome>(o));
                    mean += p[o] * luck[o];
                }
                CHECK(mean == doctest::Approx(0).epsilon(1e-12));
                const auto at = [&](Outcome o) { return luck[static_cast<int>(o)]; };
                CHECK(at(Outcome::Kill) - at(Outcome::CounterKill) ==
                      doctest::Approx(worth(e.to()) + worth(e.from())));
                const bool pushKills = policy != BlockedPush::Stay && boxed(e.to());
                const bool counterPushKills = policy == BlockedPush::Kill && boxed(e.from());
                CHECK((at(Outcome::Push) == doctest::Approx(at(Outcome::Kill))) == pushKills);
                CHECK((at(Outcome::CounterPush) == doctest::Approx(at(Outcome::CounterKill))) ==
                      counterPushKills);
                if (e.to() == Cell::parse("c2").value()) CHECK(boxed(e.to()));
            }
        }
    }

    TEST_CASE("duplicate luck is shared by the two games of a pair, per attacking player") {
        const LuckStream a(7, 3, 0, DiceMode::Duplicate), b(7, 3, 1, DiceMode::Duplicate);
        const LuckStream c(7, 3, 0, DiceMode::Independent), d(7, 3, 1, DiceMode::Independent);
        const LuckStream otherRound(7, 4, 0, DiceMode::Duplicate);
        for (std::uint64_t k = 0; k < 50; ++k) {
            for (const Player p : {Player::One, Player::Two}) {
                CHECK(a.attack(p, k) == b.attack(p, k));
                CHECK_FALSE(c.attack(p, k) == d.attack(p, k));
                CHECK_FALSE(a.attack(p, k) == otherRound.attack(p, k));
            }
            CHECK_FALSE(a.attack(Player::One, k) == a.attack(Player::Two, k));
            CHECK(a.showdownWord(k, 0) == b.showdownWord(k, 0));
        }
    }

    TEST_CASE("showdowns with real dice follow the exact odds") {
        // S against N under kelly: P(player 1) = 43608451/1430290629 = 0.0305 (PERFT.md);
        // holochess S against K: 10/31.
        const auto frequency = [](Ruleset ruleset, Creature c1, Creature c2) {
            const Rules rules = Rules::preset(ruleset);
            int wins = 0;
            constexpr int kGames = 4000;
            for (int g = 0; g < kGames; ++g) {
                const ShowdownRoll s =
                    rollShowdown(rules, c1, c2, LuckStream(11, g, 0, DiceMode::Duplicate));
                REQUIRE(s.winner);
                REQUIRE(s.rounds >= 1);
                wins += *s.winner == Player::One;
            }
            return static_cast<double>(wins) / kGames;
        };
        // Binomial standard errors: 0.0027 and 0.0074; the bands are about 4 of them.
        CHECK(frequency(Ruleset::Kelly, Creature::Savrip, Creature::Ngok) ==
              doctest::Approx(0.0305).epsilon(0.35));
        CHECK(frequency(Ruleset::Holochess, Creature::Savrip, Creature::Klorslug) ==
              doctest::Approx(10.0 / 31).epsilon(0.1));
        const ShowdownRoll s =
            rollShowdown(Rules::preset(Ruleset::Kelly), Creature::Savrip, Creature::Ngok,
                         LuckStream(1, 0, 0, DiceMode::Duplicate));
        CHECK(s.comment.rfind("showdown S 6 vs n 8:", 0) == 0);
    }

    TEST_CASE("random deals are valid and fair") {
        const Rules kelly = Rules::preset(Ruleset::Kelly);
        std::map<char, int> withPlayer1;
        std::set<std::string> distinct;
        constexpr int kDeals = 4000;
        for (int r = 0; r < kDeals; ++r) {
            const std::string deal = randomDeal(Ruleset::Kelly, 5, r);
            REQUIRE(randomDeal(Ruleset::Kelly, 5, r) == deal);
            const auto pos = Position::fromDfen(deal, kelly);
            REQUIRE(pos);
            REQUIRE(pos->pieces(Player::One).count() == 4);
            REQUIRE(pos->pieces(Player::Two).count() == 4);
            std::set<Creature> creatures;
            for (const Cell c : pos->occupied())
                creatures.insert(pos->at(c).creature());
            REQUIRE(creatures.size() == 8);
            for (int ray = 2; ray <= 5; ++ray)
                ++withPlayer1[pos->at(Cell::outer(ray)).letter()];
            distinct.insert(deal);
        }
        for (const char c : std::string("SMGHTNKL"))
            CHECK(withPlayer1[c] == doctest::Approx(kDeals / 2.0).epsilon(0.08));
        // 4000 draws from 40320 deals repeat some: about 3808 distinct are expected.
        CHECK(distinct.size() > 3700);

        const Rules holochess = Rules::preset(Ruleset::Holochess);
        for (int r = 0; r < 50; ++r) {
            const auto pos = Position::fromDfen(randomDeal(Ruleset::Holochess, 5, r), holochess);
            REQUIRE(pos);
            std::string p1;
            for (int ray = 2; ray <= 5; ++ray)
                p1 += pos->at(Cell::outer(ray)).letter();
            std::sort(p1.begin(), p1.end());
            CHECK(p1 == "GLNS");
        }
    }

    TEST_CASE("random deals under Setup arrange and a creature set") {
        // Setup arrange: the dealt creatures in the reserves, set-up pending.
        RuleOptions o;
        REQUIRE_FALSE(o.set("Setup", "arrange"));
        const Rules arrange(o);
        for (int r = 0; r < 50; ++r) {
            const std::string deal = randomDeal(arrange, 5, r);
            const auto pos = Position::fromDfen(deal, arrange);
            REQUIRE_MESSAGE(pos, deal);
            CHECK(pos->phase() == Phase::Setup);
            CHECK(pos->occupied().empty());
            // The same split as the dealt game of the round.
            const auto dealt = Position::fromDfen(randomDeal(Ruleset::Kelly, 5, r), arrange);
            std::string a, b;
            for (int i = 0; i < 4; ++i) {
                a += arrange.letter(
                    Piece(Player::One, static_cast<Creature>(pos->reserve(Player::One)[i])));
                b += dealt->at(Position::homeCell(Player::One, i)).letter();
            }
            std::sort(b.begin(), b.end(), [&](char x, char y) {
                return arrange.pieceOf(x)->creature() < arrange.pieceOf(y)->creature();
            });
            CHECK(a == b);
        }
        // A creature set: each player keeps its start group, in some order.
        std::string error;
        auto set = CreatureSet::parse(
            "start ABCD DDCC\nA 1 1 1 a\nB 2 2 2 b\nC 3 3 3 c\n"
            "D 4 4 4 d\n",
            "set", &error);
        REQUIRE_MESSAGE(set, error);
        RuleOptions f;
        f.creatureFile = std::make_shared<const CreatureSet>(*set);
        const Rules custom(f);
        std::set<std::string> orders;
        for (int r = 0; r < 50; ++r) {
            const auto pos = Position::fromDfen(randomDeal(custom, 5, r), custom);
            REQUIRE(pos);
            std::string p1, p2;
            for (int i = 0; i < 4; ++i) {
                p1 += custom.letter(pos->at(Position::homeCell(Player::One, i)));
                p2 += custom.letter(pos->at(Position::homeCell(Player::Two, i)));
            }
            orders.insert(p1);
            std::sort(p1.begin(), p1.end());
            std::sort(p2.begin(), p2.end());
            CHECK(p1 == "ABCD");
            CHECK(p2 == "ccdd");
        }
        CHECK(orders.size() > 10);
    }

    TEST_CASE("random deals are pinned: a seed's rounds stay the same deals across builds") {
        // Recorded matches are replayed and extended by seed (resuming, shards, the strength
        // table's deals): a change to how deals are drawn must show here, not in results.
        const auto digest = [](const Rules& rules, std::uint64_t seed) {
            std::string deals;  // 500 rounds' DFENs, a line each
            for (std::uint64_t r = 0; r < 500; ++r)
                deals += randomDeal(rules, seed, r) + '\n';
            return fingerprintOf(deals);
        };
        CHECK(randomDeal(Ruleset::Kelly, 2026, 0) == "./............/.GLNT..khms. 1 2 0 1");
        CHECK(randomDeal(Ruleset::Holochess, 2026, 0) == "./............/.SLNG..hmkt. 1 2 0 1");
        CHECK(digest(Rules::preset(Ruleset::Kelly), 2026) == "8799f57451341fdf");
        CHECK(digest(Rules::preset(Ruleset::Dalsian), 7) == "9103c63b5317f981");
        CHECK(digest(Rules::preset(Ruleset::Holochess), 2026) == "ecedeae5cd9a1aab");
        CHECK(digest(Rules::preset(Ruleset::Courtier), 3) == "44e169de9a822f00");
        RuleOptions o;
        REQUIRE_FALSE(o.set("Setup", "arrange"));
        CHECK(digest(Rules(o), 5) == "f6da7b0e5e8cedad");
        std::string error;
        const auto set = CreatureSet::parse(
            "start ABCD DDCC\nA 1 1 1 a\nB 2 2 2 b\nC 3 3 3 c\nD 4 4 4 d\n", "set", &error);
        REQUIRE_MESSAGE(set, error);
        RuleOptions f;
        f.creatureFile = std::make_shared<const CreatureSet>(*set);
        CHECK(digest(Rules(f), 5) == "3a3e1080adce2bbf");
    }

    TEST_CASE("deal files") {
        const Rules kelly = Rules::preset(Ruleset::Kelly);
        std::string error;
        const auto deals = parseDeals(
            "# two deals\n\n./............/.GHSN..mltk. 1 2 0 1\n"
            "  ./............/.SNGH..ktlm. 1 2 0 1  \n",
            kelly, error);
        REQUIRE(deals);
        CHECK(deals->size() == 2);
        CHECK((*deals)[1] == "./............/.SNGH..ktlm. 1 2 0 1");
        CHECK_FALSE(parseDeals("./............/.GHSN..mltk. 1 2 0 1\nnonsense\n", kelly, error));
        CHECK(error.rfind("line 2:", 0) == 0);
        CHECK_FALSE(parseDeals("./............/.G.......m.. 1 2 0 1\n", kelly, error));
        CHECK(error.find("over") != std::string::npos);
        CHECK_FALSE(parseDeals("# nothing\n", kelly, error));
    }
}
