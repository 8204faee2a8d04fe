#include "tunables.h"

#include <array>
#include <charconv>
#include <cmath>
#include <fstream>
#include <iterator>
#include <set>

#include "eval.h"
#include "read_file.h"
#include "text.h"

namespace dejarik::eval {

namespace {

using T = Tunables;

constexpr TunableSpec weight(std::string_view name, double T::*member, double min, double max,
                             std::string_view what) {
    return {.name = name, .real = member, .min = min, .max = max, .what = what};
}
constexpr TunableSpec count(std::string_view name, int T::*member, int min, int max,
                            std::string_view what) {
    return {.name = name, .whole = member, .min = double(min), .max = double(max), .what = what};
}

// The ranges are where a tuner may look: wide enough to halve or double every weight, and
// kept where the evaluator's contracts hold (a positive slope floor and draw threshold,
// shares inside [0, 1], the quiet horizon within kQuietCap). One row (range, meaning) for each
// weight of EvalWeights, in its order and kEvalWeightNames'; every ruleset's weights use them.
struct EvalRow {
    double EvalWeights::*real = nullptr;
    int EvalWeights::*whole = nullptr;
    double min = 0, max = 0;
    std::string_view what;
};
constexpr std::array<EvalRow, kEvalWeightNames.size()> kEvalRows = {{
    {&EvalWeights::calibration, nullptr, 0.1, 2, "every term of a game not over"},
    {&EvalWeights::secondAttack, nullptr, 0, 1, "second in-place attack of a turn"},
    {&EvalWeights::reachAttack, nullptr, 0, 1, "an attack after a move"},
    {&EvalWeights::laterAfterTwoActions, nullptr, 0, 1,
     "the waiting side's attacks, the mover with two actions"},
    {&EvalWeights::laterAfterOneAction, nullptr, 0, 1,
     "the waiting side's attacks, the mover with one action"},
    {&EvalWeights::exposure, nullptr, 0, 1, "every profitable attack suffered"},
    {&EvalWeights::slopeFloor, nullptr, 0.01, 0.25, "least W (1 - W) in the logit's slope"},
    {&EvalWeights::mobilityPerCell, nullptr, 0, 0.05, "a cell in one move's reach"},
    {nullptr, &EvalWeights::mobilityCap, 0, 24, "cells per piece that count"},
}};

constexpr char upper(char c) {
    return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}

// Text built at compile time, for the prefixed names and meanings of a ruleset's rows.
struct Text {
    std::array<char, 80> chars{};
    std::size_t size = 0;
    [[nodiscard]] constexpr std::string_view view() const { return {chars.data(), size}; }
};
// `prefix` then `rest`, with the first letter of `rest` capitalised if asked
// ("holochess" "calibration": "holochessCalibration").
constexpr Text join(std::string_view prefix, std::string_view rest, bool capitalise) {
    Text t;
    for (const char c : prefix)
        t.chars[t.size++] = c;
    for (const char c : rest) {
        t.chars[t.size] = capitalise && t.size == prefix.size() ? upper(c) : c;
        ++t.size;
    }
    return t;
}

// The EvalWeights that serve a ruleset, and how their weights are named and described.
struct WeightGroup {
    EvalWeights T::*weights = nullptr;
    std::string_view prefix;  // of the names: "holochess" gives "holochessCalibration"
    std::string_view label;   // of the meanings: "holochess: every term of ..."
};
constexpr std::array<WeightGroup, 3> kGroups = {{
    {&T::base, "", ""},
    {&T::holochess, "holochess", "holochess"},
    {&T::classic, "classic", "dalsian-classic"},
}};
constexpr const WeightGroup& groupOf(Ruleset ruleset) {
    switch (ruleset) {
        case Ruleset::Holochess:
            return kGroups[1];
        case Ruleset::DalsianClassic:
            return kGroups[2];
        case Ruleset::Kelly:
        case Ruleset::Dalsian:
        case Ruleset::Courtier:
            break;
    }
    return kGroups[0];
}

// A group's names and meanings, built at compile time.
struct GroupTexts {
    std::array<Text, kEvalRows.size()> names, whats;
};
constexpr GroupTexts groupTexts(const WeightGroup& group) {
    GroupTexts g;
    const Text label = group.label.empty() ? Text{} : join(group.label, ": ", false);
    for (std::size_t i = 0; i < kEvalRows.size(); ++i) {
        g.names[i] = join(group.prefix, kEvalWeightNames[i], !group.prefix.empty());
        g.whats[i] = join(label.view(), kEvalRows[i].what, false);
    }
    return g;
}
constexpr std::array<GroupTexts, kGroups.size()> kGroupTexts = {
    groupTexts(kGroups[0]), groupTexts(kGroups[1]), groupTexts(kGroups[2])};

// The table's rows of kGroups[g].
constexpr std::array<TunableSpec, kEvalRows.size()> groupSpecs(std::size_t g) {
    std::array<TunableSpec, kEvalRows.size()> specs{};
    for (std::size_t i = 0; i < kEvalRows.size(); ++i) {
        const EvalRow& row = kEvalRows[i];
        specs[i] = {.name = kGroupTexts[g].names[i].view(),
                    .group = kGroups[g].weights,
                    .groupReal = row.real,
                    .groupWhole = row.whole,
                    .min = row.min,
                    .max = row.max,
                    .what = kGroupTexts[g].whats[i].view()};
    }
    return specs;
}

// The other weights.
constexpr std::array kOtherSpecs = {
    weight("centreKing", &T::centreKing, 0, 1, "a piece on a under KingOfTheCentre"),
    weight("centreWorth", &T::centreWorth, 0, 8, "its worth's share of that"),
    weight("safeRing", &T::safeRing, 0, 1, "share of the lead a hidden side voids"),
    weight("holdStep", &T::holdStep, 0, 2, "a CentreWin hold count about to reach N"),
    weight("holdContested", &T::holdContested, 0, 1, "a hold the other side can attack"),
    weight("holdWin", &T::holdWin, 0, 12, "an unstoppable hold, before calibration"),
    weight("holdWinRest", &T::holdWinRest, 0, 1, "the other terms' share beside it"),
    count("quietHorizon", &T::quietHorizon, 1, kQuietCap,
          "actions before the quiet draw where values shrink"),
    weight("kellyReport25", &T::kellyReport25, 0, 1, "kelly: reported result at |v| = 0.25"),
    weight("kellyReport50", &T::kellyReport50, 0, 1, "kelly: reported result at |v| = 0.50"),
    weight("kellyReport75", &T::kellyReport75, 0, 1, "kelly: reported result at |v| = 0.75"),
    weight("kellyDraw0", &T::kellyDraw0, 0, 1, "kelly: reported draw chance at |v| = 0"),
    weight("kellyDraw25", &T::kellyDraw25, 0, 1, "kelly: reported draw chance at |v| = 0.25"),
    weight("kellyDraw50", &T::kellyDraw50, 0, 1, "kelly: reported draw chance at |v| = 0.50"),
    weight("kellyDraw75", &T::kellyDraw75, 0, 1, "kelly: reported draw chance at |v| = 0.75"),
    weight("holochessReport25", &T::holochessReport25, 0, 1,
           "holochess: reported result at |v| = 0.25"),
    weight("holochessReport50", &T::holochessReport50, 0, 1,
           "holochess: reported result at |v| = 0.50"),
    weight("holochessReport75", &T::holochessReport75, 0, 1,
           "holochess: reported result at |v| = 0.75"),
    weight("holochessDraw0", &T::holochessDraw0, 0, 1,
           "holochess: reported draw chance at |v| = 0"),
    weight("holochessDraw25", &T::holochessDraw25, 0, 1,
           "holochess: reported draw chance at |v| = 0.25"),
    weight("holochessDraw50", &T::holochessDraw50, 0, 1,
           "holochess: reported draw chance at |v| = 0.50"),
    weight("holochessDraw75", &T::holochessDraw75, 0, 1,
           "holochess: reported draw chance at |v| = 0.75"),
    weight("dalsianReport25", &T::dalsianReport25, 0, 1, "dalsian: reported result at |v| = 0.25"),
    weight("dalsianReport50", &T::dalsianReport50, 0, 1, "dalsian: reported result at |v| = 0.50"),
    weight("dalsianReport75", &T::dalsianReport75, 0, 1, "dalsian: reported result at |v| = 0.75"),
    weight("dalsianDraw0", &T::dalsianDraw0, 0, 1, "dalsian: reported draw chance at |v| = 0"),
    weight("dalsianDraw25", &T::dalsianDraw25, 0, 1, "dalsian: reported draw chance at |v| = 0.25"),
    weight("dalsianDraw50", &T::dalsianDraw50, 0, 1, "dalsian: reported draw chance at |v| = 0.50"),
    weight("dalsianDraw75", &T::dalsianDraw75, 0, 1, "dalsian: reported draw chance at |v| = 0.75"),
    weight("classicReport25", &T::classicReport25, 0, 1,
           "dalsian-classic: reported result at |v| = 0.25"),
    weight("classicReport50", &T::classicReport50, 0, 1,
           "dalsian-classic: reported result at |v| = 0.50"),
    weight("classicReport75", &T::classicReport75, 0, 1,
           "dalsian-classic: reported result at |v| = 0.75"),
    weight("classicDraw0", &T::classicDraw0, 0, 1,
           "dalsian-classic: reported draw chance at |v| = 0"),
    weight("classicDraw25", &T::classicDraw25, 0, 1,
           "dalsian-classic: reported draw chance at |v| = 0.25"),
    weight("classicDraw50", &T::classicDraw50, 0, 1,
           "dalsian-classic: reported draw chance at |v| = 0.50"),
    weight("classicDraw75", &T::classicDraw75, 0, 1,
           "dalsian-classic: reported draw chance at |v| = 0.75"),
    weight("drawByHiding", &T::drawByHiding, 0, 1, "wdl: draw share of a hidden side"),
    weight("drawByStalemate", &T::drawByStalemate, 0, 1, "wdl: draw share of harmless pieces"),
    weight("decisive", &T::decisive, 0.01, 1, "wdl: kill chance below which exchanges draw"),
};

template <std::size_t... N>
constexpr auto concat(const std::array<TunableSpec, N>&... parts) {
    std::array<TunableSpec, (N + ...)> all{};
    std::size_t i = 0;
    ((std::copy(parts.begin(), parts.end(), all.begin() + static_cast<std::ptrdiff_t>(i)), i += N),
     ...);
    return all;
}
constexpr auto kSpecs = concat(groupSpecs(0), groupSpecs(1), groupSpecs(2), kOtherSpecs);

[[nodiscard]] std::string number(double v) {
    std::array<char, 32> buf{};
    const auto end = std::to_chars(buf.data(), buf.data() + buf.size(), v).ptr;
    return std::string(buf.data(), end);
}

[[nodiscard]] std::string_view trim(std::string_view s) {
    const auto first = s.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) return {};
    return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

[[nodiscard]] bool fits(const TunableSpec& spec, double v) {
    return std::isfinite(v) && (!spec.integral() || std::floor(v) == v) && v >= spec.min &&
           v <= spec.max;
}

[[nodiscard]] std::string badValue(const TunableSpec& spec, std::string_view text) {
    const std::string range = "[" + number(spec.min) + ", " + number(spec.max) + "]";
    return "bad value " + text::quoted(text) + " for " + std::string(spec.name) + " (" +
           (spec.integral() ? "an integer in " : "a number in ") + range + ")";
}

}  // namespace

double TunableSpec::get(const Tunables& t) const {
    if (group) return groupWhole ? (t.*group).*groupWhole : (t.*group).*groupReal;
    return whole ? t.*whole : t.*real;
}

void TunableSpec::set(Tunables& t, double value) const {
    if (group && groupWhole)
        (t.*group).*groupWhole = static_cast<int>(value);
    else if (group)
        (t.*group).*groupReal = value;
    else if (whole)
        t.*whole = static_cast<int>(value);
    else
        t.*real = value;
}

std::span<const TunableSpec> tunableSpecs() {
    return kSpecs;
}

const TunableSpec* findTunable(std::string_view name) {
    for (const TunableSpec& spec : kSpecs)
        if (spec.name == name) return &spec;
    return nullptr;
}

std::optional<double> Tunables::get(std::string_view name) const {
    const TunableSpec* spec = findTunable(name);
    if (!spec) return std::nullopt;
    return spec->get(*this);
}

std::optional<std::string> Tunables::set(std::string_view name, std::string_view value) {
    const TunableSpec* spec = findTunable(name);
    if (!spec) return "unknown weight " + text::quoted(name);
    double v = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec != std::errc() || end != value.data() + value.size() || !fits(*spec, v))
        return badValue(*spec, value);
    spec->set(*this, v);
    return std::nullopt;
}

std::optional<std::string> Tunables::set(std::string_view name, double value) {
    const TunableSpec* spec = findTunable(name);
    if (!spec) return "unknown weight " + text::quoted(name);
    if (!fits(*spec, value)) return badValue(*spec, number(value));
    spec->set(*this, value);
    return std::nullopt;
}

std::optional<std::string> parseTunables(std::string_view text, std::string_view source,
                                         Tunables& into) {
    Tunables t = into;
    std::set<std::string_view> seen;
    int lineNumber = 0;
    while (!text.empty()) {
        const auto newline = text.find('\n');
        std::string_view line = text.substr(0, newline);
        text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
        ++lineNumber;
        line = trim(line.substr(0, line.find('#')));
        if (line.empty()) continue;
        const auto where = std::string(source) + ":" + std::to_string(lineNumber) + ": ";
        const auto gap = line.find_first_of(" \t");
        if (gap == std::string_view::npos)
            return where + "expected 'name value', got " + text::quoted(line);
        const std::string_view name = line.substr(0, gap), value = trim(line.substr(gap));
        if (value.find_first_of(" \t") != std::string_view::npos)
            return where + "expected 'name value', got " + text::quoted(line);
        if (!seen.insert(name).second) return where + text::quoted(name) + " given twice";
        if (auto error = t.set(name, value)) return where + *error;
    }
    into = t;
    return std::nullopt;
}

std::optional<std::string> loadTunables(const std::string& path, Tunables& into) {
    ReadError why;
    const auto text = readFile(path, {.maxBytes = kMaxTunablesBytes}, why);
    if (!text) return "cannot read " + path + ": " + why.what;
    Tunables t = kDefaultTunables;
    if (auto error = parseTunables(*text, path, t)) return error;
    into = t;
    return std::nullopt;
}

std::string formatTunables(const Tunables& t) {
    std::string out = "# Dejarik evaluation weights: name value (docs/eval.md, \"Weights\")\n";
    for (const TunableSpec& spec : kSpecs) {
        std::string line = std::string(spec.name) + " " + number(spec.get(t));
        line.resize(std::max<std::size_t>(line.size(), 30), ' ');
        out += line + "  # " + std::string(spec.what) + "; [" + number(spec.min) + ", " +
               number(spec.max) + "], default " + number(spec.defaultValue()) + "\n";
    }
    return out;
}

std::optional<std::string> saveTunables(const std::string& path, const Tunables& t,
                                        std::string_view header) {
    std::ofstream out(path, std::ios::trunc);
    out << header << formatTunables(t);
    if (!out.flush()) return "cannot write " + path;
    return std::nullopt;
}

Tunables::ReportModel Tunables::reportModel(Ruleset ruleset) const {
    switch (ruleset) {
        case Ruleset::Holochess:
            return {{holochessReport25, holochessReport50, holochessReport75},
                    {holochessDraw0, holochessDraw25, holochessDraw50, holochessDraw75}};
        case Ruleset::Dalsian:
            return {{dalsianReport25, dalsianReport50, dalsianReport75},
                    {dalsianDraw0, dalsianDraw25, dalsianDraw50, dalsianDraw75}};
        case Ruleset::DalsianClassic:
            return {{classicReport25, classicReport50, classicReport75},
                    {classicDraw0, classicDraw25, classicDraw50, classicDraw75}};
        case Ruleset::Kelly:
        case Ruleset::Courtier:
            break;
    }
    return {{kellyReport25, kellyReport50, kellyReport75},
            {kellyDraw0, kellyDraw25, kellyDraw50, kellyDraw75}};
}

EvalWeights Tunables::evalWeights(Ruleset ruleset) const {
    return this->*groupOf(ruleset).weights;
}

std::string evalWeightName(std::string_view base, Ruleset ruleset) {
    const std::string_view prefix = groupOf(ruleset).prefix;
    if (prefix.empty()) return std::string(base);
    std::string name = std::string(prefix) + std::string(base);
    name[prefix.size()] = upper(name[prefix.size()]);
    return name;
}

}  // namespace dejarik::eval
