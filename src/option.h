// An option as an engine declares it to a GUI (the five kinds of UCI and DEI: check, spin,
// combo, button, string) and the checking of a value against it. The rules declare their
// options with it (rules.h), the engine its own (protocol/options.h), so that both are
// listed, checked and documented alike.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace dejarik {

enum class OptionType : std::uint8_t { Check, Spin, Combo, Button, String };

// "check", "spin", "combo", "button", "string": the word after `type` in an option line.
[[nodiscard]] std::string_view optionTypeName(OptionType type);

// An empty string option is announced and set as this word, as UCI engines do.
inline constexpr std::string_view kEmptyString = "<empty>";

// The declaration of one option. Built with the factories below, so each kind fills only
// the fields it has.
struct OptionSpec {
    std::string_view name;
    OptionType type = OptionType::Button;
    std::int64_t min = 0;  // spin
    std::int64_t max = 0;
    std::int64_t number = 0;                   // the default of a spin; of a check, 1 for true
    std::string_view text;                     // the default of a combo or a string
    std::span<const std::string_view> values;  // a combo's choices, in the order announced

    [[nodiscard]] static constexpr OptionSpec check(std::string_view name, bool byDefault) {
        return {name, OptionType::Check, 0, 1, byDefault ? 1 : 0, {}, {}};
    }
    [[nodiscard]] static constexpr OptionSpec spin(std::string_view name, std::int64_t byDefault,
                                                   std::int64_t min, std::int64_t max) {
        return {name, OptionType::Spin, min, max, byDefault, {}, {}};
    }
    [[nodiscard]] static constexpr OptionSpec combo(std::string_view name,
                                                    std::string_view byDefault,
                                                    std::span<const std::string_view> values) {
        return {name, OptionType::Combo, 0, 0, 0, byDefault, values};
    }
    [[nodiscard]] static constexpr OptionSpec button(std::string_view name) {
        return {name, OptionType::Button, 0, 0, 0, {}, {}};
    }
    [[nodiscard]] static constexpr OptionSpec string(std::string_view name,
                                                     std::string_view byDefault) {
        return {name, OptionType::String, 0, 0, 0, byDefault, {}};
    }

    // The default as a GUI sends it back: a number, true/false, a choice, a string (or
    // kEmptyString for the empty one); none for a button.
    [[nodiscard]] std::optional<std::string> defaultValue() const;
};

// What a value of the option is, as error messages and help texts say it: "a whole number
// from 1 to 64", "one of kelly, dalsian", "true or false", "any text", "no value".
[[nodiscard]] std::string expectedValue(const OptionSpec& spec);

// A value an option accepted.
struct OptionValue {
    // A combo's choice or a check's true/false as the option spells it, a spin's number as
    // written, a string as given (kEmptyString read as the empty string); empty for a button.
    std::string text;
    std::int64_t number = 0;  // a spin's value; a check's 1 for true, 0 for false
};

// `value` (none: the option was set without one, as a button is) checked against `spec`:
// names and values are read in any letter case, except a string, which is kept as given.
// On failure nothing, and `error` names the option and says what it takes.
[[nodiscard]] std::optional<OptionValue> checkOptionValue(const OptionSpec& spec,
                                                          std::optional<std::string_view> value,
                                                          std::string* error);

}  // namespace dejarik
