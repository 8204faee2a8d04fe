// Field parsing shared by the position strings of both games (RULES §11, §14.11): the same
// numbers, the same error texts.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

#include "text.h"

namespace dejarik::dfen {

// A non-negative decimal integer that fits 32 bits.
[[nodiscard]] inline std::optional<std::uint32_t> parseCount(std::string_view s) {
    if (s.empty()) return std::nullopt;
    for (const char c : s)
        if (c < '0' || c > '9') return std::nullopt;
    std::uint32_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return v;
}

// Stores `message` where the caller asked for it; false, for `return fail(...)`.
inline bool fail(std::string* error, std::string message) {
    if (error) *error = std::move(message);
    return false;
}

// The quiet counter and the turn number (fields 4 and 5), with their errors.
struct Clocks {
    std::uint32_t quiet = 0;
    std::uint32_t turn = 1;
};
[[nodiscard]] inline std::optional<Clocks> parseClocks(std::string_view quiet,
                                                       std::string_view turn, std::string* error) {
    const auto q = parseCount(quiet);
    if (!q) {
        fail(error, "DFEN quiet: expected a non-negative integer, got " + text::quoted(quiet));
        return std::nullopt;
    }
    const auto t = parseCount(turn);
    if (!t || *t < 1) {
        fail(error, "DFEN turn: expected an integer of at least 1, got " + text::quoted(turn));
        return std::nullopt;
    }
    return Clocks{*q, *t};
}

}  // namespace dejarik::dfen
