#include "command.h"

#include <charconv>
#include <limits>

#include "event.h"
#include "text.h"

namespace dejarik::protocol {

namespace {

using Tokens = std::vector<std::string_view>;

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

std::string join(const Tokens& tokens, std::size_t begin, std::size_t end) {
    std::string s;
    for (std::size_t i = begin; i < end; ++i) {
        if (i > begin) s += ' ';
        s += tokens[i];
    }
    return s;
}

// A plain decimal number (digits only) within [min, max].
template <typename T>
std::optional<T> parseNumber(std::string_view s, T min, T max) {
    if (s.empty()) return std::nullopt;
    for (const char c : s)
        if (c < '0' || c > '9') return std::nullopt;
    T v{};
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || v < min || v > max) return std::nullopt;
    return v;
}

template <typename T>
std::string rangeText(T min, T max) {
    return "a whole number from " + std::to_string(min) + " to " + std::to_string(max);
}

ParseError error(std::string message, LineKind kind = LineKind::Other) {
    return ParseError{std::move(message), kind};
}

ParseResult noArguments(const Tokens& t, Command command) {
    if (t.size() > 1) {
        std::string message = text::quoted(t[0]);
        message += " takes no arguments, got ";
        message += text::quoted(t[1]);
        return error(std::move(message));
    }
    return command;
}

ParseResult parseSetOption(const Tokens& t) {
    if (t.size() < 2 || t[1] != "name") return error("setoption: expected 'setoption name <id>'");
    std::size_t valueAt = t.size();
    for (std::size_t i = 2; i < t.size(); ++i) {
        if (t[i] == "value") {
            valueAt = i;
            break;
        }
    }
    if (valueAt == 2) return error("setoption: missing option name after 'name'");
    SetOption cmd;
    cmd.name = join(t, 2, valueAt);
    if (valueAt < t.size()) {
        if (valueAt + 1 == t.size()) return error("setoption: missing value after 'value'");
        // The text from the value's first token to its last, inner blanks as sent: a file
        // name may hold runs of blanks (PROTOCOL.md, CreatureFile). Tokens view the line.
        const char* first = t[valueAt + 1].data();
        const char* last = t.back().data() + t.back().size();
        cmd.value = std::string(first, static_cast<std::size_t>(last - first));
    }
    return cmd;
}

ParseResult parsePosition(const Tokens& t) {
    if (t.size() < 2) return error("position: expected 'startpos' or 'dfen <dfen>'");
    SetPosition cmd;
    std::size_t i = 2;
    if (t[1] == "startpos") {
        if (i < t.size() && t[i] != "moves")
            return error("position: unexpected " + text::quoted(t[i]) + " after 'startpos'");
    } else if (t[1] == "dfen") {
        while (i < t.size() && t[i] != "moves")
            ++i;
        if (i == 2) return error("position: missing DFEN after 'dfen'");
        cmd.dfen = join(t, 2, i);
    } else {
        return error("position: expected 'startpos' or 'dfen', got " + text::quoted(t[1]));
    }
    if (i < t.size()) {  // t[i] == "moves"
        for (std::size_t j = i + 1; j < t.size(); ++j)
            cmd.moves.emplace_back(t[j]);
    }
    return cmd;
}

ParseResult parseGoPerft(const Tokens& t) {
    if (t.size() != 3) return error("go perft: expected 'go perft <depth>'");
    const auto depth = parseNumber<int>(t[2], 0, kMaxPerftDepth);
    if (!depth)
        return error("go perft: invalid depth " + text::quoted(t[2]) + " (expected " +
                     rangeText(0, kMaxPerftDepth) + ")");
    return GoPerft{*depth};
}

ParseResult parseGo(const Tokens& t) {
    if (t.size() >= 2 && t[1] == "perft") return parseGoPerft(t);
    Go go;
    auto goError = [](std::string message) {
        return error(std::move(message), LineKind::SearchGo);
    };
    for (std::size_t i = 1; i < t.size(); ++i) {
        const std::string_view key = t[i];
        if (key == "infinite") {
            if (go.infinite) return goError("go: 'infinite' given twice");
            go.infinite = true;
            continue;
        }
        // Every other parameter takes one number; each is read the same way into its field.
        auto numeric = [&]<typename T>(std::optional<T>& field, T min,
                                       T max) -> std::optional<ParseError> {
            if (field) return goError("go: '" + std::string(key) + "' given twice");
            if (i + 1 >= t.size())
                return goError("go: missing value after '" + std::string(key) + "'");
            const std::string_view text = t[++i];
            field = parseNumber<T>(text, min, max);
            if (!field)
                return goError("go: invalid " + std::string(key) + " " + text::quoted(text) +
                               " (expected " + rangeText(min, max) + ")");
            return std::nullopt;
        };
        std::optional<ParseError> failed;
        if (key == "depth") {
            failed = numeric(go.depth, 1, kMaxGoDepth);
        } else if (key == "nodes") {
            failed = numeric(go.nodes, std::uint64_t{1}, std::numeric_limits<std::uint64_t>::max());
        } else if (key == "movetime") {
            failed = numeric(go.movetimeMs, std::int64_t{1}, kMaxTimeMs);
        } else if (key == "time1") {
            failed = numeric(go.time1Ms, std::int64_t{0}, kMaxTimeMs);
        } else if (key == "time2") {
            failed = numeric(go.time2Ms, std::int64_t{0}, kMaxTimeMs);
        } else if (key == "inc1") {
            failed = numeric(go.inc1Ms, std::int64_t{0}, kMaxTimeMs);
        } else if (key == "inc2") {
            failed = numeric(go.inc2Ms, std::int64_t{0}, kMaxTimeMs);
        } else if (key == "perft") {
            return goError("go: 'perft' must come first ('go perft <depth>')");
        } else {
            return goError("go: unknown parameter " + text::quoted(key));
        }
        if (failed) return *failed;
    }
    return go;
}

ParseResult parseOdds(const Tokens& t) {
    if (t.size() == 1) return Odds{};
    if (t.size() > 2) return error("odds: expected at most one attack, got " + text::quoted(t[2]));
    const auto event = Event::parse(t[1]);
    if (!event || event->kind() != EventKind::Attack)
        return error("odds: " + text::quoted(t[1]) + " is not an attack (<from>x<to>, e.g. b4xa)");
    return Odds{std::string(t[1])};
}

ParseResult parseBench(const Tokens& t) {
    if (t.size() == 1) return Bench{};
    if (t.size() > 2) return error("bench: expected at most a depth, got " + text::quoted(t[2]));
    const auto depth = parseNumber<int>(t[1], 1, kMaxBenchDepth);
    if (!depth)
        return error("bench: invalid depth " + text::quoted(t[1]) + " (expected " +
                     rangeText(1, kMaxBenchDepth) + ")");
    return Bench{depth};
}

}  // namespace

std::vector<std::string_view> tokenize(std::string_view line) {
    std::vector<std::string_view> tokens;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && isSpace(line[i]))
            ++i;
        const std::size_t start = i;
        while (i < line.size() && !isSpace(line[i]))
            ++i;
        if (i > start) tokens.push_back(line.substr(start, i - start));
    }
    return tokens;
}

ParseResult parseLine(std::string_view line) {
    const Tokens t = tokenize(line);
    if (t.empty()) return Empty{};
    const std::string_view word = t[0];
    if (word == "dei") return noArguments(t, Dei{});
    if (word == "isready") return noArguments(t, IsReady{});
    if (word == "newgame") return noArguments(t, NewGame{});
    if (word == "stop") return noArguments(t, Stop{});
    if (word == "quit") return noArguments(t, Quit{});
    if (word == "d") return noArguments(t, Display{});
    if (word == "eval") return noArguments(t, Eval{});
    if (word == "setoption") return parseSetOption(t);
    if (word == "position") return parsePosition(t);
    if (word == "go") return parseGo(t);
    if (word == "odds") return parseOdds(t);
    if (word == "bench") return parseBench(t);
    return error("unknown command " + text::quoted(word));
}

}  // namespace dejarik::protocol
