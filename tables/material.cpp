#include "material.h"

#include <algorithm>
#include <cctype>

#include "text.h"

namespace dejarik::tables {

Army Army::of(std::vector<Creature> creatures) {
    std::sort(creatures.begin(), creatures.end());
    Army a;
    for (const Creature c : creatures) {
        if (a.size_ == kMaxPieces) break;
        a.creatures_[a.size_++] = c;
    }
    return a;
}

std::string Army::letters() const {
    if (size_ == 0) return "-";
    std::string s;
    for (int i = 0; i < size_; ++i)
        s += kCreatureLetters[static_cast<int>(creatures_[i])];
    return s;
}

Army Army::without(int i) const {
    Army a = *this;
    for (int k = i; k + 1 < a.size_; ++k)
        a.creatures_[k] = a.creatures_[k + 1];
    a.creatures_[--a.size_] = Creature{};
    return a;
}

bool Army::hasDuplicates() const {
    for (int i = 1; i < size_; ++i)
        if (creatures_[i] == creatures_[i - 1]) return true;
    return false;
}

bool Material::isCanonical() const {
    return a.size() > b.size() || (a.size() == b.size() && a.code() <= b.code());
}

Material Material::canonical() const {
    return isCanonical() ? *this : swapped();
}

bool Material::isTableSet() const {
    return !a.empty() && !b.empty() && pieces() > 2 && pieces() <= kMaxPieces;
}

std::string Material::name() const {
    std::string lower = b.letters();
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return a.letters() + " v " + lower;
}

std::string Material::fileStem() const {
    std::string s = name();
    s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
    return s;
}

std::vector<Material> Material::captures() const {
    std::vector<Material> out;
    const auto add = [&](const Material& m) {
        if (!m.isTableSet()) return;
        const Material c = m.canonical();
        if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
    };
    for (int i = 0; i < a.size(); ++i)
        add({a.without(i), b});
    for (int i = 0; i < b.size(); ++i)
        add({a, b.without(i)});
    return out;
}

std::optional<Material> parseMaterial(std::string_view text, std::string* error) {
    const auto fail = [&](std::string message) -> std::optional<Material> {
        if (error) *error = std::move(message);
        return std::nullopt;
    };
    const auto f = text::fields(text);
    if (f.size() != 3 || (f[1] != "v" && f[1] != "V"))
        return fail("material '" + std::string(text) +
                    "': expected player 1's creatures, 'v', player 2's (e.g. \"SG v n\")");
    std::array<std::vector<Creature>, 2> sides;
    for (int s = 0; s < 2; ++s) {
        for (const char ch : f[s == 0 ? 0 : 2]) {
            const auto piece = Piece::fromLetter(ch);
            if (!piece)
                return fail("material '" + std::string(text) + "': '" + std::string(1, ch) +
                            "' is not a creature letter (SMGHTNKL)");
            sides[s].push_back(piece->creature());
        }
    }
    const int total = static_cast<int>(sides[0].size() + sides[1].size());
    if (total > kMaxPieces)
        return fail("material '" + std::string(text) + "': " + std::to_string(total) +
                    " creatures; tables hold at most " + std::to_string(kMaxPieces));
    if (total < 3)
        return fail("material '" + std::string(text) +
                    "': one creature against one is the showdown, no table");
    return Material{Army::of(sides[0]), Army::of(sides[1])};
}

std::vector<Material> distinctSets(int maxPieces) {
    std::vector<Material> out;
    const int limit = std::min(maxPieces, kMaxPieces);
    for (int n = 3; n <= limit; ++n) {
        // Each of the 3^8 assignments of creatures to side A, side B or neither.
        int assignments = 1;
        for (int i = 0; i < kCreatureCount; ++i)
            assignments *= 3;
        std::vector<Material> level;
        for (int code = 0; code < assignments; ++code) {
            std::array<std::vector<Creature>, 2> sides;
            int rest = code;
            for (int c = 0; c < kCreatureCount; ++c, rest /= 3)
                if (rest % 3 != 2) sides[rest % 3].push_back(static_cast<Creature>(c));
            const Material m{Army::of(sides[0]), Army::of(sides[1])};
            if (m.pieces() == n && m.isTableSet() && m.isCanonical()) level.push_back(m);
        }
        std::sort(level.begin(), level.end(),
                  [](const Material& x, const Material& y) { return x.slot() < y.slot(); });
        out.insert(out.end(), level.begin(), level.end());
    }
    return out;
}

std::vector<Material> withCaptures(const Material& m) {
    std::vector<Material> out;
    std::vector<Material> frontier{m.canonical()};
    while (!frontier.empty()) {
        std::vector<Material> next;
        for (const Material& x : frontier) {
            if (std::find(out.begin(), out.end(), x) != out.end()) continue;
            out.push_back(x);
            for (const Material& c : x.captures())
                next.push_back(c);
        }
        frontier = std::move(next);
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Material& x, const Material& y) { return x.pieces() < y.pieces(); });
    return out;
}

}  // namespace dejarik::tables
