#include "board.h"

#include <cctype>

namespace dejarik {

std::string Cell::name() const {
    if (isCentre()) return "a";
    // Built by hand: GCC 12 warns falsely (-Wrestrict) on std::string operator+ here.
    std::string s(1, orbit() == Orbit::Inner ? 'b' : 'c');
    const int r = ray();
    if (r >= 10) s += '1';
    s += static_cast<char>('0' + r % 10);
    return s;
}

std::optional<Cell> Cell::parse(std::string_view text) {
    if (text.empty()) return std::nullopt;
    const char ring = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
    if (ring == 'a') return text.size() == 1 ? std::optional(centre()) : std::nullopt;
    if (ring != 'b' && ring != 'c') return std::nullopt;
    const std::string_view digits = text.substr(1);
    if (digits.empty() || digits.size() > 2 || digits[0] == '0') return std::nullopt;
    int ray = 0;
    for (const char ch : digits) {
        if (ch < '0' || ch > '9') return std::nullopt;
        ray = ray * 10 + (ch - '0');
    }
    if (ray < 1 || ray > 12) return std::nullopt;
    return ring == 'b' ? inner(ray) : outer(ray);
}

}  // namespace dejarik
