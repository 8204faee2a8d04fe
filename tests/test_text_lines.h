// The lines of a program's output, for tests of printed text (the protocol's unit and
// command-line suites).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dejarik::testing {

// Each line without its '\n'; a final newline ends the last line rather than starting an
// empty one.
inline std::vector<std::string> linesOf(std::string_view text) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start < text.size()) {
        const auto nl = text.find('\n', start);
        out.emplace_back(text.substr(start, nl - start));
        start = nl == std::string_view::npos ? text.size() : nl + 1;
    }
    return out;
}

}  // namespace dejarik::testing
