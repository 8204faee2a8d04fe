#include "cli.h"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <boost/program_options.hpp>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <new>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "analysis.h"
#include "baselines.h"
#include "bench.h"
#include "command.h"
#include "command_line.h"
#include "display.h"
#include "endgame.h"
#include "engine.h"
#include "game_analysis.h"
#include "info.h"
#include "log_file.h"
#include "material.h"
#include "odds.h"
#include "options.h"
#include "output.h"
#include "position.h"
#include "race.h"
#include "report.h"
#include "rollout.h"
#include "rules.h"
#include "search.h"
#include "text.h"
#include "text_file.h"

namespace po = boost::program_options;

namespace dejarik::protocol {

namespace {

// A bad command line: reported once on stderr by runCommandLine, exit code 2.
using tools::UsageError;

constexpr std::string_view kUsage =
    "Usage: dejarik [--log-file F] [--log-level L]         the DEI protocol on stdin/stdout\n"
    "       dejarik analyse [options]                      analyse a position\n"
    "       dejarik odds [options]                         exact combat and showdown odds\n"
    "       dejarik bench [--depth N]                      the fixed search benchmark\n"
    "       dejarik analyse-game --records FILE [options]  every error and every roll's luck\n"
    "       dejarik rollout --games N [options]            settle a position by playouts\n"
    "Each subcommand has --help.";

struct LogSettings {
    std::string file;
    std::string level = "warn";
};

void addLogOptions(po::options_description& desc, LogSettings& log) {
    desc.add_options()("log-file", po::value(&log.file),
                       "write the log to this file instead of stderr")(
        "log-level", po::value(&log.level)->default_value("warn"),
        "trace, debug (every protocol line), info, warn, error or off");
}

// Logs go to stderr or a file, never to stdout, which carries protocol lines only.
void setUpLogging(const LogSettings& log) {
    static constexpr std::array<std::string_view, 8> kLevels = {
        "trace", "debug", "info", "warn", "warning", "error", "critical", "off"};
    if (std::find(kLevels.begin(), kLevels.end(), log.level) == kLevels.end())
        throw UsageError{"--log-level: unknown level '" + log.level +
                         "' (expected trace, debug, info, warn, error, critical or off)"};
    std::shared_ptr<spdlog::logger> logger =
        log.file.empty() ? spdlog::stderr_logger_mt("dejarik")
                         : std::make_shared<spdlog::logger>(
                               "dejarik", tools::openLogFile("--log-file", log.file));
    logger->set_level(spdlog::level::from_str(log.level));
    logger->flush_on(spdlog::level::trace);
    spdlog::set_default_logger(logger);
}

// What every subcommand does with its flags: adds the log flags, parses, shows --help (then
// nothing is returned and there is nothing more to do) or else sets up logging.
std::optional<po::variables_map> parseSubcommand(const std::vector<std::string>& args,
                                                 po::options_description& desc, LogSettings& log) {
    addLogOptions(desc, log);
    po::variables_map vm = tools::parseOptions(args, desc);
    if (vm.count("help")) {
        std::cout << desc << '\n';
        return std::nullopt;
    }
    setUpLogging(log);
    return vm;
}

template <typename T>
T inRange(const po::variables_map& vm, const char* name, T min, T max) {
    const T v = vm[name].as<T>();
    if (v < min || v > max)
        throw UsageError{"--" + std::string(name) + " must be from " + std::to_string(min) +
                         " to " + std::to_string(max) + ", got " + std::to_string(v)};
    return v;
}

Rules rulesFrom(const std::string& ruleset, const std::vector<std::string>& options) {
    RuleOptions ruleOptions;
    if (auto err = ruleOptions.set("Ruleset", ruleset)) throw UsageError{"--ruleset: " + *err};
    for (const auto& o : options)
        if (auto err = ruleOptions.setAssignment(o)) throw UsageError{"--option: " + *err};
    return Rules(ruleOptions);
}

// --help, --ruleset and --option: what every subcommand about positions or odds takes.
void addCommonFlags(po::options_description& desc, std::string& ruleset,
                    std::vector<std::string>& options) {
    desc.add_options()("help,h", "show this help");
    const OptionSpec& rulesetSpec = findRuleOption("Ruleset")->spec;
    std::string names;
    for (const RuleOptionSpec& r : ruleOptionSpecs())
        names += (names.empty() ? "" : ", ") + std::string(r.spec.name);
    desc.add_options()("ruleset", po::value(&ruleset)->default_value(*rulesetSpec.defaultValue()),
                       expectedValue(rulesetSpec).c_str())(
        "option", po::value(&options)->composing(),
        ("a rule option as Name=Value with its DEI name and value, repeatable: " + names).c_str());
}

// A flag for every engine option that has one (Hash as --hash, ...), or for those of `only`.
void addEngineOptionFlags(po::options_description& desc,
                          const std::vector<std::string_view>& only = {}) {
    for (const Option& option : options()) {
        if (option.flag.empty()) continue;
        if (!only.empty() && std::find(only.begin(), only.end(), option.flag) == only.end())
            continue;
        const std::string help = std::string(option.help) + " (" + expectedValue(option.spec) +
                                 ", default " + option.spec.defaultValue().value_or("none") + ")";
        desc.add_options()(std::string(option.flag).c_str(), po::value<std::string>(),
                           help.c_str());
    }
}

// The engine option flags given, set through the registry as setoption sets them.
Settings engineOptionsFrom(const po::variables_map& vm,
                           const std::vector<std::string_view>& only = {}) {
    Settings settings;
    for (const Option& option : options()) {
        const std::string flag(option.flag);
        if (flag.empty() || !vm.count(flag)) continue;
        if (!only.empty() && std::find(only.begin(), only.end(), option.flag) == only.end())
            continue;
        if (auto error = setOption(settings, option, vm[flag].as<std::string>()))
            throw UsageError{"--" + flag + ": " + *error};
    }
    return settings;
}

void printLines(const std::vector<std::string>& lines) {
    for (const auto& l : lines)
        std::cout << l << '\n';
}

std::string percent(int perMille) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%5.1f%%", perMille / 10.0);
    return buf;
}

// The pv's tokens, each written by the position it is played in (set-ups, RULES §15.3).
std::string pvText(const Position& root, const search::Line& line) {
    std::string s;
    std::optional<Position> pos = root;
    for (const Event e : line.pv) {
        if (!s.empty()) s += ' ';
        s += pos ? pos->token(e) : e.token();
        if (pos && pos->isLegal(e)) {
            pos->apply(e);
        } else {
            pos.reset();
        }
    }
    return s.empty() ? root.token(line.move) : s;
}

// Where analyse and rollout start: --startpos or --dfen D, then the --moves events.
struct PositionFlags {
    std::string dfen;
    std::string moves;
};

void addPositionFlags(po::options_description& desc, PositionFlags& flags) {
    desc.add_options()("startpos", "the ruleset's standard start (the default)")(
        "dfen", po::value(&flags.dfen), "start from this DFEN (quote it: it has spaces)")(
        "moves", po::value(&flags.moves), "events to play first, space-separated");
}

void checkPositionFlags(const po::variables_map& vm) {
    if (vm.count("startpos") && vm.count("dfen"))
        throw UsageError{"give only one of --startpos and --dfen"};
}

// The start the flags name and the position after their moves.
struct FlaggedPosition {
    Position start;
    Position now;
    std::string moves;
    // The line that tells the reader what was analysed.
    [[nodiscard]] std::string line() const {
        return "position " + start.dfen() + (moves.empty() ? "" : " moves " + moves);
    }
};

FlaggedPosition positionFrom(const po::variables_map& vm, const PositionFlags& flags,
                             const Rules& rules) {
    std::string error;
    const auto start = vm.count("dfen") ? Position::fromDfen(flags.dfen, rules, &error)
                                        : std::optional(Position::startpos(rules));
    if (!start) throw UsageError{"--dfen: " + error};
    const auto now = playTokens(*start, flags.moves, &error);
    if (!now) throw UsageError{"--moves: " + error};
    return {*start, *now, flags.moves};
}

// The search limits of analyse, analyse-game and rollout: --depth or --movetime, else
// `otherwise`.
search::Limits searchLimits(const po::variables_map& vm, const search::Limits& otherwise) {
    if (vm.count("depth") && vm.count("movetime"))
        throw UsageError{"give only one of --depth and --movetime"};
    search::Limits limits;
    if (vm.count("depth")) limits.depth = inRange(vm, "depth", 1, kMaxGoDepth);
    if (vm.count("movetime"))
        limits.movetimeMs = inRange<std::int64_t>(vm, "movetime", 1, kMaxTimeMs);
    return limits.depth == 0 && limits.movetimeMs == 0 ? otherwise : limits;
}

search::Limits depthLimit(int depth) {
    search::Limits limits;
    limits.depth = depth;
    return limits;
}

int runAnalyse(const std::vector<std::string>& args) {
    std::string ruleset;
    PositionFlags position;
    std::vector<std::string> options;
    LogSettings log;
    po::options_description desc(
        "Usage: dejarik analyse [--ruleset R] [--option Name=Value]... (--startpos | --dfen D)\n"
        "                       [--moves \"e1 e2 ...\"] [--depth N | --movetime MS] [--multipv K]\n"
        "                       [--hash MiB] [--threads N] [--eval-file FILE]\n"
        "Searches the decision due in a position and prints the ranked decisions with their\n"
        "expected result, win/draw/loss chances and principal variation. With neither --depth\n"
        "nor --movetime it thinks for one second.\nOptions");
    addCommonFlags(desc, ruleset, options);
    addPositionFlags(desc, position);
    desc.add_options()("depth", po::value<int>(), "search this many actions deep (1-64)")(
        "movetime", po::value<std::int64_t>(), "think this many milliseconds");
    addEngineOptionFlags(desc);
    const auto parsed = parseSubcommand(args, desc, log);
    if (!parsed) return 0;  // --help was shown
    const po::variables_map& vm = *parsed;
    checkPositionFlags(vm);
    search::Limits oneSecond;
    oneSecond.movetimeMs = 1000;
    const search::Limits limits = searchLimits(vm, oneSecond);
    const Settings settings = engineOptionsFrom(vm);
    const search::Options searchOptions = settings.search;

    const Rules rules = rulesFrom(ruleset, options);
    const FlaggedPosition flagged = positionFrom(vm, position, rules);
    const Position& pos = flagged.now;
    // The table before any output: a size that cannot be had is a usage error.
    search::Searcher searcher;
    try {
        searcher.setOptions(searchOptions);
    } catch (const std::bad_alloc&) {
        throw UsageError{"--hash: cannot allocate " + std::to_string(searchOptions.hashMiB) +
                         " MiB"};
    }
    std::string tableError;
    searcher.setTables(openTables(settings, rules, &tableError));
    if (!tableError.empty()) throw UsageError{"--table-path: " + tableError};
    eval::Tunables tunables;
    if (!settings.evalFile.empty())
        if (auto error = eval::loadTunables(settings.evalFile, tunables))
            throw UsageError{"--eval-file: " + *error};
    searcher.setTunables(tunables);
    searcher.setPlay(settings.play);

    std::cout << "rules    " << rules.describe() << '\n';
    if (rules.fromCreatureFile()) std::cout << creaturesText(rules) << '\n';
    std::cout << flagged.line() << '\n';
    printLines(boardPicture(pos));
    std::cout << dueText(pos) << '\n';
    if (pos.isOver()) return 0;
    if (pos.phase() == Phase::Outcome) {
        std::cout << oddsLine(pos, Event::attack(pos.pendingFrom(), pos.pendingTo())) << '\n';
        return 0;
    }
    if (pos.phase() == Phase::Roll) {
        std::cout << rollOddsLine(pos) << '\n';
        return 0;
    }
    if (rules.raysOfDeath()) std::cout << raysText(pos) << '\n';

    const search::Report report = searcher.run(pos, limits);
    const std::int64_t ms = report.timeMs;
    std::cout << "\nsearched " << report.depth << " actions deep, " << report.nodes << " nodes in "
              << ms << " ms (" << report.nodes * 1000 / static_cast<std::uint64_t>(ms > 0 ? ms : 1)
              << " nodes/s)\n";
    std::vector<search::Line> lines = report.lines;
    if (lines.empty() && !report.best.isNone())
        lines.push_back(staticLine(pos, report.best, tunables));
    std::cout << "rank  decision       ev     win    draw    loss  principal variation\n";
    for (std::size_t k = 0; k < lines.size(); ++k) {
        const auto& l = lines[k];
        char head[96];
        std::snprintf(head, sizeof head, "%4zu  %-10s %+7.3f  %s  %s  %s  ", k + 1,
                      pos.token(l.move).c_str(), (l.wdl[0] - l.wdl[2]) / 1000.0,
                      percent(l.wdl[0]).c_str(), percent(l.wdl[1]).c_str(),
                      percent(l.wdl[2]).c_str());
        std::cout << head << pvText(pos, l) << (l.exact ? "  (exact)" : "") << '\n';
    }
    std::cout << "ev is the expected result for " << playerName(pos.decider())
              << ": +1 a certain win, -1 a certain loss\n";
    return 0;
}

// A creature letter (its rating under the rules) or a bare rating.
struct Side {
    std::optional<Creature> creature;
    int rating = 0;
};

constexpr int kMaxBareRating = 12;  // pools 12 dice against 12 still count rolls in 64 bits

Side parseSide(const std::string& flag, const std::string& text, const Rules& rules,
               int Ratings::*rating, bool best) {
    Side side;
    if (text.size() == 1 && !std::isdigit(static_cast<unsigned char>(text[0]))) {
        const auto piece = rules.pieceOf(text[0]);
        if (!piece)
            throw UsageError{flag + ": '" + text + "' is neither a creature letter (" +
                             rules.letters() + ") nor a rating"};
        side.creature = piece->creature();
        const Ratings& r = rules.ratings(*side.creature);
        side.rating = best ? std::max(r.attack, r.defence) : r.*rating;
        return side;
    }
    int v = -1;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v < 0 ||
        v > kMaxBareRating)
        throw UsageError{flag + ": '" + text + "' is neither a creature letter (SMGHTNKL) nor a " +
                         "rating from 0 to " + std::to_string(kMaxBareRating)};
    side.rating = v;
    return side;
}

// An army for --race: creature letters of the rules' set, either case, 1 to race::kMaxArmy.
std::vector<Creature> parseArmy(const std::string& text, const Rules& rules) {
    if (text.empty() || text.size() > static_cast<std::size_t>(race::kMaxArmy))
        throw UsageError{"--race: an army is 1 to " + std::to_string(race::kMaxArmy) +
                         " creature letters, not '" + text + "'"};
    std::vector<Creature> army;
    for (const char c : text) {
        const auto piece = rules.pieceOf(c);
        if (!piece)
            throw UsageError{"--race: '" + std::string(1, c) + "' in '" + text +
                             "' is not a creature letter (" + rules.letters() + ")"};
        army.push_back(piece->creature());
    }
    return army;
}

// A progress line on stderr when it is a terminal, at most a few times a second.
class ProgressLine {
  public:
    explicit ProgressLine(std::string what) : what_(std::move(what)), shown_(isatty(2) != 0) {}
    [[nodiscard]] const std::string& what() const { return what_; }
    void update(std::uint64_t done, std::uint64_t total) {
        if (!shown_) return;
        const auto now = std::chrono::steady_clock::now();
        if (done < total && now - last_ < std::chrono::milliseconds(250)) return;
        last_ = now;
        const double s = std::chrono::duration<double>(now - start_).count();
        const double eta = done > 0 ? s * static_cast<double>(total - done) / done : 0;
        std::fprintf(stderr, "\r%s %llu/%llu, %.0f s, ETA %.0f s   ", what_.c_str(),
                     static_cast<unsigned long long>(done), static_cast<unsigned long long>(total),
                     s, eta);
        if (done == total) std::fprintf(stderr, "\r%*s\r", static_cast<int>(what_.size()) + 48, "");
        std::fflush(stderr);
    }

  private:
    std::string what_;
    bool shown_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point last_{};
};

// "SGN v MH": a set of `pieces` creatures, the player's army first, read as dejarik-tb reads a
// set (tables::parseMaterial: the tables hold the rulesets' own creatures only).
tables::Material parseSet(const std::string& text, int pieces) {
    std::string error;
    const auto m = tables::parseMaterial(text, &error);
    if (!m) throw UsageError{"--material: " + error};
    if (m->pieces() != pieces)
        throw UsageError{"--material: '" + text + "' has " + std::to_string(m->pieces()) +
                         " creatures, not --max-pieces' " + std::to_string(pieces)};
    return *m;
}

int runOdds(const std::vector<std::string>& args) {
    std::string ruleset, attacker, defender, attack, defence;
    std::vector<std::string> options, showdown, race, materials;
    std::string against;
    LogSettings log;
    po::options_description desc(
        "Usage: dejarik odds [--ruleset R] [--option Name=Value]...\n"
        "                    [--attacker X --defender Y | --attack A --defence D |\n"
        "                     --showdown P1 P2 | --race [ARMY1 ARMY2] [--against P\n"
        "                     [--unboxed | --lone-box] [--exact [--max-pieces N]\n"
        "                     [--material SET]... [--threads T]]]]\n"
        "Prints exact outcome probabilities of an attack (X, Y, P1, P2: a creature letter of\n"
        "SMGHTNKL, rated by the ruleset, or a bare rating), or the showdown of player 1's last\n"
        "piece P1 against player 2's P2. Without a pair, every creature against every "
        "other.\n--race: the most any player can score from two armies (creature letters, e.g.\n"
        "GLNT KHMS), whatever both sides do; without armies, every split a deal makes.\n"
        "--against P: the same when the opponent is the baseline player P: it makes only the\n"
        "attacks it would choose, and where the armies allow it to be left without a move, the\n"
        "attacks it would then have to make (greedy, cautious: its best on some such board;\n"
        "random: any); with --unboxed, never (games in which it always has a move); with\n"
        "--lone-box, only when down to a lone piece (never two pieces against four).\n"
        "Options");
    addCommonFlags(desc, ruleset, options);
    desc.add_options()("attacker", po::value(&attacker),
                       "the attacking creature (its attack rating) or a rating")(
        "defender", po::value(&defender),
        "the defending creature (its defence rating) or a rating")(
        "attack", po::value(&attack), "the attack rating")("defence", po::value(&defence),
                                                           "the defence rating")(
        "showdown", po::value(&showdown)->multitoken(),
        "P1 P2: the showdown of the last two pieces (each with its best rating)")(
        "race", po::value(&race)->multitoken()->zero_tokens(),
        "[ARMY1 ARMY2]: the race bound of player 1's army against player 2's")(
        "against", po::value(&against),
        "with --race: the opponent (random, greedy or cautious) makes only the attacks it would "
        "choose while it has a legal move")(
        "unboxed", "with --against: only games in which the opponent always has a legal move")(
        "lone-box",
        "with --against: the opponent is left without a move only as a lone piece, never as "
        "two pieces against four")(
        "exact",
        "with --against: armies of up to four creatures (--max-pieces) take the most the player "
        "scores "
        "against P from any of their positions, solved exactly with the quiet draw (two armies, "
        "or rules with one split)")("threads", po::value<int>()->default_value(1),
                                    "with --exact: threads to solve on (1-256)")(
        "max-pieces", po::value<int>()->default_value(tables::kDefaultMaxPieces),
        "with --exact: solve the armies of up to N creatures (3-5; five take about a minute a "
        "set)")(
        "material", po::value(&materials),
        "with --max-pieces N: of the armies of N creatures, solve only this one, the player's "
        "creatures first (\"SGN v MH\"; repeatable; the others keep the race's value)");
    const auto parsed = parseSubcommand(args, desc, log);
    if (!parsed) return 0;  // --help was shown
    const po::variables_map& vm = *parsed;
    const Rules rules = rulesFrom(ruleset, options);
    if (rules.courtier()) throw UsageError{"--ruleset: no attacks in Courtier"};
    const std::string dice(diceModelName(rules.dice()));

    const int attackerFlags = static_cast<int>(vm.count("attacker") + vm.count("attack"));
    const int defenderFlags = static_cast<int>(vm.count("defender") + vm.count("defence"));
    if (attackerFlags > 1) throw UsageError{"give only one of --attacker and --attack"};
    if (defenderFlags > 1) throw UsageError{"give only one of --defender and --defence"};
    if (attackerFlags != defenderFlags)
        throw UsageError{
            "an attack needs both sides: --attacker X --defender Y or --attack A "
            "--defence D"};
    if (vm.count("against") && !vm.count("race")) throw UsageError{"--against goes with --race"};
    for (const std::string flag : {"unboxed", "lone-box", "exact"})
        if (vm.count(flag) && !vm.count("against"))
            throw UsageError{"--" + flag + " goes with --against"};
    for (const std::string flag : {"max-pieces", "material"})
        if (!vm[flag].defaulted() && vm.count(flag) && !vm.count("exact"))
            throw UsageError{"--" + flag + " goes with --exact"};
    if (vm.count("lone-box") && vm.count("unboxed"))
        throw UsageError{"give only one of --unboxed and --lone-box"};
    if (vm.count("race")) {
        if (attackerFlags || vm.count("showdown"))
            throw UsageError{"--race goes with no attack and no showdown"};
        if (!race::materialDecides(rules))
            throw UsageError{
                "--race: these rules decide games by more than material "
                "(CentreWin, Rays of Death)"};
        std::optional<Armies> armies;
        if (!race.empty()) {
            if (race.size() != 2)
                throw UsageError{"--race takes two armies, player 1's and player 2's"};
            armies = Armies{parseArmy(race[0], rules), parseArmy(race[1], rules)};
        }
        race::Opponent opponent;
        std::optional<ExactEndings> exact;
        if (vm.count("against")) {
            const auto baseline = search::parseBaseline(against);
            if (!baseline) throw UsageError{"--against: " + search::notABaseline(against)};
            opponent = search::raceModel(*baseline, rules);
            if (vm.count("exact")) {
                if (rules.drawTurns() <= 0)
                    throw UsageError{
                        "--exact: the endings are solved with the quiet draw "
                        "(DrawTurns above 0)"};
                exact = ExactEndings{*baseline,
                                     inRange(vm, "threads", 1, 256),
                                     inRange(vm, "max-pieces", 3, tables::kMaxPieces),
                                     {},
                                     {}};
                for (const std::string& m : materials)
                    exact->largest.push_back(parseSet(m, exact->maxPieces));
                exact->progress = [line = std::shared_ptr<ProgressLine>()](
                                      const std::string& what, std::size_t done,
                                      std::size_t total) mutable {
                    if (!line || what != line->what()) line = std::make_shared<ProgressLine>(what);
                    line->update(done, total);
                };
            }
        }
        try {
            const race::Boxing boxing = vm.count("unboxed")    ? race::Boxing::Never
                                        : vm.count("lone-box") ? race::Boxing::LonePiece
                                                               : race::Boxing::WhereArmiesAllow;
            printLines(raceLines(rules, armies, opponent, boxing, exact));
        } catch (const std::runtime_error& e) {
            throw UsageError{std::string("--exact: ") + e.what()};
        }
        return 0;
    }
    if (vm.count("showdown")) {
        if (attackerFlags) throw UsageError{"--showdown does not go with an attack"};
        if (showdown.size() != 2)
            throw UsageError{"--showdown takes two pieces, player 1's and player 2's"};
        const Side p1 = parseSide("--showdown", showdown[0], rules, &Ratings::attack, true);
        const Side p2 = parseSide("--showdown", showdown[1], rules, &Ratings::attack, true);
        printLines(showdownTable(rules.dice(), p1.rating, p2.rating));
        return 0;
    }
    if (attackerFlags) {
        const Side a = vm.count("attacker")
                           ? parseSide("--attacker", attacker, rules, &Ratings::attack, false)
                           : parseSide("--attack", attack, rules, &Ratings::attack, false);
        const Side d = vm.count("defender")
                           ? parseSide("--defender", defender, rules, &Ratings::defence, false)
                           : parseSide("--defence", defence, rules, &Ratings::defence, false);
        if (vm.count("attack") && a.creature)
            throw UsageError{"--attack takes a rating; use --attacker for a creature"};
        if (vm.count("defence") && d.creature)
            throw UsageError{"--defence takes a rating; use --defender for a creature"};
        printLines(oddsTable(rules.dice(), a.rating, d.rating));
        return 0;
    }
    std::cout << "ruleset " << rulesetName(rules.ruleset()) << ", every attacker against every "
              << "defender (upper case: attacker, lower case: defender)\n";
    for (int a = 0; a < rules.creatureCount(); ++a) {
        for (int d = 0; d < rules.creatureCount(); ++d) {
            const auto ca = static_cast<Creature>(a), cd = static_cast<Creature>(d);
            std::cout << '\n'
                      << rules.letter(Piece(Player::One, ca)) << 'x'
                      << rules.letter(Piece(Player::Two, cd)) << '\n';
            printLines(
                oddsTable(rules.dice(), rules.ratings(ca).attack, rules.ratings(cd).defence));
        }
    }
    return 0;
}

int runBenchCommand(const std::vector<std::string>& args) {
    LogSettings log;
    po::options_description desc(
        "Usage: dejarik bench [--depth N]\n"
        "Searches a fixed set of positions with fixed settings; the node count is the build's\n"
        "signature.\nOptions");
    desc.add_options()("help,h", "show this help")(
        "depth", po::value<int>()->default_value(search::kBenchDepth),
        ("search depth (1-" + std::to_string(kMaxBenchDepth) + ")").c_str());
    const auto parsed = parseSubcommand(args, desc, log);
    if (!parsed) return 0;  // --help was shown
    const po::variables_map& vm = *parsed;
    const int depth = inRange(vm, "depth", 1, kMaxBenchDepth);
    const auto result =
        search::runBench(depth, [](const std::string& line) { std::cout << line << std::endl; });
    std::cout << "bench nodes " << result.nodes << " nps " << result.nps << " time "
              << result.timeMs << std::endl;
    return 0;
}

std::string limitsText(const search::Limits& limits) {
    return limits.depth > 0 ? "depth " + std::to_string(limits.depth)
                            : std::to_string(limits.movetimeMs) + " ms a position";
}

// The engine settings of the analysis flags, the table size defaulting to `hashMiB` (every
// position is searched from an empty table, which a smaller table clears faster).
Settings analysisSettings(const po::variables_map& vm, const std::vector<std::string_view>& flags,
                          int hashMiB) {
    Settings settings = engineOptionsFrom(vm, flags);
    if (!vm.count("hash")) settings.search.hashMiB = hashMiB;
    return settings;
}

analysis::SearchSettings searchSettingsFor(const Settings& settings, const Rules& rules,
                                           const search::Limits& limits) {
    analysis::SearchSettings s;
    s.limits = limits;
    s.options = settings.search;
    try {
        // Every search of the analysis has a table this size: one that cannot be had is a
        // usage error before any output.
        search::Searcher probe;
        probe.setOptions(s.options);
    } catch (const std::bad_alloc&) {
        throw UsageError{"--hash: cannot allocate " + std::to_string(s.options.hashMiB) + " MiB"};
    }
    std::string tableError;
    s.tables = openTables(settings, rules, &tableError);
    if (!tableError.empty()) throw UsageError{"--table-path: " + tableError};
    return s;
}

void writeFile(const std::string& flag, const std::string& path, const std::string& text) {
    std::ofstream out(path);
    out << text;
    out.close();
    if (!out) throw UsageError{flag + ": cannot write '" + path + "'"};
}

int runAnalyseGame(const std::vector<std::string>& args) {
    std::string recordsPath, jsonPath, svgPath;
    LogSettings log;
    po::options_description desc(
        "Usage: dejarik analyse-game --records FILE [--game K | --all]\n"
        "                            [--depth D | --movetime MS] [--threads N] [--hash MiB]\n"
        "                            [--json FILE] [--svg FILE]\n"
        "Analyses recorded games (dejarik-arena --records): every decision's error against the\n"
        "engine's best, every roll's luck, a summary per player. Without --depth or --movetime\n"
        "every position is searched 4 actions deep.\nOptions");
    desc.add_options()("help,h", "show this help")("records", po::value(&recordsPath),
                                                   "the records file")(
        "game", po::value<int>(), "the K-th record of the file (from 1; the default 1)")(
        "all", "every record of the file")("depth", po::value<int>(),
                                           "search every position this many actions deep")(
        "movetime", po::value<std::int64_t>(), "search every position this many milliseconds")(
        "json", po::value(&jsonPath), "write every event as a JSON object per line here")(
        "svg", po::value(&svgPath), "draw player 1's ev over each game here");
    const std::vector<std::string_view> engineFlags = {"hash", "threads", "tables", "table-path"};
    addEngineOptionFlags(desc, engineFlags);
    const auto parsed = parseSubcommand(args, desc, log);
    if (!parsed) return 0;
    const po::variables_map& vm = *parsed;
    if (recordsPath.empty()) throw UsageError{"--records: a records file is needed"};
    if (vm.count("game") && vm.count("all")) throw UsageError{"give only one of --game and --all"};
    const search::Limits limits = searchLimits(vm, depthLimit(4));
    const Settings settings = analysisSettings(vm, engineFlags, 4);

    std::string error;
    const auto text = arena::readTextFile(recordsPath, error);
    if (!text) throw UsageError{"--records: " + error};
    const auto records = arena::parseRecords(*text, error);
    if (!records) throw UsageError{"--records " + recordsPath + ": " + error};
    if (records->empty()) throw UsageError{"--records " + recordsPath + ": no records"};
    std::vector<int> chosen;
    if (vm.count("all")) {
        for (int k = 1; k <= static_cast<int>(records->size()); ++k)
            chosen.push_back(k);
    } else {
        const int k = vm.count("game") ? vm["game"].as<int>() : 1;
        if (k < 1 || k > static_cast<int>(records->size()))
            throw UsageError{"--game " + std::to_string(k) + ": " + recordsPath + " holds " +
                             std::to_string(records->size()) + " records"};
        chosen.push_back(k);
    }
    // Every chosen record checked before any output: its rules known, its events legal.
    std::vector<std::unique_ptr<Rules>> rules;
    for (const int k : chosen) {
        const arena::GameRecord& r = (*records)[static_cast<std::size_t>(k - 1)];
        const std::string where = recordsPath + " record " + std::to_string(k) + ": ";
        const auto replay = arena::replayRecord(r, error);
        if (!replay) throw UsageError{"--records " + where + error};
        rules.push_back(std::make_unique<Rules>(*arena::parseRulesTag(r.rules, error)));
    }

    std::vector<analysis::AnalysedGame> games;
    std::string json;
    for (std::size_t i = 0; i < chosen.size(); ++i) {
        const arena::GameRecord& r = (*records)[static_cast<std::size_t>(chosen[i] - 1)];
        const analysis::SearchSettings search = searchSettingsFor(settings, *rules[i], limits);
        ProgressLine progress("analysing game " + std::to_string(chosen[i]) + ", event");
        const auto start = std::chrono::steady_clock::now();
        auto a =
            analysis::analyseGame(r, *rules[i], search, error,
                                  [&](std::size_t d, std::size_t n) { progress.update(d, n); });
        if (!a)
            throw UsageError{"--records " + recordsPath + " record " + std::to_string(chosen[i]) +
                             ": " + error};
        analysis::AnalysedGame g{chosen[i], &r, std::move(*a), 0};
        g.timeMs = std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::steady_clock::now() - start)
                       .count();
        std::cout << (i > 0 ? "\n" : "") << analysis::gameText(g, limitsText(limits)) << std::flush;
        json += analysis::gameJson(g);
        games.push_back(std::move(g));
    }
    if (!jsonPath.empty()) writeFile("--json", jsonPath, json);
    if (!svgPath.empty()) writeFile("--svg", svgPath, analysis::gamesSvg(games));
    return 0;
}

int runRollout(const std::vector<std::string>& args) {
    std::string ruleset, candidates;
    PositionFlags position;
    std::vector<std::string> options;
    LogSettings log;
    po::options_description desc(
        "Usage: dejarik rollout [--ruleset R] [--option Name=Value]... (--startpos | --dfen D)\n"
        "                       [--moves \"e1 e2 ...\"] [--candidates \"e1 e2 ...\" | --all]\n"
        "                       --games N [--depth D | --movetime MS] [--truncate T]\n"
        "                       [--threads N] [--seed S] [--hash MiB]\n"
        "Plays the position out N times per candidate decision with the engine as both\n"
        "players, every candidate with the same dice, and prints the mean result with its\n"
        "standard error and 95% interval, plain and adjusted for the dice's luck. Without a\n"
        "candidate the engine decides at the root too; without --depth or --movetime every\n"
        "decision is searched 2 actions deep.\nOptions");
    addCommonFlags(desc, ruleset, options);
    addPositionFlags(desc, position);
    desc.add_options()("candidates", po::value(&candidates),
                       "the decisions to roll out, space-separated")(
        "all", "roll out every legal decision")("games", po::value<int>(),
                                                "playouts per candidate (1-1000000)")(
        "depth", po::value<int>(), "search each decision this many actions deep")(
        "movetime", po::value<std::int64_t>(),
        "search each decision this many milliseconds (not repeatable)")(
        "truncate", po::value<int>()->default_value(0),
        "value a playout by the evaluator after this many actions (0: play to the end)")(
        "threads", po::value<int>()->default_value(1), "playouts at once (1-256)")(
        "seed", po::value<std::uint64_t>()->default_value(1), "the dice's seed");
    const std::vector<std::string_view> engineFlags = {"hash", "tables", "table-path"};
    addEngineOptionFlags(desc, engineFlags);
    const auto parsed = parseSubcommand(args, desc, log);
    if (!parsed) return 0;
    const po::variables_map& vm = *parsed;
    checkPositionFlags(vm);
    if (vm.count("candidates") && vm.count("all"))
        throw UsageError{"give only one of --candidates and --all"};
    if (!vm.count("games")) throw UsageError{"--games: the number of playouts is needed"};
    analysis::RolloutConfig config;
    config.games = inRange(vm, "games", 1, 1000000);
    config.truncate = inRange(vm, "truncate", 0, 100000);
    config.threads = inRange(vm, "threads", 1, 256);
    config.seed = vm["seed"].as<std::uint64_t>();
    const search::Limits limits = searchLimits(vm, depthLimit(2));
    const Settings settings = analysisSettings(vm, engineFlags, 1);

    const Rules rules = rulesFrom(ruleset, options);
    const FlaggedPosition flagged = positionFrom(vm, position, rules);
    const Position& pos = flagged.now;
    if (pos.isOver()) throw UsageError{"the game is over in this position: nothing to roll out"};
    config.search = searchSettingsFor(settings, rules, limits);

    std::vector<analysis::Candidate> list;
    const bool decision = !pos.chanceDue();
    if ((vm.count("candidates") || vm.count("all")) && !decision)
        throw UsageError{"an outcome is due here, not a decision: no candidates to roll out"};
    if (vm.count("all")) {
        EventList legal;
        pos.generate(legal);
        for (const Event e : legal)
            list.push_back({e.token(), e});
    } else if (vm.count("candidates")) {
        std::istringstream words(candidates);
        std::string w;
        while (words >> w) {
            const auto e = pos.parseEvent(w);
            if (!e) throw UsageError{"--candidates: '" + w + "' is not a legal decision here"};
            list.push_back({e->token(), *e});
        }
        if (list.empty()) throw UsageError{"--candidates: no decision given"};
    } else {
        list.push_back({decision ? "(engine)" : "(position)", std::nullopt});
    }

    std::cout << "rules    " << rules.describe() << '\n';
    std::cout << flagged.line() << '\n';
    std::cout << "rollout  " << config.games << " games per candidate, " << limitsText(limits)
              << ", "
              << (config.truncate > 0
                      ? "truncated after " + std::to_string(config.truncate) + " actions"
                      : "played to the end")
              << ", seed " << config.seed << ", duplicate dice\n";
    ProgressLine progress("rollout: playout");
    const analysis::RolloutResult result = analysis::rollout(
        pos, list, config, [&](std::uint64_t d, std::uint64_t n) { progress.update(d, n); });
    std::cout << analysis::rolloutText(result);
    return 0;
}

int runProtocol(const std::vector<std::string>& args) {
    LogSettings log;
    po::options_description desc("Options");
    desc.add_options()("help,h", "show this help")("version", "print the engine's name");
    addLogOptions(desc, log);
    const auto vm = tools::parseOptions(args, desc);
    if (vm.count("help")) {
        std::cout << kUsage << "\n\n" << desc << '\n';
        return 0;
    }
    if (vm.count("version")) {
        std::cout << "Dejarik\n";
        return 0;
    }
    setUpLogging(log);
    return runProtocolLoop(std::cin, stdout);
}

}  // namespace

int runProtocolLoop(std::istream& in, std::FILE* out) {
    Output output(out);
    Engine engine(output);
    std::string line;
    while (std::getline(in, line))
        if (!engine.handle(line)) return 0;
    spdlog::debug("end of input: quitting");
    engine.shutdown();
    return 0;
}

int runCommandLine(int argc, const char* const* argv) {
    std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
    try {
        if (!args.empty() && !args.front().starts_with("-")) {
            const std::string sub = args.front();
            args.erase(args.begin());
            if (sub == "analyse" || sub == "analyze") return runAnalyse(args);
            if (sub == "odds") return runOdds(args);
            if (sub == "bench") return runBenchCommand(args);
            if (sub == "analyse-game" || sub == "analyze-game") return runAnalyseGame(args);
            if (sub == "rollout") return runRollout(args);
            throw UsageError{"unknown subcommand '" + sub +
                             "' (analyse, odds, bench, analyse-game, rollout; --help)"};
        }
        return runProtocol(args);
    } catch (const UsageError& e) {
        return tools::usageError("dejarik", e.message);
    }
}

}  // namespace dejarik::protocol
