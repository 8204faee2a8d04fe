#include "protocol/options.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace dejarik::protocol {

std::string lowerCase(std::string_view s) {
    std::string r(s);
    std::transform(r.begin(), r.end(), r.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return r;
}

const std::vector<OptionSpec>& optionSpecs() {
    static const std::vector<OptionSpec> specs = [] {
        const std::vector<std::string_view> tristate = {"ruleset", "true", "false"};
        return std::vector<OptionSpec>{
            {"Ruleset",
             OptionType::Combo,
             "kelly",
             0,
             0,
             {"kelly", "dalsian-classic", "dalsian", "holochess"},
             true},
            {"Dice",
             OptionType::Combo,
             "ruleset",
             0,
             0,
             {"ruleset", "pools", "d20", "2d10", "split-d6"},
             true},
            {"SafeOuterOrbit", OptionType::Combo, "ruleset", 0, 0, tristate, true},
            {"KingOfTheCentre", OptionType::Combo, "ruleset", 0, 0, tristate, true},
            {"CentreStraight", OptionType::Combo, "ruleset", 0, 0, tristate, true},
            {"BlockedPush",
             OptionType::Combo,
             "ruleset",
             0,
             0,
             {"ruleset", "stay", "kill", "kill-on-push"},
             true},
            {"CentreWin", OptionType::Spin, "-1", -1, 20, {}, true},
            {"DrawTurns", OptionType::Spin, "40", 0, 1000, {}, true},
            {"Hash", OptionType::Spin, "64", 1, 65536, {}, false},
            {"Threads", OptionType::Spin, "1", 1, 256, {}, false},
            {"MultiPV", OptionType::Spin, "1", 1, 64, {}, false},
            {"Clear Hash", OptionType::Button, "", 0, 0, {}, false},
            {"Seed", OptionType::Spin, "0", 0, 4294967295, {}, false},
            {"Player", OptionType::Combo, "search", 0, 0, {"search", "greedy", "random"}, false},
        };
    }();
    return specs;
}

const OptionSpec* findOption(std::string_view name) {
    const std::string wanted = lowerCase(name);
    for (const auto& spec : optionSpecs())
        if (lowerCase(spec.name) == wanted) return &spec;
    return nullptr;
}

std::string optionLine(const OptionSpec& spec) {
    std::string s = "option name " + std::string(spec.name) + " type ";
    switch (spec.type) {
        case OptionType::Combo:
            s += "combo default " + std::string(spec.defaultValue);
            for (const auto v : spec.values)
                s += " var " + std::string(v);
            break;
        case OptionType::Spin:
            s += "spin default " + std::string(spec.defaultValue) + " min " +
                 std::to_string(spec.min) + " max " + std::to_string(spec.max);
            break;
        case OptionType::Button:
            s += "button";
            break;
    }
    return s;
}

std::optional<std::int64_t> spinValue(const OptionSpec& spec, std::string_view value,
                                      std::string* error) {
    std::int64_t v = 0;
    const char* begin = value.data();
    const char* end = value.data() + value.size();
    const auto [stop, ec] = std::from_chars(begin, end, v);
    if (value.empty() || ec != std::errc() || stop != end || v < spec.min || v > spec.max) {
        if (error)
            *error = "invalid value '" + std::string(value) + "' for option " +
                     std::string(spec.name) + " (expected a whole number from " +
                     std::to_string(spec.min) + " to " + std::to_string(spec.max) + ")";
        return std::nullopt;
    }
    return v;
}

std::optional<std::string> comboValue(const OptionSpec& spec, std::string_view value,
                                      std::string* error) {
    const std::string v = lowerCase(value);
    for (const auto choice : spec.values)
        if (choice == v) return v;
    if (error) {
        std::string choices;
        for (const auto choice : spec.values) {
            if (!choices.empty()) choices += ", ";
            choices += choice;
        }
        *error = "invalid value '" + std::string(value) + "' for option " + std::string(spec.name) +
                 " (expected one of " + choices + ")";
    }
    return std::nullopt;
}

}  // namespace dejarik::protocol
