// Splitting and comparing text: DFENs, event lists, option names and values.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dejarik::text {

// The fields of s separated by runs of spaces and tabs, none empty.
[[nodiscard]] inline std::vector<std::string_view> fields(std::string_view s) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t'))
            ++i;
        const std::size_t start = i;
        while (i < s.size() && s[i] != ' ' && s[i] != '\t')
            ++i;
        if (i > start) out.push_back(s.substr(start, i - start));
    }
    return out;
}

// The parts of s between separators, empty parts included ("a//b" has three).
[[nodiscard]] inline std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= s.size(); ++i) {
        if (i == s.size() || s[i] == sep) {
            parts.push_back(s.substr(start, i - start));
            start = i + 1;
        }
    }
    return parts;
}

// s in lower case (ASCII only: every name the rules and the protocol read is ASCII).
[[nodiscard]] inline std::string lowerCase(std::string_view s) {
    std::string r(s);
    for (char& c : r)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return r;
}

// a and b equal but for the letter case: option names and values are read in any case.
[[nodiscard]] inline bool equalIgnoringCase(std::string_view a, std::string_view b) {
    return a.size() == b.size() && lowerCase(a) == lowerCase(b);
}

}  // namespace dejarik::text
