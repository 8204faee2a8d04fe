// The options the engine offers (PROTOCOL.md "Options every engine of this project offers",
// plus `Player`), in one registry: `dei` lists it, `setoption` sets it and the command line
// takes its flags from it. Each option carries its declaration (name, type, default, range
// or choices), where its value goes (Settings) and what the engine does once it changed
// (Effect). The rule options are the rules' own (ruleOptionSpecs() in src/rules.h); the
// engine options are declared in options.cpp. A new option is one more row there (or in
// the rules' table), with the Settings field it sets.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "option.h"
#include "rules.h"
#include "search.h"

namespace dejarik::protocol {

// The values of the options that are literal types, so that their defaults are constants
// the registry can declare.
struct EngineSettings {
    search::Options search;
    search::Play play;       // Contempt, Opponent
    std::uint64_t seed = 0;  // the baseline players' random numbers
    // Player: the baseline that answers `go` (measurements only); nothing: the search.
    std::optional<search::Baseline> player;
    // EndingsAgainst: the baseline whose small endings are played exactly (docs/search.md,
    // "Endings against a baseline"); nothing: the search decides there as everywhere.
    std::optional<search::Baseline> endingsAgainst;
    // SetupPlayer random: set-ups (RULES §15) chosen at random, the game searched; the
    // baseline a searched arrangement is measured against.
    bool randomSetup = false;
    // The endgame tables (docs/tables.md): probed by the search when `tables` is on; missing
    // sets made in the background when `tableGen` is on and a game reaches five creatures
    // or fewer.
    bool tables = true;
    bool tableGen = false;
    // The generation thread's nice value: 19 keeps it out of a search's way on a shared
    // machine; a lower one lets it finish sooner where the machine is busy with other work.
    int tableGenNice = 19;
};

// Every value the options set; a default-built Settings holds every option's default.
struct Settings : EngineSettings {
    RuleOptions rules;
    std::string tablePath;  // the tables' folder; empty: tables::defaultTablePath()
    std::string evalFile;   // the evaluation weights (eval::loadTunables); empty: compiled in
};

// What the engine does besides taking the new Settings once an option was set.
enum class Effect : std::uint8_t {
    None,
    NewRules,       // the rules are rebuilt and the position becomes their startpos
    ResizeSearch,   // the searcher takes the new search options (a table may not be had)
    ClearHash,      // the table is emptied
    RestartRandom,  // the baseline players' random numbers start again from the seed
    ReopenTables,   // the endgame tables are opened again from the new settings
    TableGen,       // background generation is started (or stopped) as the setting says
    LoadEval,       // the evaluation weights are read from the file (a bad one is refused)
};

struct Option {
    OptionSpec spec;
    Effect effect = Effect::None;
    // Where an accepted value goes: a rule option into Settings::rules through its rule
    // spec, any other through `store` (none for a button).
    const RuleOptionSpec* rule = nullptr;
    void (*store)(Settings& settings, const OptionValue& value) = nullptr;
    // `dejarik analyse --<flag>` sets this option (empty: no flag); `help` describes it.
    std::string_view flag;
    std::string_view help;
};

// Every option in the order `dei` lists them: the rule options, then the engine's.
[[nodiscard]] std::span<const Option> options();

// The option of a name in any letter case, or nullptr.
[[nodiscard]] const Option* findOption(std::string_view name);

// The `option name ... type ...` line of the handshake.
[[nodiscard]] std::string optionLine(const OptionSpec& spec);

// Checks `value` (none: set without one) against the option and puts it into `settings`;
// an error message, naming the option and what it takes, leaves `settings` as it was.
[[nodiscard]] std::optional<std::string> setOption(Settings& settings, const Option& option,
                                                   std::optional<std::string_view> value);

}  // namespace dejarik::protocol
