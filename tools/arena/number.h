// Numbers in the arena's text: engine lines, records, results files, --engine items.
#pragma once

#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>
#include <type_traits>

namespace dejarik::arena {

// The number that is the whole of `s`: no spaces, no '+', no sign for an unsigned type;
// a floating-point number must be finite.
template <typename T>
[[nodiscard]] std::optional<T> parseNumber(std::string_view s) {
    T v{};
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    if constexpr (std::is_floating_point_v<T>) {
        if (!std::isfinite(v)) return std::nullopt;
    }
    return v;
}

}  // namespace dejarik::arena
