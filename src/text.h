// Splitting and comparing text: DFENs, event lists, option names and values; and echoing
// it in messages.
#pragma once

#include <algorithm>
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

namespace detail {

// The length of the UTF-8 character s begins with, or 0 if its bytes are none (a stray
// continuation byte, an overlong form, a surrogate, a code point past U+10FFFF, a cut one).
[[nodiscard]] inline std::size_t utf8Length(std::string_view s) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
    const unsigned char lead = byte(0);
    std::size_t n = 0;
    unsigned char low = 0x80, high = 0xbf;  // the second byte's range
    if (lead >= 0xc2 && lead <= 0xdf) {
        n = 2;
    } else if (lead >= 0xe0 && lead <= 0xef) {
        n = 3;
        if (lead == 0xe0) low = 0xa0;
        if (lead == 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
        n = 4;
        if (lead == 0xf0) low = 0x90;
        if (lead == 0xf4) high = 0x8f;
    }
    if (n == 0 || s.size() < n || byte(1) < low || byte(1) > high) return 0;
    for (std::size_t i = 2; i < n; ++i)
        if (byte(i) < 0x80 || byte(i) > 0xbf) return 0;
    return n;
}

// Walks s a character at a time: keep(i, n) for the n bytes at i that may stand in a line,
// mask() for each byte, or control character, that could break it: control bytes (C0,
// DEL, C1) and bytes of no UTF-8 character (binary garbage, another encoding).
template <typename Keep, typename Mask>
void scanPrintable(std::string_view s, Keep keep, Mask mask) {
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            if (c < 0x20 || c == 0x7f)
                mask();
            else
                keep(i, std::size_t{1});
            ++i;
            continue;
        }
        const std::size_t n = utf8Length(s.substr(i));
        const bool control = n == 2 && c == 0xc2 && static_cast<unsigned char>(s[i + 1]) < 0xa0;
        if (n == 0 || control)
            mask();
        else
            keep(i, n);
        i += n == 0 ? 1 : n;
    }
}

}  // namespace detail

// s with every byte that could break the one line it is echoed in shown as '?'
// (detail::scanPrintable).
[[nodiscard]] inline std::string printable(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    detail::scanPrintable(
        s, [&](std::size_t i, std::size_t n) { out.append(s, i, n); }, [&] { out += '?'; });
    return out;
}

// Whether printable(s) == s, without making it (no allocation: the engine's writer checks
// every line, lines made when no memory was left among them).
[[nodiscard]] inline bool isPrintable(std::string_view s) {
    bool clean = true;
    detail::scanPrintable(
        s, [](std::size_t, std::size_t) {}, [&] { clean = false; });
    return clean;
}

// A token echoed in a message, in single quotes and printable(): cut after 40 bytes (at a
// character's start, marked "...") so one garbage line cannot make a huge message.
[[nodiscard]] inline std::string quoted(std::string_view token) {
    constexpr std::size_t kMax = 40;
    std::size_t cut = std::min(token.size(), kMax);
    // Back over at most three continuation bytes: a character is at most four bytes long.
    while (cut + 3 > kMax && cut < token.size() &&
           (static_cast<unsigned char>(token[cut]) & 0xc0) == 0x80)
        --cut;
    return "'" + printable(token.substr(0, cut)) + (cut < token.size() ? "...'" : "'");
}

}  // namespace dejarik::text
