#include "game.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <sstream>

#include "names.h"
#include "number.h"
#include "text.h"

namespace dejarik::arena {

namespace {

constexpr NameTable<Termination, 11> kTerminationNames{
    {"elimination", "showdown", "showdown-draw", "centre-win", "quiet-draw", "turn-cap", "illegal",
     "crash", "stall", "time", "king-capture"}};
constexpr NameTable<GameOutcome, 3> kOutcomeTags{{"1-0", "0-1", "1/2-1/2"}};

std::optional<double> parseSeconds(std::string_view s) {
    const auto v = parseNumber<double>(s);
    if (!v || *v < 0) return std::nullopt;
    return v;
}

std::string secondsText(std::int64_t ms) {
    std::ostringstream s;
    s << static_cast<double>(ms) / 1000.0;
    return s.str();
}

std::string quoteTag(std::string_view value) {
    std::string out = "\"";
    for (const char c : value) {
        if (c == '"' || c == '\\') out += '\\';
        out += c == '\n' ? ' ' : c;
    }
    return out + "\"";
}

bool isResultToken(std::string_view t) {
    return t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*";
}

bool isTurnNumber(std::string_view t) {
    if (t.size() < 2 || t.back() != '.') return false;
    for (std::size_t i = 0; i + 1 < t.size(); ++i)
        if (t[i] < '0' || t[i] > '9') return false;
    return true;
}

}  // namespace

std::vector<std::string> splitWords(std::string_view s) {
    std::vector<std::string> out;
    std::istringstream in{std::string(s)};
    std::string w;
    while (in >> w)
        out.push_back(w);
    return out;
}

std::string_view terminationName(Termination t) {
    return kTerminationNames.name(t);
}

std::optional<Termination> parseTermination(std::string_view name) {
    return kTerminationNames.parse(name);
}

bool isFault(Termination t) {
    return t == Termination::Illegal || t == Termination::Crash || t == Termination::Stall ||
           t == Termination::Time;
}

std::string_view outcomeTag(GameOutcome o) {
    return kOutcomeTags.name(o);
}

std::optional<GameOutcome> parseOutcomeTag(std::string_view tag) {
    return kOutcomeTags.parse(tag);
}

double pointsFor(GameOutcome o, Player p) {
    if (o == GameOutcome::Draw) return 0.5;
    return (o == GameOutcome::Player1Wins) == (p == Player::One) ? 1.0 : 0.0;
}

bool TimeControl::isKey(std::string_view key) {
    return key == "depth" || key == "nodes" || key == "movetime" || key == "tc";
}

std::optional<std::string> TimeControl::set(std::string_view key, std::string_view value) {
    const std::string v(value);
    if (key == "depth") {
        const auto d = parseNumber<int>(value);
        if (!d || *d < 1) return "depth: expected a positive integer, got " + text::quoted(v);
        depth = *d;
    } else if (key == "nodes") {
        const auto n = parseNumber<std::uint64_t>(value);
        if (!n || *n < 1) return "nodes: expected a positive integer, got " + text::quoted(v);
        nodes = *n;
    } else if (key == "movetime") {
        const auto ms = parseNumber<std::int64_t>(value);
        if (!ms || *ms < 1 || *ms > kMaxMilliseconds)
            return "movetime: expected milliseconds from 1 to " + std::to_string(kMaxMilliseconds) +
                   ", got " + text::quoted(v);
        movetimeMs = *ms;
    } else if (key == "tc") {
        const auto plus = value.find('+');
        const auto base = parseSeconds(value.substr(0, plus));
        const auto inc = plus == std::string_view::npos ? std::optional<double>(0.0)
                                                        : parseSeconds(value.substr(plus + 1));
        constexpr double kMaxSeconds = kMaxMilliseconds / 1000.0;
        if (!base || !inc || *base <= 0 || *base > kMaxSeconds || *inc > kMaxSeconds)
            return "tc: expected seconds as BASE or BASE+INC (e.g. 10+0.1), each at most " +
                   std::to_string(static_cast<std::int64_t>(kMaxSeconds)) + ", got " +
                   text::quoted(v);
        baseMs = std::llround(*base * 1000);
        incMs = std::llround(*inc * 1000);
    } else {
        return "unknown limit " + text::quoted(key);
    }
    return std::nullopt;
}

std::string TimeControl::str() const {
    std::string s;
    const auto add = [&s](const std::string& item) { s += (s.empty() ? "" : " ") + item; };
    if (depth > 0) add("depth=" + std::to_string(depth));
    if (nodes > 0) add("nodes=" + std::to_string(nodes));
    if (movetimeMs > 0) add("movetime=" + std::to_string(movetimeMs));
    if (baseMs >= 0) add("tc=" + secondsText(baseMs) + (incMs > 0 ? "+" + secondsText(incMs) : ""));
    return s.empty() ? "none" : s;
}

std::string DecisionInfo::str() const {
    std::string s;
    const auto add = [&s](const std::string& item) { s += (s.empty() ? "" : " ") + item; };
    if (ev) add("ev " + std::to_string(*ev));
    if (wdl)
        add("wdl " + std::to_string((*wdl)[0]) + "/" + std::to_string((*wdl)[1]) + "/" +
            std::to_string((*wdl)[2]));
    if (depth) add("d " + std::to_string(*depth));
    if (nodes) add("n " + std::to_string(*nodes));
    // An in-process player reports nothing and takes no measurable time: no comment.
    if (!s.empty() || elapsedMs > 0) add("t " + std::to_string(elapsedMs));
    return s;
}

DecisionInfo DecisionInfo::parse(std::string_view comment) {
    DecisionInfo info;
    const auto w = splitWords(comment);
    for (std::size_t i = 0; i + 1 < w.size(); i += 2) {
        const std::string& key = w[i];
        const std::string& value = w[i + 1];
        if (key == "ev") {
            if (const auto v = parseNumber<int>(value)) info.ev = *v;
        } else if (key == "wdl") {
            std::array<int, 3> t{};
            std::istringstream in(value);
            char slash1 = 0, slash2 = 0;
            if (in >> t[0] >> slash1 >> t[1] >> slash2 >> t[2] && slash1 == '/' && slash2 == '/')
                info.wdl = t;
        } else if (key == "d") {
            info.depth = parseNumber<int>(value);
        } else if (key == "n") {
            info.nodes = parseNumber<std::uint64_t>(value);
        } else if (key == "t") {
            info.elapsedMs = parseNumber<std::int64_t>(value).value_or(0);
        }
    }
    return info;
}

std::string Luck::str() const {
    return "attacks=" + fmt::format("{:+.4f}", attackPoints()) +
           " showdown=" + fmt::format("{:+.4f}", showdownPoints());
}

std::optional<Luck> Luck::parse(std::string_view text) {
    Luck luck;
    int found = 0;
    for (const auto& item : splitWords(text)) {
        const auto eq = item.find('=');
        if (eq == std::string::npos) return std::nullopt;
        const std::string key = item.substr(0, eq);
        std::string value = item.substr(eq + 1);
        if (!value.empty() && value[0] == '+') value.erase(0, 1);
        const auto v = parseNumber<double>(value);
        if (!v) return std::nullopt;
        if (key == "attacks") {
            luck.attacks = units(*v);
        } else if (key == "showdown") {
            luck.showdown = units(*v);
        } else {
            return std::nullopt;
        }
        ++found;
    }
    if (found != 2) return std::nullopt;
    return luck;
}

std::string GameRecord::roundTag() const {
    return std::to_string(round + 1) + "." + std::to_string(gameInPair + 1);
}

std::optional<Player> GameRecord::seatOf(const std::string& name) const {
    if (players[0] == name) return Player::One;
    if (players[1] == name) return Player::Two;
    return std::nullopt;
}

std::string GameRecord::moves() const {
    std::string s;
    for (const auto& e : events) {
        if (!s.empty()) s += ' ';
        s += e.token;
    }
    return s;
}

std::string formatRecord(const GameRecord& r) {
    std::ostringstream out;
    const auto tag = [&out](std::string_view key, std::string_view value) {
        out << '[' << key << ' ' << quoteTag(value) << "]\n";
    };
    tag("Event", "dejarik-arena");
    tag("Round", r.roundTag());
    tag("Job", std::to_string(r.job));
    tag("Player1", r.players[0]);
    tag("Player2", r.players[1]);
    tag("Rules", r.rules);
    tag("Deal", r.deal);
    tag("Seed", std::to_string(r.seed));
    tag("Dice", diceModeName(r.diceMode));
    tag("Result", r.finished ? outcomeTag(r.outcome) : "*");
    if (r.finished) tag("Termination", terminationName(r.termination));
    if (!r.detail.empty()) tag("Detail", r.detail);
    tag("Turns", std::to_string(r.turns));
    tag("Luck", r.luck.str());
    tag("Final", r.finalDfen);
    out << '\n';

    // Movetext, wrapped between items at about 100 columns.
    std::string line;
    const auto emit = [&](const std::string& item) {
        if (!line.empty() && line.size() + 1 + item.size() > 100) {
            out << line << '\n';
            line.clear();
        }
        line += (line.empty() ? "" : " ") + item;
    };
    for (const auto& e : r.events) {
        if (e.startsTurn) emit(std::to_string(e.turn) + ".");
        emit(e.token);
        if (!e.comment.empty()) emit("{" + e.comment + "}");
    }
    if (!r.closingComment.empty()) emit("{" + r.closingComment + "}");
    emit(r.finished ? std::string(outcomeTag(r.outcome)) : "*");
    out << line << "\n\n";
    return out.str();
}

std::optional<RuleOptions> parseRulesTag(std::string_view tag, std::string& error,
                                         const RuleOptions::Refusal& refuse) {
    const auto w = splitWords(tag);
    if (w.empty()) {
        error = "empty Rules tag";
        return std::nullopt;
    }
    RuleOptions options;
    if (auto e = options.set("Ruleset", w[0])) {
        error = *e;
        return std::nullopt;
    }
    for (std::size_t i = 1; i < w.size(); ++i) {
        if (auto e = options.setAssignment(w[i], refuse)) {
            error = *e;
            return std::nullopt;
        }
    }
    return options;
}

std::optional<std::vector<GameRecord>> parseRecords(std::string_view text, std::string& error) {
    std::vector<GameRecord> records;
    std::size_t i = 0;
    int line = 1;
    const auto fail = [&](const std::string& what) {
        error = "line " + std::to_string(line) + ": " + what;
        return std::nullopt;
    };
    const auto skipSpace = [&] {
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) {
            if (text[i] == '\n') ++line;
            ++i;
        }
    };

    while (true) {
        skipSpace();
        if (i >= text.size()) break;
        GameRecord r;
        std::array<bool, 2> havePlayers{};
        bool haveDeal = false, haveResult = false;
        // Tags.
        while (i < text.size() && text[i] == '[') {
            const auto end = text.find('\n', i);
            std::string_view tagLine =
                text.substr(i, end == std::string_view::npos ? end : end - i);
            while (!tagLine.empty() && (tagLine.back() == '\r' || tagLine.back() == ' '))
                tagLine.remove_suffix(1);
            const auto space = tagLine.find(' ');
            if (tagLine.back() != ']' || space == std::string_view::npos ||
                tagLine[space + 1] != '"')
                return fail("malformed tag " + text::quoted(tagLine));
            const std::string key(tagLine.substr(1, space - 1));
            std::string value;
            std::size_t k = space + 2;
            for (; k < tagLine.size() && tagLine[k] != '"'; ++k) {
                if (tagLine[k] == '\\' && k + 1 < tagLine.size()) ++k;
                value += tagLine[k];
            }
            if (k + 2 != tagLine.size()) return fail("malformed tag " + text::quoted(tagLine));

            if (key == "Round") {
                const auto dot = value.find('.');
                const auto round = parseNumber<std::uint64_t>(value.substr(0, dot));
                const auto game = dot == std::string::npos
                                      ? std::nullopt
                                      : parseNumber<int>(value.substr(dot + 1));
                if (!round || !game || *round < 1 || *game < 1 || *game > 2)
                    return fail("Round tag " + text::quoted(value) + " (expected ROUND.GAME)");
                r.round = *round - 1;
                r.gameInPair = *game - 1;
            } else if (key == "Job") {
                r.job = parseNumber<std::uint64_t>(value).value_or(0);
            } else if (key == "Player1" || key == "Player2") {
                r.players[key == "Player1" ? 0 : 1] = value;
                havePlayers[key == "Player1" ? 0 : 1] = true;
            } else if (key == "Rules") {
                r.rules = value;
            } else if (key == "Deal") {
                r.deal = value;
                haveDeal = true;
            } else if (key == "Seed") {
                r.seed = parseNumber<std::uint64_t>(value).value_or(0);
            } else if (key == "Dice") {
                const auto mode = parseDiceMode(value);
                if (!mode) return fail("Dice tag " + text::quoted(value));
                r.diceMode = *mode;
            } else if (key == "Result" && value == "*") {
                r.finished = false;
                haveResult = true;
            } else if (key == "Result") {
                const auto o = parseOutcomeTag(value);
                if (!o) return fail("Result tag " + text::quoted(value));
                r.outcome = *o;
                haveResult = true;
            } else if (key == "Termination") {
                const auto t = parseTermination(value);
                if (!t) return fail("Termination tag " + text::quoted(value));
                r.termination = *t;
            } else if (key == "Detail") {
                r.detail = value;
            } else if (key == "Turns") {
                r.turns = parseNumber<std::uint32_t>(value).value_or(0);
            } else if (key == "Luck") {
                const auto luck = Luck::parse(value);
                if (!luck) return fail("Luck tag " + text::quoted(value));
                r.luck = *luck;
            } else if (key == "Final") {
                r.finalDfen = value;
            }
            // Other tags are kept by nobody: the format may grow.
            i = end == std::string_view::npos ? text.size() : end;
            skipSpace();
        }
        if (!haveDeal || !haveResult || !havePlayers[0] || !havePlayers[1])
            return fail("a record needs the tags Player1, Player2, Deal and Result");

        // Movetext, up to the result token.
        std::uint32_t turn = 0;
        bool pendingTurn = false;
        bool ended = false;
        while (!ended) {
            skipSpace();
            if (i >= text.size()) return fail("record ends without a result token");
            if (text[i] == '{') {
                const auto close = text.find('}', i);
                if (close == std::string_view::npos) return fail("unclosed comment");
                std::string comment(text.substr(i + 1, close - i - 1));
                for (const char c : comment)
                    if (c == '\n') ++line;
                for (char& c : comment)
                    if (c == '\n') c = ' ';
                if (comment.rfind("showdown ", 0) == 0) {
                    r.closingComment = comment;
                } else if (!r.events.empty()) {
                    r.events.back().comment = comment;
                }
                i = close + 1;
                continue;
            }
            std::size_t j = i;
            while (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j])) &&
                   text[j] != '{')
                ++j;
            const std::string_view token = text.substr(i, j - i);
            i = j;
            if (isResultToken(token)) {
                ended = true;
            } else if (isTurnNumber(token)) {
                turn = parseNumber<std::uint32_t>(token.substr(0, token.size() - 1)).value_or(0);
                pendingTurn = true;
            } else {
                r.events.push_back({std::string(token), "", turn, pendingTurn});
                pendingTurn = false;
            }
        }
        records.push_back(std::move(r));
    }
    return records;
}

}  // namespace dejarik::arena
