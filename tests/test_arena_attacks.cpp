// `dejarik-arena attacks` (tools/arena/attacks.h): every attack by who made it and how the two
// pieces came to stand next to each other.
#include <doctest/doctest.h>

#include "attacks.h"
#include "test_arena_support.h"

using namespace dejarik;
using namespace dejarik::arena;
using dejarik::arena::testing::kellyRecord;

namespace {

// Kelly: x's Molator on b1 next to y's Ng'ok on c1, x's K'lor'slug on c5 and Savrip on c7,
// y's Ghhhk on c10.
//   1. b1xc1 counterpush b1-b2 (y places the Molator) c5-c3
//   2. c1-c2 c2xc3 push c3-c4 (the Ng'ok moves next to the K'lor'slug and attacks it)
//   3. b2xc2 push c2-c3 (x places the Ng'ok next to its K'lor'slug) c4xc3 counterkill
GameRecord fourAttacks() {
    return kellyRecord("./L.........../n...K.S..g.. 1 2 0 1", {{"b1xc1", "", 1, true},
                                                               {"counterpush", "", 1, false},
                                                               {"b1-b2", "", 1, false},
                                                               {"c5-c3", "", 1, false},
                                                               {"c1-c2", "", 2, true},
                                                               {"c2xc3", "", 2, false},
                                                               {"push", "", 2, false},
                                                               {"c3-c4", "", 2, false},
                                                               {"b2xc2", "", 3, true},
                                                               {"push", "", 3, false},
                                                               {"c2-c3", "", 3, false},
                                                               {"c4xc3", "", 3, false},
                                                               {"counterkill", "", 3, false}});
}

// Kelly: y's Ng'ok on c1 boxed in by x's Molator (b1), Savrip (c2) and K'lor'slug (c12).
//   1. b1xc1 push (blocked: the Ng'ok stays) c2-c4
//   2. c1xb1 kill (the Ng'ok answers the attack)
GameRecord answeredAttack() {
    return kellyRecord("./L.........../nS.........K 1 2 0 1", {{"b1xc1", "", 1, true},
                                                               {"push", "", 1, false},
                                                               {"c2-c4", "", 1, false},
                                                               {"c1xb1", "", 2, true},
                                                               {"kill", "", 2, false}});
}

const AttackTally& tally(const Attacks& a, int side, AttackSource s) {
    return a.bySide[static_cast<std::size_t>(side)][static_cast<std::size_t>(s)];
}

}  // namespace

TEST_SUITE("arena-unit") {
    TEST_CASE("attacks: each attack by who made it, how the pieces met, and what it removed") {
        const std::vector<GameRecord> records = {fourAttacks(), answeredAttack()};
        std::string error;
        const auto x = analyseAttacks(records, "x", error);
        INFO(error);
        REQUIRE(x);
        CHECK(x->games == 2);
        // x's own: the deal's neighbours twice, the Ng'ok y moved next to the Molator, and the
        // Ng'ok x itself placed next to the K'lor'slug, which the K'lor'slug lost.
        CHECK(tally(*x, 0, AttackSource::LeftNextTo).attacks == 2);
        CHECK(tally(*x, 0, AttackSource::LeftNextTo).defenderRemoved == 0);
        CHECK(tally(*x, 0, AttackSource::DefenderMoved).attacks == 1);
        CHECK(tally(*x, 0, AttackSource::PlacedNow).attacks == 1);
        CHECK(tally(*x, 0, AttackSource::PlacedNow).attackerRemoved == 1);
        CHECK(tally(*x, 0, AttackSource::Approached).attacks == 0);
        // y's: the Ng'ok's step and attack, and its answer to the Molator's attack, a kill.
        CHECK(tally(*x, 1, AttackSource::Approached).attacks == 1);
        CHECK(tally(*x, 1, AttackSource::Approached).defenderRemoved == 0);
        CHECK(tally(*x, 1, AttackSource::AfterDefenderAttack).attacks == 1);
        CHECK(tally(*x, 1, AttackSource::AfterDefenderAttack).defenderRemoved == 1);
        CHECK(tally(*x, 1, AttackSource::LeftNextTo).attacks == 0);

        // From y's seat the same attacks, the sides swapped.
        const auto y = analyseAttacks(records, "y", error);
        REQUIRE(y);
        for (int s = 0; s < kAttackSources; ++s) {
            const auto src = static_cast<AttackSource>(s);
            CHECK(tally(*y, 0, src).attacks == tally(*x, 1, src).attacks);
            CHECK(tally(*y, 1, src).attackerRemoved == tally(*x, 0, src).attackerRemoved);
        }

        const std::string text = formatAttacks(*x, "x");
        CHECK(text.find("x's games (2)") != std::string::npos);
        INFO(text);
        CHECK(text.find("\nother     all                                                   2    "
                        "1.00                 1                 0           1.000\n") !=
              std::string::npos);
        CHECK(text.find("\nplayer    all                                                   4    "
                        "2.00                 0                 1           0.000\n") !=
              std::string::npos);
    }

    TEST_CASE("attacks: errors") {
        std::string error;
        CHECK_FALSE(analyseAttacks({fourAttacks()}, "z", error));
        CHECK(error == "no finished game of 'z' in the records");
        GameRecord bad = fourAttacks();
        bad.events[1].token = "b1-b2";  // a move where the attack's outcome belongs
        CHECK_FALSE(analyseAttacks({bad}, "x", error));
        CHECK_FALSE(error.empty());
        // An unfinished game (the GUI's) is not read.
        GameRecord open = fourAttacks();
        open.finished = false;
        CHECK_FALSE(analyseAttacks({open}, "x", error));
    }
}
