// Creature sets (RULES §16): the file format and every check of §16.2 with its message, the
// set in force everywhere the rules use creatures (letters, ratings, startpos, DFEN, odds,
// the fingerprints), the dice rule of §16.3, and perft with the example files.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <fstream>
#include <memory>
#include <string>

#include "perft.h"
#include "position.h"
#include "rules.h"
#include "temp_dir.h"

using namespace dejarik;

namespace {

const std::string kDataDir = DEJARIK_DATA_DIR;
const std::string kKellyFile = kDataDir + "/creatures/kelly.txt";
const std::string kMirrorFile = kDataDir + "/creatures/mirror-raiders.txt";

std::string parseError(const std::string& text) {
    std::string error;
    const auto set = CreatureSet::parse(text, "t.txt", &error);
    CHECK_FALSE(set.has_value());
    return error;
}

Rules withFile(Ruleset r, const std::string& path, std::initializer_list<const char*> more = {}) {
    RuleOptions o;
    o.ruleset = r;
    REQUIRE_FALSE(o.set("CreatureFile", path));
    for (const char* a : more)
        REQUIRE_FALSE(o.setAssignment(a));
    return Rules(o);
}

constexpr std::string_view kMinimal = "start AAAA aaaa\nA 1 1 1 Ant\n";

}  // namespace

TEST_SUITE("creature sets") {
    TEST_CASE("the example files load; the Kelly file is the kelly table") {
        std::string error;
        const auto kelly = CreatureSet::load(kKellyFile, &error);
        REQUIRE_MESSAGE(kelly, error);
        CHECK(kelly->name() == "Kelly traditional");
        CHECK(kelly->dice() == DiceModel::Pools);
        CHECK(kelly->path() == kKellyFile);
        const Rules builtIn = Rules::preset(Ruleset::Kelly);
        REQUIRE(kelly->size() == builtIn.creatureCount());
        for (int c = 0; c < kelly->size(); ++c) {
            CHECK(kelly->creature(c).letter == builtIn.creatures().creature(c).letter);
            CHECK(kelly->creature(c).ratings == builtIn.ratings(static_cast<Creature>(c)));
            CHECK(kelly->creature(c).name == builtIn.creatures().creature(c).name);
        }
        CHECK(kelly->start(0) == builtIn.creatures().start(0));
        CHECK(kelly->start(1) == builtIn.creatures().start(1));

        const auto mirror = CreatureSet::load(kMirrorFile, &error);
        REQUIRE_MESSAGE(mirror, error);
        CHECK(mirror->name() == "Mirror Raiders");
        CHECK(mirror->size() == 5);
        CHECK(mirror->dice() == DiceModel::D20);
        // '#' inside a name is part of the name.
        CHECK(mirror->creature(3).name == "Fang #1");
        CHECK(mirror->creature(0).ratings == Ratings{5, 3, 4});
    }

    TEST_CASE("format: comments, blanks, CRLF, a byte-order mark, tabs, lines in any order") {
        std::string error;
        const auto set = CreatureSet::parse(
            "\xEF\xBB\xBF# heading\r\n\r\n  start\tBAAB  abab  \r\nB\t2 3 4   Big  Beast \r\n"
            "   # indented comment\r\nA 8 8 1 Ant\r\nset  My set \r\n",
            "t.txt", &error);
        REQUIRE_MESSAGE(set, error);
        CHECK(set->name() == "My set");
        CHECK_FALSE(set->dice());
        REQUIRE(set->size() == 2);
        CHECK(set->creature(0).letter == 'B');
        CHECK(set->creature(0).name == "Big  Beast");
        CHECK(set->creature(1).ratings == Ratings{8, 8, 1});
        // In cell order; letters in either case, repeats allowed.
        CHECK(set->start(0) == std::array<std::uint8_t, 4>{0, 1, 1, 0});
        CHECK(set->start(1) == std::array<std::uint8_t, 4>{1, 0, 1, 0});
        CHECK(CreatureSet::parse(kMinimal, "t.txt", &error));
    }

    TEST_CASE("every validation rule of §16.2 with its message") {
        const std::string start = "start AAAA AAAA\n";
        const std::pair<std::string, std::string> cases[] = {
            // 1. size, UTF-8, line length, control characters
            {std::string(64 * 1024 + 1, '#'), "CreatureFile t.txt: larger than 64 KiB"},
            {start + "A 1 1 1 Caf\xC3\n", "CreatureFile t.txt: not valid UTF-8"},
            {start + "A 1 1 1 \xED\xA0\x80\n", "CreatureFile t.txt: not valid UTF-8"},
            {start + "A 1 1 1 \xC0\xAF\n", "CreatureFile t.txt: not valid UTF-8"},
            {start + "A 1 1 1 " + std::string(193, 'x') + "\n",
             "CreatureFile t.txt:2: line longer than 200 characters"},
            {start + "A 1 1 1 Ant\x07\n", "CreatureFile t.txt:2: control character 0x07"},
            {start + "A 1 1 1 A\rnt\n", "CreatureFile t.txt:2: control character 0x0D"},
            // 2. line kinds and fields
            {start + "A 1 1 Ant\n",
             "CreatureFile t.txt:2: a creature line has five fields: <letter> <attack> "
             "<defence> <movement> <name>"},
            {start + "A 1 1 1\n",
             "CreatureFile t.txt:2: a creature line has five fields: <letter> <attack> "
             "<defence> <movement> <name>"},
            {start + "Set Foo\nA 1 1 1 Ant\n",
             "CreatureFile t.txt:2: unknown line: 'Set' is neither a creature letter nor set, "
             "dice or start"},
            // 3. letters
            {start + "a 1 1 1 Ant\n",
             "CreatureFile t.txt:2: creature letter 'a' is not an upper-case A-Z"},
            {start + "1 1 1 1 Ant\n",
             "CreatureFile t.txt:2: creature letter '1' is not an upper-case A-Z"},
            {start + "A 1 1 1 Ant\n\nA 2 2 2 Ant again\n",
             "CreatureFile t.txt:4: creature letter A already defined on line 2"},
            {start, "CreatureFile t.txt: no creature"},
            // 4. ranges
            {start + "A 9 1 1 Ant\n", "CreatureFile t.txt:2: attack 9 out of range 1-8"},
            {start + "A 1 0 1 Ant\n", "CreatureFile t.txt:2: defence 0 out of range 1-8"},
            {start + "A 1 1 0 Ant\n", "CreatureFile t.txt:2: movement 0 out of range 1-4"},
            {start + "A 1 1 5 Ant\n", "CreatureFile t.txt:2: movement 5 out of range 1-4"},
            {start + "A 99999999999999 1 1 Ant\n",
             "CreatureFile t.txt:2: attack 99999999999999 out of range 1-8"},
            {start + "A -1 1 1 Ant\n",
             "CreatureFile t.txt:2: attack '-1' is not an unsigned decimal integer"},
            {start + "A 1 x 1 Ant\n",
             "CreatureFile t.txt:2: defence 'x' is not an unsigned decimal integer"},
            // 5. keywords
            {start + "dice d12\nA 1 1 1 Ant\n",
             "CreatureFile t.txt:2: dice needs one model: pools, d20, 2d10 or split-d6, got "
             "'d12'"},
            {start + "dice POOLS\nA 1 1 1 Ant\n",
             "CreatureFile t.txt:2: dice needs one model: pools, d20, 2d10 or split-d6, got "
             "'POOLS'"},
            {start + "dice\nA 1 1 1 Ant\n",
             "CreatureFile t.txt:2: dice needs one model: pools, d20, 2d10 or split-d6, got ''"},
            {start + "set\nA 1 1 1 Ant\n", "CreatureFile t.txt:2: set needs a name"},
            {start + "set a\nset b\nA 1 1 1 Ant\n",
             "CreatureFile t.txt:3: a second set line (the first is line 2)"},
            {start + "dice pools\ndice d20\nA 1 1 1 Ant\n",
             "CreatureFile t.txt:3: a second dice line (the first is line 2)"},
            {start + start + "A 1 1 1 Ant\n",
             "CreatureFile t.txt:2: a second start line (the first is line 1)"},
            // 6. start
            {"A 1 1 1 Ant\n", "CreatureFile t.txt: no start line"},
            {"start AAA AAAA\nA 1 1 1 Ant\n",
             "CreatureFile t.txt:1: start needs two groups of four letters (player 1's, player "
             "2's), got 'AAA AAAA'"},
            {"start AAAA\nA 1 1 1 Ant\n",
             "CreatureFile t.txt:1: start needs two groups of four letters (player 1's, player "
             "2's), got 'AAAA'"},
            {"start AAAA AAAA AAAA\nA 1 1 1 Ant\n",
             "CreatureFile t.txt:1: start needs two groups of four letters (player 1's, player "
             "2's), got 'AAAA AAAA AAAA'"},
            {"A 1 1 1 Ant\nstart AAAA AAbA\n",
             "CreatureFile t.txt:2: start letter 'b' is not a creature of the file"},
        };
        for (const auto& c : cases) {
            CAPTURE(c.first);
            CHECK(parseError(c.first) == c.second);
        }
    }

    TEST_CASE("loading: unreadable files, size limit, and a failed load changes nothing") {
        std::string error;
        CHECK_FALSE(CreatureSet::load("/nonexistent/set.txt", &error));
        CHECK(error ==
              "CreatureFile /nonexistent/set.txt: cannot be read (No such file or "
              "directory)");
        const testing::TempDir dir;
        CHECK_FALSE(CreatureSet::load(dir.str(), &error));
        CHECK(error.starts_with("CreatureFile " + dir.str() + ": cannot be read"));
        const std::string big = dir.str() + "/big.txt";
        std::ofstream(big) << kMinimal << std::string(70000, '#');
        CHECK_FALSE(CreatureSet::load(big, &error));
        CHECK(error == "CreatureFile " + big + ": larger than 64 KiB");
        // A FIFO that nobody writes to reads as empty at once; opening it used to wait for
        // a writer for ever (the test would hang until its time-out).
        const std::string fifo = dir.str() + "/fifo";
        REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
        CHECK_FALSE(CreatureSet::load(fifo, &error));
        CHECK(error == "CreatureFile " + fifo + ": no creature");

        RuleOptions o;
        REQUIRE_FALSE(o.set("CreatureFile", kMirrorFile));
        const auto before = o.creatureFile;
        const auto failed = o.set("creaturefile", big);
        REQUIRE(failed);
        CHECK(*failed == "CreatureFile " + big + ": larger than 64 KiB");
        CHECK(o.creatureFile == before);
        // The empty value (as a GUI sends it) goes back to the ruleset's creatures.
        REQUIRE_FALSE(o.set("CreatureFile", "<empty>"));
        CHECK(o.creatureFile == nullptr);
    }

    TEST_CASE("the set replaces the ruleset's: letters, ratings, startpos, DFEN, fingerprints") {
        const Rules kelly = Rules::preset(Ruleset::Kelly);
        const Rules mirror = withFile(Ruleset::Kelly, kMirrorFile);
        CHECK(mirror.fromCreatureFile());
        CHECK_FALSE(kelly.fromCreatureFile());
        CHECK(mirror.letters() == "WBDFA");
        CHECK(mirror.startDfen() == "./............/.WBDF..fdbw. 1 2 0 1");
        CHECK(Position::startpos(mirror).dfen() == mirror.startDfen());
        CHECK(kelly.startDfen() == Position::startDfen(Ruleset::Kelly));
        CHECK(Rules::preset(Ruleset::Holochess).startDfen() ==
              Position::startDfen(Ruleset::Holochess));
        CHECK(mirror.ratings(static_cast<Creature>(0)) == Ratings{5, 3, 4});
        CHECK(mirror.pieceOf('w') == Piece(Player::Two, static_cast<Creature>(0)));
        CHECK_FALSE(mirror.pieceOf('S'));
        CHECK_FALSE(mirror.pieceOf('.'));
        CHECK(mirror.letter(Piece(Player::One, static_cast<Creature>(4))) == 'A');

        std::string error;
        CHECK_FALSE(Position::fromDfen("./S.........../............ 1 2 0 1", mirror, &error));
        CHECK(error == "DFEN cells: 'S' on b1 is not a creature letter (WBDFA, wbdfa) or '.'");
        CHECK_FALSE(Position::fromDfen("./W.........../............ 1 2 0 1", kelly, &error));
        CHECK(error ==
              "DFEN cells: 'W' on b1 is not a creature letter (SMGHTNKL, smghtnkl) or '.'");
        const auto pos = Position::fromDfen("A/Wb.........f/.....D...... 2 1 3 7", mirror, &error);
        REQUIRE_MESSAGE(pos, error);
        CHECK(pos->dfen() == "A/Wb.........f/.....D...... 2 1 3 7");
        CHECK(pos->key() == pos->computeKey());

        // Tables of one set are never read for another, nor for the ruleset's own creatures;
        // the same file under two rule mixes differs as the rule mixes do.
        const Rules kellyFile = withFile(Ruleset::Kelly, kKellyFile);
        CHECK(kellyFile.gameFingerprint() != kelly.gameFingerprint());
        CHECK(mirror.gameFingerprint() != kellyFile.gameFingerprint());
        CHECK(mirror.gameFingerprint() != kelly.gameFingerprint());
        CHECK(withFile(Ruleset::Kelly, kMirrorFile, {"SafeOuterOrbit=true"}).gameFingerprint() !=
              mirror.gameFingerprint());
        CHECK(kellyFile.materialKey() != kelly.materialKey());
        CHECK(kellyFile.describe().ends_with(" CreatureFile=" + kKellyFile));
    }

    TEST_CASE("the dice in force: Dice, else the file's dice line, else the ruleset's") {
        CHECK(withFile(Ruleset::Kelly, kMirrorFile).dice() == DiceModel::D20);
        CHECK(withFile(Ruleset::Holochess, kMirrorFile).dice() == DiceModel::D20);
        CHECK(withFile(Ruleset::Kelly, kMirrorFile, {"Dice=2d10"}).dice() == DiceModel::TwoD10);
        CHECK(withFile(Ruleset::DalsianClassic, kKellyFile).dice() == DiceModel::Pools);
        const testing::TempDir dir;
        const std::string noDice = dir.str() + "/nodice.txt";
        std::ofstream(noDice) << kMinimal;
        CHECK(withFile(Ruleset::Dalsian, noDice).dice() == DiceModel::TwoD10);
        CHECK(withFile(Ruleset::Holochess, noDice).dice() == DiceModel::SplitD6);
        // Everything else follows the ruleset.
        const Rules h = withFile(Ruleset::Holochess, kMirrorFile);
        CHECK(h.centreStraight());
        CHECK(h.blockedPush() == BlockedPush::Kill);
        // The odds are the file's ratings under the dice in force.
        const Rules::Combat& fangOnBulwark =
            h.combat(static_cast<Creature>(3), static_cast<Creature>(1));
        CHECK(fangOnBulwark.exact.counts == attackOdds(DiceModel::D20, 7, 8).counts);
    }

    TEST_CASE("CreatureFile is kept when Ruleset is set, and is a rule option") {
        RuleOptions o;
        REQUIRE_FALSE(o.set("CreatureFile", kMirrorFile));
        REQUIRE_FALSE(o.set("Dice", "2d10"));
        REQUIRE_FALSE(o.set("Ruleset", "dalsian"));
        REQUIRE(o.creatureFile);
        CHECK(o.creatureFile->name() == "Mirror Raiders");
        CHECK_FALSE(o.dice);
        CHECK(RuleOptions::isRuleOption("creaturefile"));
    }

    TEST_CASE("perft: the Kelly file plays as the rulesets' own creatures (PERFT.md)") {
        const auto counts = [](const Rules& rules, int depth) {
            return perft(Position::startpos(rules), depth);
        };
        const Rules kelly = withFile(Ruleset::Kelly, kKellyFile);
        CHECK(counts(kelly, 1) == 10);
        CHECK(counts(kelly, 2) == 175);
        CHECK(counts(kelly, 3) == 4611);
        CHECK(counts(kelly, 4) == 140147);
        // The file says pools: the dalsians' own dice come back with an explicit Dice.
        const Rules classic = withFile(Ruleset::DalsianClassic, kKellyFile, {"Dice=d20"});
        CHECK(counts(classic, 4) == 140150);
        const Rules dalsian = withFile(Ruleset::Dalsian, kKellyFile, {"Dice=2d10"});
        CHECK(counts(dalsian, 4) == 137953);
        // melee (PERFT.md) under the Kelly file.
        const auto melee = Position::fromDfen("S/Hk...mN....l/tG.........g 1 2 0 1", kelly);
        REQUIRE(melee);
        CHECK(perft(*melee, 3) == 9005);
    }

    TEST_CASE("perft: Mirror Raiders (this engine's numbers, docs/rules.md)") {
        const Rules mirror = withFile(Ruleset::Kelly, kMirrorFile);
        const Position start = Position::startpos(mirror);
        CHECK(perft(start, 1) == 25);
        CHECK(perft(start, 2) == 680);
        CHECK(perft(start, 3) == 14923);
        CHECK(perft(start, 4) == 373350);
        const Rules holochess = withFile(Ruleset::Holochess, kMirrorFile);
        CHECK(perft(Position::startpos(holochess), 4) == 69038);
    }
}
