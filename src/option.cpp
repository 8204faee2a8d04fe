#include "option.h"

#include <array>
#include <charconv>

#include "text.h"

namespace dejarik {

namespace {

constexpr std::array<std::string_view, 5> kTypeNames = {"check", "spin", "combo", "button",
                                                        "string"};
constexpr std::array<std::string_view, 2> kCheckValues = {"false", "true"};

std::string invalid(const OptionSpec& spec, std::string_view value) {
    return "invalid value " + text::quoted(value) + " for option " + std::string(spec.name) +
           " (expected " + expectedValue(spec) + ")";
}

std::optional<std::int64_t> wholeNumber(std::string_view s) {
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return v;
}

}  // namespace

std::string_view optionTypeName(OptionType type) {
    return kTypeNames[static_cast<int>(type)];
}

std::string expectedValue(const OptionSpec& spec) {
    switch (spec.type) {
        case OptionType::Check:
            return "true or false";
        case OptionType::Spin:
            return "a whole number from " + std::to_string(spec.min) + " to " +
                   std::to_string(spec.max);
        case OptionType::Combo: {
            std::string s = "one of ";
            for (std::size_t i = 0; i < spec.values.size(); ++i)
                s += (i > 0 ? ", " : "") + std::string(spec.values[i]);
            return s;
        }
        case OptionType::String:
            return "any text";
        case OptionType::Button:
            break;
    }
    return "no value";
}

std::optional<std::string> OptionSpec::defaultValue() const {
    switch (type) {
        case OptionType::Check:
            return std::string(kCheckValues[number != 0]);
        case OptionType::Spin:
            return std::to_string(number);
        case OptionType::Combo:
            return std::string(text);
        case OptionType::String:
            return std::string(text.empty() ? kEmptyString : text);
        case OptionType::Button:
            break;
    }
    return std::nullopt;
}

std::optional<OptionValue> checkOptionValue(const OptionSpec& spec,
                                            std::optional<std::string_view> value,
                                            std::string* error) {
    auto fail = [error](std::string message) -> std::optional<OptionValue> {
        if (error) *error = std::move(message);
        return std::nullopt;
    };
    const std::string name(spec.name);
    if (spec.type == OptionType::Button) {
        if (value) return fail("option " + name + " is a button and takes no value");
        return OptionValue{};
    }
    if (!value) return fail("option " + name + " needs a value");
    switch (spec.type) {
        case OptionType::Check:
            for (std::size_t i = 0; i < kCheckValues.size(); ++i)
                if (text::equalIgnoringCase(*value, kCheckValues[i]))
                    return OptionValue{std::string(kCheckValues[i]), static_cast<std::int64_t>(i)};
            return fail(invalid(spec, *value));
        case OptionType::Spin:
            if (const auto n = wholeNumber(*value); n && *n >= spec.min && *n <= spec.max)
                return OptionValue{std::string(*value), *n};
            return fail(invalid(spec, *value));
        case OptionType::Combo:
            for (const auto choice : spec.values)
                if (text::equalIgnoringCase(*value, choice))
                    return OptionValue{std::string(choice)};
            return fail(invalid(spec, *value));
        case OptionType::String:
            return OptionValue{*value == kEmptyString ? std::string() : std::string(*value)};
        case OptionType::Button:
            break;
    }
    return fail("option " + name + " has no type");
}

}  // namespace dejarik
