// dejarik-arena: engine-against-engine tournaments over DEI (docs/arena.md).
//
//   dejarik-arena [run] --engine KEY=VALUE... --engine KEY=VALUE... [options]
//   dejarik-arena merge --out FILE RESULTS...
//   dejarik-arena demo --engine PATH [--seed N]
//   dejarik-arena replay RECORDS [--engine PATH]
//   dejarik-arena calibrate RECORDS... [--player NAME] [--bins N] [--fit]
//   dejarik-arena ends RECORDS... --player NAME [--against P [--unboxed]] [--below X] [--most N]
//   dejarik-arena endings RECORDS... --player NAME --against P [--threads N]
//   dejarik-arena attacks RECORDS... --player NAME
//   dejarik-arena compare A B --player NAME [--player-b NAME]
#include <signal.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <fmt/format.h>

#include <array>
#include <boost/program_options.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <thread>
#include <tuple>

#include "analysis.h"
#include "attacks.h"
#include "command_line.h"
#include "compare.h"
#include "deals.h"
#include "endings.h"
#include "ends.h"
#include "log_file.h"
#include "number.h"
#include "report_fit.h"
#include "text.h"
#include "text_file.h"
#include "tournament.h"

namespace po = boost::program_options;
using namespace dejarik;
using namespace dejarik::arena;

namespace {

constexpr std::string_view kProgram = "dejarik-arena";
constexpr int kExitError = 1;
constexpr int kExitInterrupted = 130;
constexpr std::uint64_t kMaxPairs = 1'000'000;

int usageError(const std::string& message) {
    return tools::usageError(kProgram, message);
}

// Parses a subcommand whose words other than options are files, for its option "input".
std::optional<int> parseWithFiles(const po::options_description& desc,
                                  const std::vector<std::string>& args, po::variables_map& vm) {
    po::positional_options_description files;
    files.add("input", -1);
    return tools::parseCommandLine({.program = kProgram, .options = desc, .positional = &files},
                                   args, vm);
}

// The words of a multitoken option, each followed by a space.
std::string joinedWords(const po::variable_value& value) {
    std::string text;
    for (const auto& item : value.as<std::vector<std::string>>())
        text += item + " ";
    return text;
}

std::shared_ptr<spdlog::logger> makeLogger(bool verbose, bool quiet, const std::string& logPath) {
    std::vector<spdlog::sink_ptr> sinks;
    auto console = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
    console->set_level(quiet     ? spdlog::level::err
                       : verbose ? spdlog::level::info
                                 : spdlog::level::warn);
    sinks.push_back(console);
    if (!logPath.empty()) {
        auto file = tools::openLogFile("--log", logPath);
        file->set_level(spdlog::level::debug);
        sinks.push_back(file);
    }
    auto log = std::make_shared<spdlog::logger>("arena", sinks.begin(), sinks.end());
    log->set_level(spdlog::level::debug);
    log->set_pattern("[%H:%M:%S.%e] %^%l%$: %v");
    return log;
}

// Ctrl-C (or SIGTERM) sets the interrupt flag from a thread of its own, so no handler
// touches shared state; a second one ends the arena at once.
class SignalWatcher {
  public:
    explicit SignalWatcher(std::atomic<bool>& interrupt) : interrupt_(interrupt) {
        sigemptyset(&set_);
        sigaddset(&set_, SIGINT);
        sigaddset(&set_, SIGTERM);
        pthread_sigmask(SIG_BLOCK, &set_, nullptr);
        thread_ = std::thread([this] {
            const timespec slice{0, 100'000'000};
            while (!done_.load()) {
                if (sigtimedwait(&set_, nullptr, &slice) < 0) continue;
                if (interrupt_.exchange(true)) std::_Exit(kExitInterrupted);
                std::cerr << "\ndejarik-arena: interrupted; stopping the engines (again to "
                             "quit at once)\n";
            }
        });
    }
    ~SignalWatcher() {
        done_ = true;
        thread_.join();
        pthread_sigmask(SIG_UNBLOCK, &set_, nullptr);
    }
    SignalWatcher(const SignalWatcher&) = delete;
    SignalWatcher& operator=(const SignalWatcher&) = delete;

  private:
    std::atomic<bool>& interrupt_;
    std::atomic<bool> done_{false};
    sigset_t set_{};
    std::thread thread_;
};

std::optional<std::vector<GameRecord>> readRecords(const std::vector<std::string>& paths,
                                                   std::string& error) {
    // No file at all would read as no games and pass for a run with nothing to report.
    if (paths.empty()) {
        error = "give one or more record files";
        return std::nullopt;
    }
    std::vector<GameRecord> all;
    for (const auto& path : paths) {
        const auto text = readTextFile(path, error);
        if (!text) return std::nullopt;
        auto records = parseRecords(*text, error);
        if (!records) {
            error = path + ": " + error;
            return std::nullopt;
        }
        all.insert(all.end(), records->begin(), records->end());
    }
    return all;
}

// ---------------------------------------------------------------------------------------
// run

int runCommand(const std::vector<std::string>& args) {
    po::options_description desc(
        "Usage: dejarik-arena [run] --engine KEY=VALUE... --engine KEY=VALUE... [options]\n"
        "Engine keys: cmd=PATH name=NAME arg=ARG dir=DIR stderr=FILE option.NAME=VALUE\n"
        "             depth=N nodes=N movetime=MS tc=SECONDS[+INC] builtin=random|greedy|cautious "
        "seed=N\n"
        "Options");
    std::string ruleset = "kelly", dealsPath, dice = "duplicate", kind, shard = "1/1", sprtText,
                resultsPath, recordsPath, logPath;
    std::vector<std::string> ruleItems;
    std::uint64_t pairs = 10, seed = 1;
    int concurrency = 1, maxTurns = 400;
    std::int64_t margin = 200, stall = 60000, startTimeout = 10000;
    desc.add_options()("help,h", "show this help")(
        "engine", po::value<std::vector<std::string>>()->multitoken(),
        "an engine: KEY=VALUE items (two or more --engine)")(
        "each", po::value<std::vector<std::string>>()->multitoken(),
        "KEY=VALUE items for every engine (an engine's own items win)")(
        "ruleset", po::value(&ruleset),
        "kelly (default), dalsian-classic, dalsian, holochess, courtier")(
        "option", po::value(&ruleItems)->composing(),
        "a rule option as Name=Value (PROTOCOL.md names), repeatable")(
        "pairs", po::value(&pairs), "deal pairs per encounter (two games each; default 10)")(
        "seed", po::value(&seed), "seed of the deals and the dice (default 1)")(
        "deals", po::value(&dealsPath), "deal file, one DFEN a line (default: random deals)")(
        "dice", po::value(&dice), "duplicate (default) or independent")(
        "tournament", po::value(&kind),
        "roundrobin (default) or gauntlet (the first engine against each other)")(
        "concurrency,j", po::value(&concurrency), "games played at once (default 1)")(
        "max-turns", po::value(&maxTurns), "turns before a game is drawn (default 400)")(
        "timemargin", po::value(&margin), "ms an engine may overstep its time (default 200)")(
        "stall-timeout", po::value(&stall),
        "ms to wait for a bestmove without a time limit (default 60000)")(
        "start-timeout", po::value(&startTimeout),
        "ms for an engine's handshake and readyok (default 10000)")(
        "sprt", po::value<std::vector<std::string>>()->multitoken(),
        "elo0=E elo1=E [alpha=0.05] [beta=0.05] [model=normalized|logistic]\n"
        "[statistic=pentanomial|luck-adjusted]")("shard", po::value(&shard),
                                                 "K/N: play the K-th of N slices of the schedule")(
        "results", po::value(&resultsPath), "results file (one line per game; for resume, merge)")(
        "records", po::value(&recordsPath), "game records file")(
        "resume", "continue the run of an existing results file")(
        "log", po::value(&logPath), "debug log file (every protocol line)")(
        "verbose,v", "log more on stderr")("quiet,q", "no progress lines");

    po::variables_map vm;
    std::vector<std::vector<std::string>> engineItems;
    const auto collectEngines = [&](const po::parsed_options& parsed) {
        for (const auto& o : parsed.options)
            if (o.string_key == "engine") engineItems.push_back(o.value);
    };
    if (auto code = tools::parseCommandLine(
            {.program = kProgram, .options = desc, .inspect = collectEngines}, args, vm))
        return *code;

    std::string error;
    auto rules = ruleSettings(ruleset, ruleItems, error);
    if (!rules) return usageError(error);
    RunConfig config;
    config.ruleOptions = rules->options;
    config.ruleAssignments = rules->assignments;

    EngineSpec base;
    if (vm.count("each"))
        if (auto e = base.apply(vm["each"].as<std::vector<std::string>>()))
            return usageError("--each: " + *e);
    for (const auto& items : engineItems) {
        EngineSpec spec = base;
        if (auto e = spec.apply(items)) return usageError("--engine: " + *e);
        if (auto e = spec.finish(true)) return usageError("--engine: " + *e);
        config.engines.push_back(spec);
    }
    if (config.engines.size() < 2) return usageError("give two or more --engine");
    for (std::size_t i = 0; i < config.engines.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (config.engines[i].name == config.engines[j].name)
                return usageError("two engines are named '" + config.engines[i].name +
                                  "': give them name=");

    const auto diceMode = parseDiceMode(dice);
    if (!diceMode) return usageError("--dice: expected duplicate or independent");
    config.diceMode = *diceMode;
    if (kind.empty()) kind = "roundrobin";
    const auto tournamentKind = parseTournamentKind(kind);
    if (!tournamentKind) return usageError("--tournament: expected roundrobin or gauntlet");
    config.kind = *tournamentKind;
    // A bound far above any real match, so that a mistyped count is refused instead of
    // scheduled (the schedule holds a job per pair).
    if (pairs < 1 || pairs > kMaxPairs)
        return usageError("--pairs must be from 1 to " + std::to_string(kMaxPairs));
    config.pairs = pairs;
    config.seed = seed;
    if (!dealsPath.empty()) {
        const Rules r(config.ruleOptions);
        auto deals = readDealFile(dealsPath, r, error);
        if (!deals) return usageError("--deals: " + error);
        config.deals = *deals;
    }
    if (concurrency < 1) return usageError("-j must be at least 1");
    config.concurrency = concurrency;
    if (maxTurns < 1) return usageError("--max-turns must be at least 1");
    config.referee.maxTurns = maxTurns;
    for (const auto& [flag, ms, least] :
         {std::tuple{"--timemargin", margin, 0}, std::tuple{"--stall-timeout", stall, 1},
          std::tuple{"--start-timeout", startTimeout, 1}})
        if (ms < least || ms > kMaxMilliseconds)
            return usageError(fmt::format("{} must be from {} to {} ms, got {}", flag, least,
                                          kMaxMilliseconds, ms));
    config.referee.timeMargin = std::chrono::milliseconds(margin);
    config.referee.stallTimeout = std::chrono::milliseconds(stall);
    config.timeouts.start = std::chrono::milliseconds(startTimeout);
    if (vm.count("sprt")) {
        auto sprt = SprtConfig::parse(joinedWords(vm["sprt"]), error);
        if (!sprt) return usageError("--sprt: " + error);
        config.sprt = *sprt;
    }
    {
        const auto slash = shard.find('/');
        const auto k = parseNumber<int>(std::string_view(shard).substr(0, slash));
        const auto n = slash == std::string::npos
                           ? std::nullopt
                           : parseNumber<int>(std::string_view(shard).substr(slash + 1));
        if (!k || !n || *n < 1 || *k < 1 || *k > *n)
            return usageError("--shard: expected K/N with 1 <= K <= N, got " + text::quoted(shard));
        config.shardIndex = *k - 1;
        config.shardCount = *n;
    }
    config.resultsPath = resultsPath;
    config.recordsPath = recordsPath;
    config.resume = vm.count("resume") > 0;
    if (config.resume && resultsPath.empty()) return usageError("--resume needs --results");
    // The files the run writes, checked before any engine starts so that the error names the
    // flag; --resume reads the results file back first, which must then be a regular one.
    struct Output {
        std::string_view flag;
        const std::string& path;
        bool readBack;
    };
    const std::array<Output, 3> outputs{Output{"--results", resultsPath, config.resume},
                                        Output{"--records", recordsPath, false},
                                        Output{"--log", logPath, false}};
    for (const Output& o : outputs)
        if (auto problem = o.path.empty() ? std::nullopt : outputFileProblem(o.path, o.readBack))
            return usageError(std::string(o.flag) + " " + o.path + ": " + *problem);
    // Two of them on one file would write over each other.
    for (std::size_t a = 0; a < outputs.size(); ++a)
        for (std::size_t b = a + 1; b < outputs.size(); ++b) {
            std::error_code ec;
            if (!outputs[a].path.empty() && !outputs[b].path.empty() &&
                std::filesystem::weakly_canonical(outputs[a].path, ec) ==
                    std::filesystem::weakly_canonical(outputs[b].path, ec))
                return usageError(std::string(outputs[a].flag) + " and " +
                                  std::string(outputs[b].flag) + " name the same file " +
                                  outputs[b].path);
        }
    try {
        config.log = makeLogger(vm.count("verbose") > 0, vm.count("quiet") > 0, logPath);
    } catch (const tools::UsageError& e) {
        return usageError(e.message);
    }
    if (!vm.count("quiet")) config.progress = &std::cerr;

    std::atomic<bool> interrupt{false};
    std::optional<RunOutcome> outcome;
    {
        SignalWatcher watcher(interrupt);
        outcome = runTournament(config, interrupt, error);
    }
    if (!outcome) {
        std::cerr << "dejarik-arena: error: " << error << "\n";
        return kExitError;
    }
    std::cout << "\n"
              << outcome->results.engines.size() << " engines, " << config.pairs
              << " pairs per encounter, " << Rules(config.ruleOptions).describe() << ", seed "
              << config.seed << ", dice " << diceModeName(config.diceMode)
              << (config.shardCount > 1 ? ", shard " + shard : std::string()) << "\n"
              << formatTable(outcome->results, config.sprt);
    if (const auto& stop = outcome->sprtStop)
        std::cout << fmt::format(
            "the SPRT stopped the run: {} accepted at {} pairs (LLR {:.2f}); the pairs under way "
            "finished\n",
            stop->decision == SprtDecision::AcceptH1 ? "H1" : "H0", stop->pairs, stop->llr);
    if (outcome->interrupted) {
        std::cout << "interrupted: the finished games are kept"
                  << (resultsPath.empty() ? "" : " in " + resultsPath + "; add --resume to go on")
                  << "\n";
        return kExitInterrupted;
    }
    return 0;
}

// ---------------------------------------------------------------------------------------
// merge

int mergeCommand(const std::vector<std::string>& args) {
    po::options_description desc("Usage: dejarik-arena merge [--out FILE] RESULTS...\nOptions");
    std::string out;
    std::vector<std::string> inputs;
    desc.add_options()("help,h", "show this help")("out,o", po::value(&out),
                                                   "write the merged results file here")(
        "sprt", po::value<std::vector<std::string>>()->multitoken(), "SPRT line for the table")(
        "input", po::value(&inputs), "results files");
    po::variables_map vm;
    if (auto code = parseWithFiles(desc, args, vm)) return *code;
    if (inputs.empty()) return usageError("merge: give results files");
    std::string error;
    std::vector<ResultsFile> files;
    for (const auto& path : inputs) {
        auto r = readResultsFile(path, error);
        if (!r) return usageError(error);
        files.push_back(std::move(*r));
    }
    auto merged = mergeResults(files, error);
    if (!merged) return usageError("merge: " + error);
    std::optional<SprtConfig> sprt;
    if (vm.count("sprt")) {
        sprt = SprtConfig::parse(joinedWords(vm["sprt"]), error);
        if (!sprt) return usageError("--sprt: " + error);
    }
    if (!out.empty()) {
        std::ofstream o(out, std::ios::trunc);
        o << merged->header();
        for (const auto& g : merged->games)
            o << ResultsFile::formatGame(g);
        o.close();  // what is still buffered is written here, and may fail here
        if (!o) return usageError("cannot write '" + out + "'");
    }
    std::cout << merged->games.size() << " games from " << files.size() << " files\n"
              << formatTable(*merged, sprt);
    return 0;
}

// ---------------------------------------------------------------------------------------
// demo

std::string boardPicture(const Position& pos) {
    std::string s = "      ";
    for (int ray = 1; ray <= 12; ++ray)
        s += (ray < 10 ? "  " : " ") + std::to_string(ray);
    s += "\n   c  ";
    for (int ray = 1; ray <= 12; ++ray)
        s += std::string("  ") + pos.rules().letter(pos.at(Cell::outer(ray)));
    s += "\n   b  ";
    for (int ray = 1; ray <= 12; ++ray)
        s += std::string("  ") + pos.rules().letter(pos.at(Cell::inner(ray)));
    s += "\n   a    " + std::string(1, pos.rules().letter(pos.at(Cell::centre()))) + "\n";
    return s;
}

int demoCommand(const std::vector<std::string>& args) {
    po::options_description desc(
        "Usage: dejarik-arena demo --engine PATH [--seed N] [--depth N | --movetime MS]\n"
        "A game of the engine against itself, with the dice shown.\nOptions");
    std::string enginePath, ruleset = "kelly", recordPath;
    std::vector<std::string> ruleItems, engineOptions;
    std::uint64_t seed = 1;
    std::string limit;
    desc.add_options()("help,h", "show this help")("engine", po::value(&enginePath),
                                                   "the engine's command")(
        "seed", po::value(&seed), "seed of the deal and the dice (default 1)")(
        "ruleset", po::value(&ruleset), "ruleset (default kelly)")(
        "option", po::value(&ruleItems)->composing(), "a rule option Name=Value")(
        "engine-option", po::value(&engineOptions)->composing(), "an engine option Name=Value")(
        "depth", po::value<int>(), "search depth per decision (default 4)")(
        "movetime", po::value<int>(), "ms per decision")("nodes", po::value<std::uint64_t>(),
                                                         "nodes per decision")(
        "record", po::value(&recordPath), "also write the record to this file");
    po::variables_map vm;
    if (auto code = tools::parseCommandLine({.program = kProgram, .options = desc}, args, vm))
        return *code;
    if (enginePath.empty()) return usageError("demo: give --engine PATH");
    std::string error;
    auto rules = ruleSettings(ruleset, ruleItems, error);
    if (!rules) return usageError(error);
    EngineSpec spec;
    std::vector<std::string> items{"cmd=" + enginePath};
    for (const auto& o : engineOptions)
        items.push_back("option." + o);
    if (vm.count("depth")) items.push_back("depth=" + std::to_string(vm["depth"].as<int>()));
    if (vm.count("movetime"))
        items.push_back("movetime=" + std::to_string(vm["movetime"].as<int>()));
    if (vm.count("nodes"))
        items.push_back("nodes=" + std::to_string(vm["nodes"].as<std::uint64_t>()));
    if (!vm.count("depth") && !vm.count("movetime") && !vm.count("nodes"))
        items.emplace_back("depth=4");
    if (auto e = spec.apply(items)) return usageError(*e);
    if (auto e = spec.finish(true)) return usageError(*e);

    const Rules r(rules->options);
    const std::string deal = randomDeal(r, seed, 0);
    auto log = makeLogger(false, false, "");
    std::atomic<bool> interrupt{false};
    EngineSpec one = spec, two = spec;
    one.name += " (1)";
    two.name += " (2)";
    EngineSeat seat1(one, rules->assignments, {}, log, &interrupt);
    EngineSeat seat2(two, rules->assignments, {}, log, &interrupt);

    std::cout << "Deal " << deal << " (" << r.describe() << "), seed " << seed << "\n"
              << boardPicture(*Position::fromDfen(deal, r)) << "\n";
    RefereeConfig config;
    config.interrupt = &interrupt;
    config.onEvent = [](const Position& before, const RecordedEvent& e) {
        const auto who = [](Player p) { return p == Player::One ? "player 1" : "player 2"; };
        switch (before.phase()) {
            case Phase::Decision: {
                const DecisionInfo info = DecisionInfo::parse(e.comment);
                std::string stats;
                if (info.ev) stats += fmt::format("ev {:+.3f}", *info.ev / 1000.0);
                if (info.depth) stats += fmt::format("  depth {}", *info.depth);
                stats += fmt::format("  {} ms", info.elapsedMs);
                std::cout << fmt::format("turn {:>3}  {}  {:<9} {}\n", before.turn(),
                                         who(before.sideToMove()), e.token, stats);
                break;
            }
            case Phase::Outcome:
                std::cout << fmt::format("                     dice {} -> {}\n", e.comment,
                                         e.token);
                break;
            case Phase::Placement:
                std::cout << fmt::format("                     {} places {}\n",
                                         who(before.decider()), e.token);
                break;
            case Phase::Setup:
                std::cout << fmt::format("set-up     {}  {}\n", who(before.decider()), e.token);
                break;
            case Phase::Roll:
                std::cout << fmt::format("                     dice {} -> {}\n", e.comment,
                                         e.token);
                break;
        }
        std::cout.flush();
    };
    SignalWatcher watcher(interrupt);
    const GameSpec game{r,
                        deal,
                        LuckStream(seed, 0, 0, DiceMode::Duplicate),
                        {&seat1, &seat2},
                        {spec.control, spec.control}};
    auto record = playGame(game, config);
    if (!record) return kExitInterrupted;
    record->seed = seed;
    if (!record->closingComment.empty()) std::cout << "\n" << record->closingComment << "\n";
    std::string err;
    if (auto replay = replayRecord(*record, err); replay && replay->final)
        std::cout << "\n" << boardPicture(*replay->final);
    std::cout << "\nResult " << outcomeTag(record->outcome) << " ("
              << terminationName(record->termination)
              << (record->detail.empty() ? "" : ": " + record->detail) << ")\n\n"
              << formatRecord(*record);
    if (!recordPath.empty()) {
        std::ofstream out(recordPath);
        if (!(out << formatRecord(*record)).flush()) {
            std::cerr << kProgram << ": error: --record: cannot write " << recordPath << "\n";
            return kExitError;
        }
    }
    // A demo the engine could not play (it would not start, crashed, hung) is no demo.
    return isFault(record->termination) ? kExitError : 0;
}

// ---------------------------------------------------------------------------------------
// replay

int replayCommand(const std::vector<std::string>& args) {
    po::options_description desc(
        "Usage: dejarik-arena replay RECORDS... [--engine PATH]\n"
        "Replays every record through the rules core (and the engine's position ... moves),\n"
        "checking that each reaches its Final position.\nOptions");
    std::vector<std::string> inputs;
    std::string enginePath;
    desc.add_options()("help,h", "show this help")("engine", po::value(&enginePath),
                                                   "also replay through this engine")(
        "input", po::value(&inputs), "record files");
    po::variables_map vm;
    if (auto code = parseWithFiles(desc, args, vm)) return *code;
    std::string error;
    auto records = readRecords(inputs, error);
    if (!records) return usageError(error);
    auto log = makeLogger(false, false, "");
    std::atomic<bool> interrupt{false};
    int failures = 0;
    std::map<std::string, std::unique_ptr<EngineSeat>> seats;
    for (const auto& record : *records) {
        const std::string label = "record " + record.roundTag();
        auto replay = replayRecord(record, error);
        if (!replay) {
            std::cout << label << ": " << error << "\n";
            ++failures;
            continue;
        }
        if (enginePath.empty() || record.finalDfen.empty()) continue;
        // The engine sets its rules from the record's Rules tag, then replays the events.
        const auto words = splitWords(record.rules);
        std::vector<std::pair<std::string, std::string>> ruleOptions{{"Ruleset", words[0]}};
        for (std::size_t i = 1; i < words.size(); ++i) {
            const auto eq = words[i].find('=');
            ruleOptions.emplace_back(words[i].substr(0, eq), words[i].substr(eq + 1));
        }
        // One engine process per set of rules: starting one per record would be slow.
        auto& seat = seats[record.rules];
        if (!seat) {
            EngineSpec spec;
            spec.cmd = enginePath;
            (void)spec.finish(false);
            seat =
                std::make_unique<EngineSeat>(spec, ruleOptions, EngineTimeouts{}, log, &interrupt);
        }
        const std::string position = "position dfen " + record.deal +
                                     (record.events.empty() ? "" : " moves " + record.moves());
        const auto lines = seat->converse({position, "d"}, std::chrono::seconds(10));
        if (!lines) seat.reset();  // a fresh engine for the next record
        bool found = false, refused = false;
        for (const auto& l : lines.value_or(std::vector<std::string>{})) {
            found = found || l.find(record.finalDfen) != std::string::npos;
            refused = refused || l.find("error") != std::string::npos;
        }
        if (!lines || refused || !found) {
            std::cout << label << ": the engine "
                      << (refused ? "refused the events" : "does not show " + record.finalDfen)
                      << "\n";
            ++failures;
        }
    }
    std::cout << records->size() << " records replayed"
              << (enginePath.empty() ? "" : " (also through the engine)") << ", " << failures
              << " failed\n";
    return failures == 0 ? 0 : kExitError;
}

// ---------------------------------------------------------------------------------------
// calibrate

int calibrateCommand(const std::vector<std::string>& args) {
    po::options_description desc(
        "Usage: dejarik-arena calibrate RECORDS... [--player NAME] [--bins N] [--fit]\n"
        "Compares the ev and wdl an engine reported with the results of its games; with\n"
        "--fit, fits what the engine reports of the records' ruleset (its report model) to\n"
        "records whose ev is the search's own (docs/eval.md, \"Reported value\") and prints\n"
        "the weights as EvalFile reads them.\nOptions");
    std::vector<std::string> inputs;
    std::string player;
    int bins = 10;
    desc.add_options()("help,h", "show this help")("player", po::value(&player),
                                                   "only this engine's decisions")(
        "bins", po::value(&bins), "number of ev bins over [-1, 1] (default 10)")(
        "fit", "fit the reported value to the records' results")(
        "eval-file", po::value<std::string>(),
        "restate the records' ev, taken as the search's own, by this weights file's report "
        "model (a fit checked on other games)")("input", po::value(&inputs), "record files");
    po::variables_map vm;
    if (auto code = parseWithFiles(desc, args, vm)) return *code;
    if (bins < 1 || bins > 200) return usageError("--bins: 1 to 200");
    std::string error;
    auto records = readRecords(inputs, error);
    if (!records) return usageError(error);
    if (vm.count("fit")) {
        const auto fit = fitReport(*records, player, bins, error);
        if (!fit) return usageError(error);
        std::cout << formatReportFit(*fit);
        return 0;
    }
    std::optional<Calibration> c;
    if (vm.count("eval-file")) {
        eval::Tunables tunables;
        if (const auto bad = eval::loadTunables(vm["eval-file"].as<std::string>(), tunables))
            return usageError(*bad);
        c = calibrateReported(*records, player, bins, tunables, error);
    } else {
        c = calibrate(*records, player, bins, error);
    }
    if (!c) return usageError(error);
    std::cout << formatCalibration(*c);
    return 0;
}

// ---------------------------------------------------------------------------------------
// ends

int endsCommand(const std::vector<std::string>& args) {
    po::options_description desc(
        "Usage: dejarik-arena ends RECORDS... --player NAME [--against P [--unboxed]] [--below X]\n"
        "                        [--most N]\n"
        "Replays the games of engine NAME and follows the race bound of its army against the\n"
        "other's (dejarik odds --race) from kill to kill: by result, the bound at the start and\n"
        "at the end, the attack after which it first fell below X, and the most common such\n"
        "falls in the games not won (docs/arena.md, \"Ends\").\nOptions");
    std::vector<std::string> inputs;
    arena::EndsOptions options;
    std::string against;
    desc.add_options()("help,h", "show this help")("player", po::value(&options.player),
                                                   "the engine whose games are read")(
        "against", po::value(&against),
        "the other side as the baseline player P (random, greedy or cautious), forced to "
        "attack only where the armies allow it to be boxed in")(
        "unboxed", "with --against: never forced to attack")(
        "below", po::value(&options.below), "the bound a fall is counted at (default 0.6)")(
        "most", po::value(&options.most), "how many of the most common falls to list (default 12)")(
        "input", po::value(&inputs), "record files");
    po::variables_map vm;
    if (auto code = parseWithFiles(desc, args, vm)) return *code;
    if (options.player.empty()) return usageError("ends: --player NAME is required");
    if (!(options.below > 0 && options.below <= 1))
        return usageError("--below: above 0, at most 1");
    if (options.most < 0 || options.most > 100000) return usageError("--most: 0 to 100000");
    if (vm.count("against")) {
        options.against = search::parseBaseline(against);
        if (!options.against) return usageError("--against: " + search::notABaseline(against));
    }
    if (vm.count("unboxed")) {
        if (!options.against) return usageError("--unboxed goes with --against");
        options.boxing = race::Boxing::Never;
    }
    std::string error;
    const auto records = readRecords(inputs, error);
    if (!records) return usageError(error);
    const auto ends = arena::analyseEnds(*records, options, error);
    if (!ends) return usageError(error);
    std::cout << arena::formatEnds(*ends, options);
    return 0;
}

// ---------------------------------------------------------------------------------------
// attacks

int attacksCommand(const std::vector<std::string>& args) {
    po::options_description desc(
        "Usage: dejarik-arena attacks RECORDS... --player NAME\n"
        "Replays the games of engine NAME and counts every attack, its own and the other\n"
        "side's, by how the two pieces came to stand next to each other, with how many removed\n"
        "the defender and how many the attacker (docs/arena.md, \"Attacks\").\nOptions");
    std::vector<std::string> inputs;
    std::string player;
    desc.add_options()("help,h", "show this help")("player", po::value(&player),
                                                   "the engine whose games are read")(
        "input", po::value(&inputs), "record files");
    po::variables_map vm;
    if (auto code = parseWithFiles(desc, args, vm)) return *code;
    if (player.empty()) return usageError("attacks: --player NAME is required");
    std::string error;
    const auto records = readRecords(inputs, error);
    if (!records) return usageError(error);
    const auto attacks = arena::analyseAttacks(*records, player, error);
    if (!attacks) return usageError(error);
    std::cout << arena::formatAttacks(*attacks, player);
    return 0;
}

// ---------------------------------------------------------------------------------------
// compare

int compareCommand(const std::vector<std::string>& args) {
    po::options_description desc(
        "Usage: dejarik-arena compare A B --player NAME [--player-b NAME]\n"
        "Sets two runs' records of the same deals and dice side by side, pair by pair: the\n"
        "difference of engine NAME's score per game in run A and in run B, plain and with the\n"
        "dice's luck of each pair as control variates (docs/arena.md, \"Compare\").\nOptions");
    std::vector<std::string> inputs;
    arena::CompareOptions options;
    desc.add_options()("help,h", "show this help")("player", po::value(&options.player),
                                                   "the engine compared")(
        "player-b", po::value(&options.playerB), "its name in run B, where it differs")(
        "input", po::value(&inputs), "the two record files, A and B");
    po::variables_map vm;
    if (auto code = parseWithFiles(desc, args, vm)) return *code;
    if (options.player.empty()) return usageError("compare: --player NAME is required");
    if (inputs.size() != 2)
        return usageError("compare: give two record files, A and B (" +
                          std::to_string(inputs.size()) + " given)");
    std::string error;
    const auto a = readRecords({inputs[0]}, error);
    if (!a) return usageError(error);
    const auto b = readRecords({inputs[1]}, error);
    if (!b) return usageError(error);
    const auto comparison = arena::compareRuns(*a, *b, options, error);
    if (!comparison) return usageError(error);
    std::cout << arena::formatComparison(*comparison, options, inputs[0], inputs[1]);
    return 0;
}

// ---------------------------------------------------------------------------------------
// endings

int endingsCommand(const std::vector<std::string>& args) {
    po::options_description desc(
        "Usage: dejarik-arena endings RECORDS... --player NAME --against P [--threads N]\n"
        "Replays the games of engine NAME against the baseline player P to the first position\n"
        "with four creatures or fewer, values it exactly against P (the best play's score from\n"
        "it, with the quiet draw), and sets that against the points NAME scored from there, by\n"
        "the count of creatures (docs/arena.md, \"Endings\").\nOptions");
    std::vector<std::string> inputs;
    arena::EndingsOptions options;
    std::string against;
    desc.add_options()("help,h", "show this help")("player", po::value(&options.player),
                                                   "the engine whose games are read")(
        "against", po::value(&against),
        "the other side's baseline player (random, greedy or cautious)")(
        "threads", po::value(&options.threads), "endings solved at once (1-256, default 1)")(
        "input", po::value(&inputs), "record files");
    po::variables_map vm;
    if (auto code = parseWithFiles(desc, args, vm)) return *code;
    if (options.player.empty()) return usageError("endings: --player NAME is required");
    if (!vm.count("against")) return usageError("endings: --against P is required");
    const auto baseline = search::parseBaseline(against);
    if (!baseline) return usageError("--against: " + search::notABaseline(against));
    options.against = *baseline;
    if (options.threads < 1 || options.threads > 256)
        return usageError("--threads must be from 1 to 256");
    std::string error;
    const auto records = readRecords(inputs, error);
    if (!records) return usageError(error);
    const auto endings = arena::analyseEndings(*records, options, error);
    if (!endings) return usageError(error);
    std::cout << arena::formatEndings(*endings, options);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    std::string command = "run";
    if (!args.empty() && !args[0].empty() && args[0][0] != '-') {
        command = args[0];
        args.erase(args.begin());
    }
    try {
        if (command == "run") return runCommand(args);
        if (command == "merge") return mergeCommand(args);
        if (command == "demo") return demoCommand(args);
        if (command == "replay") return replayCommand(args);
        if (command == "calibrate") return calibrateCommand(args);
        if (command == "ends") return endsCommand(args);
        if (command == "endings") return endingsCommand(args);
        if (command == "attacks") return attacksCommand(args);
        if (command == "compare") return compareCommand(args);
    } catch (const std::exception& e) {
        std::cerr << "dejarik-arena: error: " << e.what() << "\n";
        return kExitError;
    }
    return usageError("unknown command '" + command +
                      "' (run, merge, demo, replay, calibrate, ends, endings, attacks, compare; "
                      "--help for each)");
}
