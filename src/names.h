// Enumerations spelled as words (in DFENs, options, records, results files): one table of
// names, indexed by the enumerators' values, gives both directions, so that each spelling
// is written once.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace dejarik {

template <typename Enum, std::size_t N>
struct NameTable {
    std::array<std::string_view, N> names;  // names[i] spells the enumerator of value i

    [[nodiscard]] constexpr std::string_view name(Enum e) const {
        return names[static_cast<std::size_t>(e)];
    }
    [[nodiscard]] constexpr std::optional<Enum> parse(std::string_view name) const {
        for (std::size_t i = 0; i < N; ++i)
            if (names[i] == name) return static_cast<Enum>(i);
        return std::nullopt;
    }
};

}  // namespace dejarik
