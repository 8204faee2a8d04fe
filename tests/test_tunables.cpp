// The evaluation's weights (eval/tunables.h): the table, setting by name, reading and
// writing them as text and files.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <type_traits>

#include "random_tunables.h"
#include "tunables.h"

using namespace dejarik;
using testing::randomTunables;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("tunables: one row per weight, defaults inside their ranges") {
    std::set<std::string_view> names;
    for (const eval::TunableSpec& spec : eval::tunableSpecs()) {
        CAPTURE(spec.name);
        CHECK(names.insert(spec.name).second);
        // Exactly one place: a member of Tunables, or a member of one of its EvalWeights.
        const int places = (spec.real != nullptr) + (spec.whole != nullptr) +
                           (spec.group != nullptr && spec.groupReal != nullptr) +
                           (spec.group != nullptr && spec.groupWhole != nullptr);
        CHECK(places == 1);
        CHECK((spec.group == nullptr) == (spec.groupReal == nullptr && spec.groupWhole == nullptr));
        CHECK(spec.min < spec.max);
        CHECK(spec.defaultValue() >= spec.min);
        CHECK(spec.defaultValue() <= spec.max);
        CHECK(!spec.what.empty());
        CHECK(eval::findTunable(spec.name) == &spec);
        CHECK(eval::kDefaultTunables.get(spec.name) == spec.defaultValue());
    }
    // Every member has its row: from all bits zero, setting every row's default gives the
    // defaults (no default is zero, so a member without a row would show).
    static_assert(std::is_trivially_copyable_v<eval::Tunables>);
    eval::Tunables t;
    const std::array<unsigned char, sizeof t> zeros{};
    std::memcpy(&t, zeros.data(), sizeof t);
    CHECK_FALSE(t == eval::kDefaultTunables);
    for (const eval::TunableSpec& spec : eval::tunableSpecs())
        spec.set(t, spec.defaultValue());
    CHECK(t == eval::kDefaultTunables);
    CHECK(eval::findTunable("noSuchWeight") == nullptr);
    CHECK_FALSE(eval::kDefaultTunables.get("noSuchWeight"));
    // Today's weights.
    CHECK(eval::kDefaultTunables.base.calibration == 0.5);
    CHECK(eval::kDefaultTunables.holdWin == 6.0);
}

TEST_CASE("tunables: set by name checks the name, the number and the range") {
    eval::Tunables t;
    CHECK_FALSE(t.set("secondAttack", "0.25"));
    CHECK(t.base.secondAttack == 0.25);
    CHECK_FALSE(t.set("mobilityCap", "12"));
    CHECK(t.base.mobilityCap == 12);
    CHECK_FALSE(t.set("exposure", "1e-2"));
    CHECK(t.base.exposure == 0.01);
    // A ruleset's own weights by their prefixed names, each in its own EvalWeights.
    CHECK_FALSE(t.set("holochessMobilityCap", "7"));
    CHECK(t.holochess.mobilityCap == 7);
    CHECK_FALSE(t.set("classicExposure", "0.125"));
    CHECK(t.classic.exposure == 0.125);
    CHECK(t.base.mobilityCap == 12);
    CHECK(t.base.exposure == 0.01);
    CHECK(t.evalWeights(Ruleset::Holochess) == t.holochess);
    CHECK(t.evalWeights(Ruleset::DalsianClassic) == t.classic);
    CHECK(t.evalWeights(Ruleset::Dalsian) == t.base);
    REQUIRE(eval::findTunable("classicSlopeFloor"));
    CHECK(eval::findTunable("classicSlopeFloor")->what ==
          "dalsian-classic: least W (1 - W) in the logit's slope");
    CHECK(eval::findTunable("holochessSlopeFloor")->min == 0.01);
    const eval::Tunables before = t;
    const auto error = [&](const char* name, const char* value) {
        const auto e = t.set(name, value);
        CHECK(t == before);  // nothing set
        return e.value_or("");
    };
    CHECK(contains(error("secondAtack", "0.5"), "unknown weight 'secondAtack'"));
    CHECK(contains(error("secondAttack", "half"), "bad value 'half' for secondAttack"));
    CHECK(contains(error("secondAttack", "0.5x"), "bad value '0.5x'"));
    CHECK(contains(error("secondAttack", ""), "bad value ''"));
    CHECK(contains(error("secondAttack", "1.5"), "a number in [0, 1]"));
    CHECK(contains(error("secondAttack", "-0.1"), "[0, 1]"));
    CHECK(contains(error("secondAttack", "nan"), "bad value 'nan'"));
    CHECK(contains(error("holdWin", "inf"), "bad value 'inf'"));
    CHECK(contains(error("mobilityCap", "7.5"), "an integer in [0, 24]"));
    CHECK(contains(error("quietHorizon", "101"), "an integer in [1, 100]"));
    CHECK(contains(error("slopeFloor", "0"), "[0.01, 0.25]"));
    // From numbers, the same checks.
    CHECK_FALSE(t.set("holdWin", 4.5));
    CHECK(t.holdWin == 4.5);
    CHECK_FALSE(t.set("quietHorizon", 20.0));
    CHECK(t.quietHorizon == 20);
    const eval::Tunables numbers = t;
    CHECK(t.set("holdWin", 12.5) == "bad value '12.5' for holdWin (a number in [0, 12])");
    CHECK(t.set("quietHorizon", 20.5) ==
          "bad value '20.5' for quietHorizon (an integer in [1, 100])");
    CHECK(contains(t.set("holdWin", std::nan("")).value_or(""), "bad value"));
    CHECK(t.set("holdWinn", 1.0) == "unknown weight 'holdWinn'");
    CHECK(t == numbers);
}

TEST_CASE("tunables: written and read back to the same values") {
    std::mt19937_64 rng(3);
    for (int i = 0; i < 50; ++i) {
        const eval::Tunables t = randomTunables(rng);
        eval::Tunables read;
        const std::string text = eval::formatTunables(t);
        CAPTURE(text);
        REQUIRE_FALSE(eval::parseTunables(text, "written", read));
        CHECK(read == t);
    }
    // The defaults are written as they are in the source.
    const std::string text = eval::formatTunables(eval::kDefaultTunables);
    CHECK(contains(text, "\nsecondAttack 0.5 "));
    CHECK(contains(text, "\nmobilityPerCell 0.004 "));
    CHECK(contains(text, "\nholdWin 6 "));
}

TEST_CASE("tunables: text with comments, on top of what is there") {
    eval::Tunables t;
    t.base.exposure = 0.3;
    const char* text =
        "# a tuner's file\n"
        "\n"
        "  secondAttack   0.25   # tabs and spaces\n"
        "\tholdWin\t4\r\n"
        "calibration 0.7";  // no newline at the end
    REQUIRE_FALSE(eval::parseTunables(text, "weights.txt", t));
    CHECK(t.base.secondAttack == 0.25);
    CHECK(t.holdWin == 4);
    CHECK(t.base.calibration == 0.7);
    CHECK(t.base.exposure == 0.3);  // not named: kept
    CHECK(t.base.reachAttack == eval::kDefaultTunables.base.reachAttack);
    CHECK_FALSE(eval::parseTunables("", "empty", t));
}

TEST_CASE("tunables: a bad line is one error naming the file, the line and what is wrong") {
    const auto error = [](const char* text) {
        eval::Tunables t;
        t.base.exposure = 0.3;
        const auto e = eval::parseTunables(text, "w.txt", t);
        eval::Tunables expected;
        expected.base.exposure = 0.3;
        CHECK(t == expected);  // left as it was, even for the lines before the bad one
        REQUIRE(e);
        CHECK(e->find('\n') == std::string::npos);
        return *e;
    };
    CHECK(error("secondAttack 0.25\nnoSuchWeight 1\n") == "w.txt:2: unknown weight 'noSuchWeight'");
    CHECK(contains(error("# x\n\nsecondAttack 2\n"), "w.txt:3: bad value '2' for secondAttack"));
    CHECK(error("secondAttack\n") == "w.txt:1: expected 'name value', got 'secondAttack'");
    CHECK(error("secondAttack 0.1 0.2\n") ==
          "w.txt:1: expected 'name value', got 'secondAttack 0.1 0.2'");
    CHECK(error("secondAttack=0.1\n") == "w.txt:1: expected 'name value', got 'secondAttack=0.1'");
    CHECK(error("exposure 0.1\nexposure 0.2\n") == "w.txt:2: 'exposure' given twice");
}

TEST_CASE("tunables: loaded from a file, the defaults for what it leaves out") {
    const auto path =
        (std::filesystem::temp_directory_path() / "dejarik-test-tunables.txt").string();
    {
        std::ofstream out(path);
        out << "reachAttack 0.5\n";
    }
    eval::Tunables t;
    t.base.exposure = 0.3;
    REQUIRE_FALSE(eval::loadTunables(path, t));
    eval::Tunables expected;
    expected.base.reachAttack = 0.5;
    CHECK(t == expected);
    {
        std::ofstream out(path);
        out << eval::formatTunables(t);
    }
    eval::Tunables again;
    REQUIRE_FALSE(eval::loadTunables(path, again));
    CHECK(again == t);
    {
        std::ofstream out(path);
        out << "reachAttack 0.5\nreachAttack 0.6\n";
    }
    CHECK(eval::loadTunables(path, t) == path + ":2: 'reachAttack' given twice");
    {
        // A line that is no weight (a binary, a wrong file) is shown cut and printable.
        std::ofstream out(path);
        out << std::string(5000, 'x') << "\x01\xff 1\n";
    }
    const auto junk = eval::loadTunables(path, t);
    REQUIRE(junk);
    CHECK(*junk == path + ":1: unknown weight '" + std::string(40, 'x') + "...'");
    std::filesystem::remove(path);
    const auto missing = eval::loadTunables(path, t);
    REQUIRE(missing);
    CHECK(contains(*missing, "cannot read " + path));
    CHECK(missing->find('\n') == std::string::npos);
    const auto directory = eval::loadTunables(std::filesystem::temp_directory_path().string(), t);
    REQUIRE(directory);
    CHECK(contains(*directory, "a directory"));
    // An endless device is refused at the bound instead of read until the memory is gone.
    const auto endless = eval::loadTunables("/dev/zero", t);
    REQUIRE(endless);
    CHECK(*endless == "cannot read /dev/zero: larger than 256 KiB");
    CHECK(t == expected);
}
