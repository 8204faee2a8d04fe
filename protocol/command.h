// The DEI line parser (PROTOCOL.md): one input line to one command, or an error message.
//
// A pure function with no engine state, so it can be unit-tested and fuzzed without
// threads. It checks syntax and ranges only; whether a position, an event or an option
// value makes sense is judged by the engine against its rules and position.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "perft.h"
#include "search.h"

namespace dejarik::protocol {

// Upper bounds of numeric `go`, `go perft` and `bench` parameters: `go depth` as deep as the
// search goes.
inline constexpr int kMaxGoDepth = search::kMaxDepth;
inline constexpr int kMaxBenchDepth = 30;
// Clocks and move times up to about 31 years: large enough for any real game, small enough
// that deadline arithmetic in milliseconds never overflows.
inline constexpr std::int64_t kMaxTimeMs = std::int64_t{1} << 40;

struct Empty {};  // a blank line: ignored
struct Dei {};
struct IsReady {};
struct NewGame {};
struct Stop {};
struct Quit {};
struct Display {};  // `d`
struct Eval {};

struct SetOption {
    std::string name;                  // as written, words joined by one space
    std::optional<std::string> value;  // absent for buttons
};

struct SetPosition {
    std::optional<std::string> dfen;  // the DFEN fields joined by one space; none = startpos
    std::vector<std::string> moves;
};

// A search `go`. Unset limits are absent; no limit at all means search until `stop`.
struct Go {
    std::optional<int> depth;
    std::optional<std::uint64_t> nodes;
    std::optional<std::int64_t> movetimeMs;
    std::optional<std::int64_t> time1Ms;
    std::optional<std::int64_t> time2Ms;
    std::optional<std::int64_t> inc1Ms;
    std::optional<std::int64_t> inc2Ms;
    bool infinite = false;

    [[nodiscard]] bool hasLimit() const {
        return depth || nodes || movetimeMs || time1Ms || time2Ms;
    }
};

struct GoPerft {
    int depth = 0;
};

struct Odds {
    std::optional<std::string> attack;  // "<from>x<to>", syntactically an attack
};

struct Bench {
    std::optional<int> depth;
};

using Command = std::variant<Empty, Dei, IsReady, NewGame, Stop, Quit, Display, Eval, SetOption,
                             SetPosition, Go, GoPerft, Odds, Bench>;

// What a refused line was, so the engine knows which replies the error needs: a malformed
// search `go` is answered with `bestmove none` after the error line.
enum class LineKind : std::uint8_t { Other, SearchGo };

struct ParseError {
    std::string message;
    LineKind kind = LineKind::Other;
};

using ParseResult = std::variant<Command, ParseError>;

[[nodiscard]] ParseResult parseLine(std::string_view line);

// Whitespace-separated tokens (spaces, tabs, a trailing carriage return).
[[nodiscard]] std::vector<std::string_view> tokenize(std::string_view line);

}  // namespace dejarik::protocol
