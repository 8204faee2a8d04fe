#include "creature_set.h"

#include <algorithm>

#include "read_file.h"
#include "text.h"

namespace dejarik {

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";
constexpr std::string_view kBlanks = " \t";

// The length in code points of valid UTF-8, or nothing if `s` is not valid UTF-8 (overlong
// forms, surrogates and code points above U+10FFFF included).
std::optional<std::size_t> utf8Length(std::string_view s) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < s.size(); ++n) {
        const auto b = static_cast<unsigned char>(s[i]);
        int extra = 0;
        std::uint32_t cp = 0;
        if (b < 0x80) {
            cp = b;
        } else if (b >= 0xC2 && b < 0xE0) {
            extra = 1, cp = b & 0x1Fu;
        } else if (b >= 0xE0 && b < 0xF0) {
            extra = 2, cp = b & 0x0Fu;
        } else if (b >= 0xF0 && b < 0xF5) {
            extra = 3, cp = b & 0x07u;
        } else {
            return std::nullopt;
        }
        if (i + static_cast<std::size_t>(extra) >= s.size()) return std::nullopt;
        for (int k = 1; k <= extra; ++k) {
            const auto c = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
            if ((c & 0xC0u) != 0x80u) return std::nullopt;
            cp = cp << 6 | (c & 0x3Fu);
        }
        if ((extra == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
            (extra == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
            return std::nullopt;
        i += 1 + static_cast<std::size_t>(extra);
    }
    return n;
}

std::string_view trimmed(std::string_view s) {
    const auto first = s.find_first_not_of(kBlanks);
    if (first == std::string_view::npos) return {};
    return s.substr(first, s.find_last_not_of(kBlanks) - first + 1);
}

// The first field of `s` and the rest after it, `s` starting with a non-blank.
std::pair<std::string_view, std::string_view> firstField(std::string_view s) {
    const auto end = s.find_first_of(kBlanks);
    if (end == std::string_view::npos) return {s, {}};
    return {s.substr(0, end), trimmed(s.substr(end))};
}

// An unsigned decimal integer; values too large for any rating come back as INT32_MAX so
// that the range check names them.
std::optional<int> unsignedNumber(std::string_view s) {
    if (s.empty()) return std::nullopt;
    std::int64_t v = 0;
    for (const char c : s) {
        if (c < '0' || c > '9') return std::nullopt;
        v = std::min<std::int64_t>(v * 10 + (c - '0'), INT32_MAX);
    }
    return static_cast<int>(v);
}

std::string hexByte(unsigned char c) {
    static constexpr char kDigits[] = "0123456789ABCDEF";
    return std::string("0x") + kDigits[c >> 4] + kDigits[c & 15];
}

// Reports "CreatureFile <path>[:<line>]: <what>" (RULES §16.2); line 0 is the whole file.
bool fail(std::string* error, const std::string& path, int line, const std::string& what) {
    if (error)
        *error =
            "CreatureFile " + path + (line > 0 ? ":" + std::to_string(line) : "") + ": " + what;
    return false;
}

}  // namespace

CreatureSet::CreatureSet(std::string name, std::vector<CreatureDef> creatures,
                         std::array<std::uint8_t, 4> start1, std::array<std::uint8_t, 4> start2)
    : name_(std::move(name)), creatures_(std::move(creatures)), start_{start1, start2} {}

std::optional<int> CreatureSet::find(char upper) const {
    for (int i = 0; i < size(); ++i)
        if (creatures_[i].letter == upper) return i;
    return std::nullopt;
}

std::optional<CreatureSet> CreatureSet::parse(std::string_view text, const std::string& path,
                                              std::string* error) {
    const auto report = [&](int line, const std::string& what) {
        return fail(error, path, line, what);
    };
    if (text.size() > kMaxFileBytes) {
        report(0, "larger than 64 KiB");
        return std::nullopt;
    }
    if (text.starts_with(kBom)) text.remove_prefix(kBom.size());
    if (!utf8Length(text)) {
        report(0, "not valid UTF-8");
        return std::nullopt;
    }

    CreatureSet set;
    set.path_ = path;
    std::array<int, kMaxCreatures> definedOn{};  // by letter - 'A': the line, 0 if none
    int setLine = 0, diceLine = 0, startLine = 0;
    std::array<std::string, 2> startGroups;

    const auto lines = text::split(text, '\n');
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const int lineNo = static_cast<int>(i) + 1;
        std::string_view line = lines[i];
        if (line.ends_with('\r')) line.remove_suffix(1);
        if (*utf8Length(line) > kMaxLineLength) {
            report(lineNo, "line longer than 200 characters");
            return std::nullopt;
        }
        for (const char ch : line) {
            const auto c = static_cast<unsigned char>(ch);
            if ((c < 0x20 && c != '\t') || c == 0x7F) {
                report(lineNo, "control character " + hexByte(c));
                return std::nullopt;
            }
        }
        const std::string_view content = trimmed(line);
        if (content.empty() || content.front() == '#') continue;
        const auto [head, rest] = firstField(content);

        if (head.size() == 1) {
            const auto f = text::fields(rest);
            if (f.size() < 4) {
                report(lineNo,
                       "a creature line has five fields: <letter> <attack> <defence> "
                       "<movement> <name>");
                return std::nullopt;
            }
            const char letter = head[0];
            if (letter < 'A' || letter > 'Z') {
                report(lineNo,
                       "creature letter '" + std::string(head) + "' is not an upper-case A-Z");
                return std::nullopt;
            }
            if (const int first = definedOn[letter - 'A']) {
                report(lineNo, "creature letter " + std::string(head) +
                                   " already defined on line " + std::to_string(first));
                return std::nullopt;
            }
            CreatureDef def;
            def.letter = letter;
            static constexpr std::array<std::string_view, 3> kFields = {"attack", "defence",
                                                                        "movement"};
            std::array<int*, 3> targets = {&def.ratings.attack, &def.ratings.defence,
                                           &def.ratings.movement};
            for (int k = 0; k < 3; ++k) {
                const auto v = unsignedNumber(f[static_cast<std::size_t>(k)]);
                if (!v) {
                    report(lineNo, std::string(kFields[k]) + " '" + std::string(f[k]) +
                                       "' is not an unsigned decimal integer");
                    return std::nullopt;
                }
                const int lo = k == 2 ? kMinMovement : kMinRating;
                const int hi = k == 2 ? kMaxMovement : kMaxRating;
                if (*v < lo || *v > hi) {
                    report(lineNo, std::string(kFields[k]) + " " + std::string(f[k]) +
                                       " out of range " + std::to_string(lo) + "-" +
                                       std::to_string(hi));
                    return std::nullopt;
                }
                *targets[k] = *v;
            }
            // The name: the rest after the movement field, blanks inside kept.
            std::string_view name = rest;
            for (int k = 0; k < 3; ++k)
                name = firstField(name).second;
            def.name = std::string(name);
            definedOn[letter - 'A'] = lineNo;
            set.creatures_.push_back(std::move(def));
        } else if (head == "set") {
            if (setLine) {
                report(lineNo,
                       "a second set line (the first is line " + std::to_string(setLine) + ")");
                return std::nullopt;
            }
            if (rest.empty()) {
                report(lineNo, "set needs a name");
                return std::nullopt;
            }
            setLine = lineNo;
            set.name_ = std::string(rest);
        } else if (head == "dice") {
            if (diceLine) {
                report(lineNo,
                       "a second dice line (the first is line " + std::to_string(diceLine) + ")");
                return std::nullopt;
            }
            const auto f = text::fields(rest);
            const auto model = f.size() == 1 ? parseDiceModel(f[0]) : std::nullopt;
            if (!model || f[0] != diceModelName(*model)) {
                report(lineNo, "dice needs one model: pools, d20, 2d10 or split-d6, got '" +
                                   std::string(rest) + "'");
                return std::nullopt;
            }
            diceLine = lineNo;
            set.dice_ = *model;
        } else if (head == "start") {
            if (startLine) {
                report(lineNo,
                       "a second start line (the first is line " + std::to_string(startLine) + ")");
                return std::nullopt;
            }
            const auto f = text::fields(rest);
            if (f.size() != 2 || f[0].size() != 4 || f[1].size() != 4) {
                report(lineNo,
                       "start needs two groups of four letters (player 1's, player 2's), got '" +
                           std::string(rest) + "'");
                return std::nullopt;
            }
            startLine = lineNo;
            startGroups = {std::string(f[0]), std::string(f[1])};
        } else {
            report(lineNo, "unknown line: '" + std::string(head) +
                               "' is neither a creature letter nor set, dice or start");
            return std::nullopt;
        }
    }

    if (set.creatures_.empty()) {
        report(0, "no creature");
        return std::nullopt;
    }
    if (!startLine) {
        report(0, "no start line");
        return std::nullopt;
    }
    for (int p = 0; p < 2; ++p) {
        for (int k = 0; k < 4; ++k) {
            const char ch = startGroups[p][k];
            const char upper = ch >= 'a' && ch <= 'z' ? static_cast<char>(ch - 'a' + 'A') : ch;
            const auto c = set.find(upper);
            if (!c) {
                report(startLine,
                       "start letter '" + std::string(1, ch) + "' is not a creature of the file");
                return std::nullopt;
            }
            set.start_[p][k] = static_cast<std::uint8_t>(*c);
        }
    }
    return set;
}

std::optional<CreatureSet> CreatureSet::load(const std::string& path, std::string* error) {
    const auto report = [&](int line, const std::string& what) {
        return fail(error, path, line, what);
    };
    ReadError why;
    const auto text = readFile(path, {.maxBytes = kMaxFileBytes}, why);
    if (!text) {
        report(0, why.kind == ReadError::Kind::TooLarge ? why.what
                                                        : "cannot be read (" + why.what + ")");
        return std::nullopt;
    }
    return parse(*text, path, error);
}

}  // namespace dejarik
