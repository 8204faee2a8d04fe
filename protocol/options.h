// The options the engine offers (PROTOCOL.md "Options every engine of this project offers",
// plus `Player`), as announced by `dei` and checked by `setoption`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dejarik::protocol {

enum class OptionType : std::uint8_t { Combo, Spin, Button };

struct OptionSpec {
    std::string_view name;
    OptionType type;
    std::string_view defaultValue;  // empty for buttons
    std::int64_t min = 0;
    std::int64_t max = 0;
    std::vector<std::string_view> values;  // combo choices
    bool ruleOption = false;
};

// Every option in the order `dei` lists them.
[[nodiscard]] const std::vector<OptionSpec>& optionSpecs();

// The spec of a name in any letter case.
[[nodiscard]] const OptionSpec* findOption(std::string_view name);

// The `option name ... type ...` line of the handshake.
[[nodiscard]] std::string optionLine(const OptionSpec& spec);

// A checked spin value, or an error naming the option and its range.
[[nodiscard]] std::optional<std::int64_t> spinValue(const OptionSpec& spec, std::string_view value,
                                                    std::string* error);

// A checked combo value (any letter case), lower case, or an error listing the choices.
[[nodiscard]] std::optional<std::string> comboValue(const OptionSpec& spec, std::string_view value,
                                                    std::string* error);

[[nodiscard]] std::string lowerCase(std::string_view s);

}  // namespace dejarik::protocol
