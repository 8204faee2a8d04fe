#include "options.h"

#include <algorithm>
#include <array>
#include <vector>

#include "text.h"

namespace dejarik::protocol {

namespace {

constexpr EngineSettings kDefaults{};

// Each parsed by search::parseBaseline (nothing for the first).
constexpr auto kOpponentNames = search::withBaselines("minimax");
constexpr auto kEndingsNames = search::withBaselines("none");

// The search (the default), then each baseline player in the order the option has always
// listed them.
constexpr std::array<std::string_view, 4> kPlayerNames = {"search", "greedy", "random", "cautious"};
static_assert(!kDefaults.player);
static_assert(std::is_permutation(kPlayerNames.begin() + 1, kPlayerNames.end(),
                                  search::kBaselineNames.begin(), search::kBaselineNames.end()));

constexpr std::array<std::string_view, 2> kSetupPlayerNames = {"search", "random"};

constexpr std::array<Option, 17> kEngineOptions = {{
    {OptionSpec::spin("Hash", kDefaults.search.hashMiB, 1, 65536), Effect::ResizeSearch, nullptr,
     [](Settings& s, const OptionValue& v) { s.search.hashMiB = static_cast<int>(v.number); },
     "hash", "transposition table in MiB"},
    {OptionSpec::spin("Threads", kDefaults.search.threads, 1, 256), Effect::ResizeSearch, nullptr,
     [](Settings& s, const OptionValue& v) { s.search.threads = static_cast<int>(v.number); },
     "threads", "search threads"},
    {OptionSpec::spin("MultiPV", kDefaults.search.multiPv, 1, 64), Effect::ResizeSearch, nullptr,
     [](Settings& s, const OptionValue& v) { s.search.multiPv = static_cast<int>(v.number); },
     "multipv", "show the best K decisions"},
    {OptionSpec::spin("Contempt", static_cast<std::int64_t>(100 * kDefaults.play.contempt), 0, 90),
     Effect::None, nullptr,
     [](Settings& s, const OptionValue& v) { s.play.contempt = v.number / 100.0; }, "contempt",
     "a draw is worth minus this many hundredths of a win to the engine"},
    {OptionSpec::combo("Opponent", kOpponentNames[0], kOpponentNames), Effect::None, nullptr,
     [](Settings& s, const OptionValue& v) {
         s.play.opponent = search::parseBaseline(v.text);  // nothing for minimax
     },
     "opponent", "the search's model of the opponent: minimax, or a baseline player's choices"},
    {OptionSpec::combo("EndingsAgainst", kEndingsNames[0], kEndingsNames),
     Effect::None,
     nullptr,
     [](Settings& s, const OptionValue& v) {
         s.endingsAgainst = search::parseBaseline(v.text);  // nothing for none
     },
     {},
     "with four creatures or fewer, play the decision that is best against this baseline "
     "player, solved exactly with the quiet draw (none: search as always)"},
    {OptionSpec::spin("AttackShare", static_cast<std::int64_t>(100 * kDefaults.play.attackShare), 0,
                      100),
     Effect::None, nullptr,
     [](Settings& s, const OptionValue& v) { s.play.attackShare = v.number / 100.0; },
     "attack-share",
     "the engine attacks, while it can do anything else, only where at least this many "
     "hundredths of the pieces the attack removes are the defender"},
    {OptionSpec::spin("Edge", static_cast<std::int64_t>(100 * kDefaults.play.edge), 0, 300),
     Effect::None, nullptr,
     [](Settings& s, const OptionValue& v) { s.play.edge = v.number / 100.0; }, "edge",
     "the search credits the engine with this many hundredths of a logit at every leaf: "
     "against a weaker player even odds cost it"},
    {OptionSpec::button("Clear Hash"),
     Effect::ClearHash,
     nullptr,
     nullptr,
     {},
     "empties the transposition table"},
    {OptionSpec::spin("Seed", static_cast<std::int64_t>(kDefaults.seed), 0, 4294967295),
     Effect::RestartRandom,
     nullptr,
     [](Settings& s, const OptionValue& v) { s.seed = static_cast<std::uint64_t>(v.number); },
     {},
     "the seed of the baseline players' random numbers"},
    {OptionSpec::combo("Player", kPlayerNames[0], kPlayerNames),
     Effect::None,
     nullptr,
     [](Settings& s, const OptionValue& v) {
         s.player = search::parseBaseline(v.text);  // nothing for search
     },
     {},
     "who answers go: the search, or a baseline player for measurements"},
    {OptionSpec::combo("SetupPlayer", kSetupPlayerNames[kDefaults.randomSetup ? 1 : 0],
                       kSetupPlayerNames),
     Effect::None,
     nullptr,
     [](Settings& s, const OptionValue& v) { s.randomSetup = v.text == kSetupPlayerNames[1]; },
     {},
     "who answers go at a set-up: the search, or a random arrangement (measurements)"},
    {OptionSpec::check("Tables", kDefaults.tables), Effect::ReopenTables, nullptr,
     [](Settings& s, const OptionValue& v) { s.tables = v.number != 0; }, "tables",
     "probe the exact endgame tables (four creatures or fewer; five where generated)"},
    {OptionSpec::string("TablePath", ""), Effect::ReopenTables, nullptr,
     [](Settings& s, const OptionValue& v) { s.tablePath = v.text; }, "table-path",
     "the endgame tables' folder (empty: ~/.cache/dejarik/tables or $XDG_CACHE_HOME's)"},
    {OptionSpec::check("TableGen", kDefaults.tableGen),
     Effect::TableGen,
     nullptr,
     [](Settings& s, const OptionValue& v) { s.tableGen = v.number != 0; },
     {},
     "generate the missing endgame tables in the background from five creatures down"},
    {OptionSpec::spin("TableGenNice", kDefaults.tableGenNice, 0, 19),
     Effect::None,
     nullptr,
     [](Settings& s, const OptionValue& v) { s.tableGenNice = static_cast<int>(v.number); },
     {},
     "the nice value of the table generation started next (0 to 19)"},
    {OptionSpec::string("EvalFile", ""), Effect::LoadEval, nullptr,
     [](Settings& s, const OptionValue& v) { s.evalFile = v.text; }, "eval-file",
     "evaluation weights, `name value` lines (docs/eval.md; empty: the compiled-in ones)"},
}};

}  // namespace

std::span<const Option> options() {
    static const std::vector<Option> all = [] {
        std::vector<Option> list;
        for (const RuleOptionSpec& rule : ruleOptionSpecs())
            list.push_back(Option{rule.spec, Effect::NewRules, &rule, nullptr, {}, {}});
        list.insert(list.end(), kEngineOptions.begin(), kEngineOptions.end());
        return list;
    }();
    return all;
}

const Option* findOption(std::string_view name) {
    for (const Option& option : options())
        if (text::equalIgnoringCase(option.spec.name, name)) return &option;
    return nullptr;
}

std::string optionLine(const OptionSpec& spec) {
    std::string s =
        "option name " + std::string(spec.name) + " type " + std::string(optionTypeName(spec.type));
    if (const auto byDefault = spec.defaultValue()) s += " default " + *byDefault;
    if (spec.type == OptionType::Spin)
        s += " min " + std::to_string(spec.min) + " max " + std::to_string(spec.max);
    for (const auto v : spec.values)
        s += " var " + std::string(v);
    return s;
}

std::optional<std::string> setOption(Settings& settings, const Option& option,
                                     std::optional<std::string_view> value) {
    std::string error;
    const auto checked = checkOptionValue(option.spec, value, &error);
    if (!checked) return error;
    if (option.rule) {
        if (auto refused = settings.rules.refusal(*option.rule, *checked)) return refused;
        if (settings.rules.inactive(*option.rule)) return std::nullopt;  // RULES §14.13
        RuleOptions next = settings.rules;
        if (auto error = option.rule->apply(next, *checked)) return error;
        settings.rules = std::move(next);
    } else if (option.store) {
        option.store(settings, *checked);
    }
    return std::nullopt;
}

}  // namespace dejarik::protocol
