// The option registry: what `dei` announces, how values are checked and where they go, in
// process (the engine's answers to setoption are in the session suite).
#include <doctest/doctest.h>

#include <iterator>
#include <string>

#include "options.h"

using namespace dejarik;
using namespace dejarik::protocol;

namespace {

const Option& named(std::string_view name) {
    const Option* option = findOption(name);
    REQUIRE_MESSAGE(option, name);
    return *option;
}

// Settings with every value away from its default, through the registry.
Settings scrambled() {
    Settings s;
    for (const auto& [name, value] : {std::pair{"Ruleset", "holochess"},
                                      {"Dice", "d20"},
                                      {"SafeOuterOrbit", "true"},
                                      {"KingOfTheCentre", "false"},
                                      {"CentreStraight", "false"},
                                      {"BlockedPush", "stay"},
                                      {"CentreWin", "7"},
                                      {"DrawTurns", "9"},
                                      {"Hash", "3"},
                                      {"Threads", "5"},
                                      {"MultiPV", "4"},
                                      {"Contempt", "35"},
                                      {"Opponent", "greedy"},
                                      {"AttackShare", "60"},
                                      {"Edge", "100"},
                                      {"Seed", "11"},
                                      {"Player", "random"}})
        REQUIRE_FALSE(setOption(s, named(name), value));
    return s;
}

// What the string option of the test below was last set to.
std::string storedText;

}  // namespace

TEST_SUITE("options") {
    TEST_CASE("the registry announces every option of PROTOCOL.md and Player, in order") {
        const char* names[] = {
            "Ruleset",        "Dice",         "SafeOuterOrbit", "KingOfTheCentre",
            "CentreStraight", "BlockedPush",  "CentreWin",      "DrawTurns",
            "Setup",          "CreatureFile", "RaysOfDeath",    "Hash",
            "Threads",        "MultiPV",      "Contempt",       "Opponent",
            "EndingsAgainst", "AttackShare",  "Edge",           "Clear Hash",
            "Seed",           "Player",       "SetupPlayer",    "Tables",
            "TablePath",      "TableGen",     "TableGenNice",   "EvalFile"};
        REQUIRE(options().size() == std::size(names));
        for (std::size_t i = 0; i < std::size(names); ++i)
            CHECK(options()[i].spec.name == names[i]);
        CHECK(optionLine(named("ruleset").spec) ==
              "option name Ruleset type combo default kelly var kelly var dalsian-classic var "
              "dalsian var holochess var courtier");
        CHECK(optionLine(named("CENTREWIN").spec) ==
              "option name CentreWin type spin default -1 min -1 max 20");
        CHECK(optionLine(named("clear hash").spec) == "option name Clear Hash type button");
        CHECK(optionLine(named("tablepath").spec) ==
              "option name TablePath type string default <empty>");
        CHECK(optionLine(named("creaturefile").spec) ==
              "option name CreatureFile type string default <empty>");
        CHECK(optionLine(named("raysofdeath").spec) ==
              "option name RaysOfDeath type check default false");
        CHECK(optionLine(named("seed").spec) ==
              "option name Seed type spin default 0 min 0 max 4294967295");
        CHECK(findOption("Clear") == nullptr);
        CHECK(findOption("Hash ") == nullptr);
    }

    TEST_CASE("the rule options are the rules' own, and only they make new rules") {
        for (const RuleOptionSpec& rule : ruleOptionSpecs()) {
            const Option& option = named(rule.spec.name);
            CHECK(option.rule == &rule);
            CHECK(option.effect == Effect::NewRules);
            CHECK(RuleOptions::isRuleOption(rule.spec.name));
        }
        for (const Option& option : options())
            if (!option.rule) CHECK(option.effect != Effect::NewRules);
        CHECK_FALSE(RuleOptions::isRuleOption("Hash"));
        // PROTOCOL.md: Ruleset sets the five combos back to ruleset and CentreWin to -1;
        // DrawTurns, Setup, CreatureFile and RaysOfDeath keep their values.
        for (const RuleOptionSpec& rule : ruleOptionSpecs()) {
            INFO(rule.spec.name);
            CHECK(rule.resetByRuleset ==
                  (rule.spec.name != "Ruleset" && rule.spec.name != "DrawTurns" &&
                   rule.spec.name != "Setup" && rule.spec.name != "CreatureFile" &&
                   rule.spec.name != "RaysOfDeath"));
        }
    }

    TEST_CASE("values are checked against the option's type and range") {
        Settings s;
        for (const auto& bad : {std::pair{"Hash", "0"},
                                {"Hash", "65537"},
                                {"Hash", "12x"},
                                {"Hash", ""},
                                {"Seed", "4294967296"},
                                {"Seed", "-1"},
                                {"CentreWin", "-2"},
                                {"Dice", "d12"},
                                {"Player", "smart"},
                                {"SafeOuterOrbit", "yes"}}) {
            INFO(bad.first << " " << bad.second);
            CHECK(setOption(s, named(bad.first), bad.second));
        }
        CHECK(*setOption(s, named("Hash"), "0") ==
              "invalid value '0' for option Hash (expected a whole number from 1 to 65536)");
        CHECK(*setOption(s, named("dice"), "d12") ==
              "invalid value 'd12' for option Dice (expected one of ruleset, pools, d20, 2d10, "
              "split-d6)");
        CHECK(*setOption(s, named("Hash"), std::nullopt) == "option Hash needs a value");
        CHECK(*setOption(s, named("Clear Hash"), "yes") ==
              "option Clear Hash is a button and takes no value");
        CHECK_FALSE(setOption(s, named("Clear Hash"), std::nullopt));
        // Every refusal above left the settings alone.
        CHECK(s.rules == RuleOptions{});
        CHECK(s.search.hashMiB == Settings{}.search.hashMiB);
        CHECK(s.seed == 0);
    }

    TEST_CASE("accepted values land where the option says, in any letter case") {
        Settings s;
        CHECK_FALSE(setOption(s, named("hash"), "65536"));
        CHECK(s.search.hashMiB == 65536);
        CHECK_FALSE(setOption(s, named("contempt"), "30"));
        CHECK(s.play.contempt == 0.3);
        CHECK(setOption(s, named("Contempt"), "91"));
        CHECK_FALSE(setOption(s, named("opponent"), "Random"));
        CHECK(s.play.opponent == search::Baseline::Random);
        CHECK_FALSE(setOption(s, named("Opponent"), "minimax"));
        CHECK_FALSE(s.play.opponent);
        CHECK(setOption(s, named("Opponent"), "search"));
        CHECK_FALSE(setOption(s, named("Seed"), "4294967295"));
        CHECK(s.seed == 4294967295u);
        CHECK_FALSE(setOption(s, named("PLAYER"), "Greedy"));
        CHECK(s.player == search::Baseline::Greedy);
        CHECK_FALSE(setOption(s, named("Player"), "search"));
        CHECK_FALSE(s.player);
        CHECK(setOption(s, named("Player"), "minimax"));
        CHECK_FALSE(setOption(s, named("Dice"), "D20"));
        CHECK(s.rules.dice == DiceModel::D20);
        CHECK_FALSE(setOption(s, named("DrawTurns"), "12"));
        CHECK_FALSE(setOption(s, named("Ruleset"), "Dalsian"));
        CHECK(s.rules.ruleset == Ruleset::Dalsian);
        CHECK_FALSE(s.rules.dice);       // reset by Ruleset
        CHECK(s.rules.drawTurns == 12);  // kept
    }

    TEST_CASE("every option's default is the default of what it sets") {
        Settings s = scrambled();
        for (const Option& option : options()) {
            const auto byDefault = option.spec.defaultValue();
            if (!byDefault) continue;  // a button
            INFO(option.spec.name);
            CHECK_FALSE(setOption(s, option, *byDefault));
        }
        const Settings defaults;
        CHECK(s.rules == defaults.rules);
        CHECK(s.search.hashMiB == defaults.search.hashMiB);
        CHECK(s.search.threads == defaults.search.threads);
        CHECK(s.search.multiPv == defaults.search.multiPv);
        CHECK(s.play == defaults.play);  // contempt, opponent, attack share, edge
        CHECK(s.seed == defaults.seed);
        CHECK(s.player == defaults.player);
    }

    TEST_CASE("engine options with a command-line flag") {
        CHECK(named("Hash").flag == "hash");
        CHECK(named("Threads").flag == "threads");
        CHECK(named("MultiPV").flag == "multipv");
        for (const Option& option : options())
            if (!option.flag.empty()) CHECK(!option.help.empty());
    }

    TEST_CASE("check and string options, which no option uses yet") {
        const OptionSpec ponder = OptionSpec::check("Ponder", false);
        CHECK(optionLine(ponder) == "option name Ponder type check default false");
        CHECK(optionLine(OptionSpec::check("Log", true)) ==
              "option name Log type check default true");
        std::string error;
        const auto on = checkOptionValue(ponder, "TRUE", &error);
        REQUIRE(on);
        CHECK(on->text == "true");
        CHECK(on->number == 1);
        CHECK(checkOptionValue(ponder, "false", &error)->number == 0);
        CHECK_FALSE(checkOptionValue(ponder, "yes", &error));
        CHECK(error == "invalid value 'yes' for option Ponder (expected true or false)");
        CHECK_FALSE(checkOptionValue(ponder, std::nullopt, &error));

        // A string takes any text, kept as given; an empty one is announced and set as
        // <empty>, the UCI habit.
        const Option path{OptionSpec::string("TablePath", ""),
                          Effect::None,
                          nullptr,
                          [](Settings&, const OptionValue& v) { storedText = v.text; },
                          {},
                          {}};
        CHECK(optionLine(path.spec) == "option name TablePath type string default <empty>");
        CHECK(optionLine(OptionSpec::string("EvalFile", "weights.txt")) ==
              "option name EvalFile type string default weights.txt");
        Settings s;
        CHECK_FALSE(setOption(s, path, "/data/Tables With Spaces"));
        CHECK(storedText == "/data/Tables With Spaces");
        CHECK_FALSE(setOption(s, path, "<empty>"));
        CHECK(storedText.empty());
        CHECK(*setOption(s, path, std::nullopt) == "option TablePath needs a value");
        CHECK(expectedValue(path.spec) == "any text");
    }
}
