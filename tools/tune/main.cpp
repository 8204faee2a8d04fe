// dejarik-tune: fits the evaluation weights to positions labelled by the exact endgame
// tables and writes a weights file the engine loads with `EvalFile` (docs/tuning.md).
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "command_line.h"
#include "spsa_main.h"
#include "tablebase.h"
#include "text_file.h"
#include "tuner.h"

namespace po = boost::program_options;
using namespace dejarik;

namespace {

constexpr std::string_view kProgram = "dejarik-tune";
// The game numbers of --captures' samples start here, apart from the others'.
constexpr std::uint64_t kCaptureGames = std::uint64_t{1} << 40;

int usageError(const std::string& message) {
    return tools::usageError(kProgram, message);
}

void say(const std::string& line) {
    std::cerr << line << std::endl;
}

double seconds(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::string_view(argv[1]) == "spsa")
        return tune::spsaMain(std::vector<std::string>(argv + 2, argv + argc));
    po::options_description desc(
        "Usage: dejarik-tune --out FILE [--ruleset R] [--option Name=Value]... [--tables DIR]\n"
        "                    [--positions N] [--per-game K] [--seconds S] [--threads N]\n"
        "                    [--params a,b,...] [--start FILE] [--seed N]\n"
        "                    [--records FILE... [--stride K]]\n"
        "                    [--captures N [--capture-depth D]]\n"
        "Fits the evaluation weights to positions of at most four creatures labelled by the\n"
        "exact endgame tables (mean squared error of evaluate() against the tables' value), or\n"
        "with --records to arena games' positions labelled by their results, holding out the\n"
        "positions of every fifth game, and writes the weights as EvalFile reads them.\n"
        "--captures adds positions of five creatures one capture from the tables, labelled by\n"
        "a search with the tables.\n"
        "Progress goes to stderr. `dejarik-tune spsa --help`: tuning through arena games.\n"
        "Options");
    std::string rulesetName = "kelly", tablePath, params, startFile, outFile;
    std::vector<std::string> ruleOptions, recordFiles;
    int stride = 1, captures = 0, captureDepth = 4;
    int positions = 20000, perGame = 8, threads = 2;
    double limit = 120;
    std::uint64_t seed = 1;
    desc.add_options()("help,h", "show this help")(
        "ruleset", po::value(&rulesetName),
        "kelly (default), dalsian-classic, dalsian or holochess")(
        "option", po::value(&ruleOptions)->composing(),
        "a rule option as Name=Value (PROTOCOL.md names), repeatable")(
        "tables", po::value(&tablePath),
        "the endgame tables' root (default: the engine's default TablePath)")(
        "positions", po::value(&positions), "positions to sample (default 20000)")(
        "per-game", po::value(&perGame), "at most this many positions from one game (default 8)")(
        "seconds", po::value(&limit), "time for the fit, wall clock (default 120)")(
        "threads", po::value(&threads), "threads for the loss (default 2)")(
        "params", po::value(&params),
        "the weights to fit, comma-separated (default: those the ruleset's positions move)")(
        "start", po::value(&startFile), "start from this weights file (default: compiled in)")(
        "seed", po::value(&seed), "seeds the games that give the positions (default 1)")(
        "records", po::value(&recordFiles)->composing(),
        "arena game records (repeatable): their decision points labelled by the game's result, "
        "instead of the tables")("stride", po::value(&stride),
                                 "with --records: every K-th decision point (default 1)")(
        "captures", po::value(&captures),
        "add this many positions of five creatures where the player to decide can attack, "
        "labelled by a search with the tables (default 0)")(
        "capture-depth", po::value(&captureDepth),
        "the depth of that search, in actions (default 4)")(
        "out", po::value(&outFile), "write the fitted weights here (required)");
    po::variables_map vm;
    if (auto code = tools::parseCommandLine({.program = kProgram, .options = desc}, argc, argv, vm))
        return *code;

    RuleOptions options;
    if (auto err = options.set("Ruleset", rulesetName)) return usageError("--ruleset: " + *err);
    for (const auto& o : ruleOptions)
        if (auto err = options.setAssignment(o)) return usageError("--option " + *err);
    if (outFile.empty()) return usageError("--out FILE is required");
    if (positions < 10 || positions > 10'000'000)
        return usageError("--positions must be from 10 to 10000000");
    if (perGame < 1) return usageError("--per-game must be 1 or more");
    if (captures < 0 || captures > 1'000'000)
        return usageError("--captures must be from 0 to 1000000");
    if (captureDepth < 1 || captureDepth > 12)
        return usageError("--capture-depth must be from 1 to 12");
    if (threads < 1 || threads > 64) return usageError("--threads must be from 1 to 64");
    if (!(limit > 0 && limit <= tune::kMaxFitSeconds))
        return usageError("--seconds must be above 0 and at most " +
                          std::to_string(static_cast<std::int64_t>(tune::kMaxFitSeconds)));
    const Rules rules(options);
    const auto ruleset = parseRuleset(rulesetName);
    if (!ruleset) return usageError("--ruleset: unknown ruleset " + rulesetName);
    if (rules.courtier())
        return usageError("--ruleset: " + std::string(tune::kCourtierHasNoWeights));
    // The tables label the samples unless the records do, and the capture samples' searches.
    const bool withTables = recordFiles.empty() || captures > 0;
    const std::filesystem::path tableRoot =
        tablePath.empty() ? tables::defaultTablePath() : std::filesystem::path(tablePath);
    if (withTables) {
        if (auto why = tables::uncovered(rules)) return usageError(*why);
        if (std::error_code ec; !tablePath.empty() && !std::filesystem::is_directory(tableRoot, ec))
            return usageError("--tables: no directory " + tablePath);
    }
    std::string generateHint = "dejarik-tb generate --ruleset " + rulesetName;
    for (const auto& o : ruleOptions)
        generateHint += " --option " + o;
    if (!tablePath.empty()) generateHint += " --path " + tablePath;
    generateHint += " --max-pieces 4";

    eval::Tunables start;
    if (!startFile.empty())
        if (auto err = eval::loadTunables(startFile, start)) return usageError("--start: " + *err);
    tune::FitOptions fit;
    fit.params = params.empty() ? tune::defaultParams(rules) : tune::splitNames(params);
    for (const std::string& name : fit.params)
        if (!eval::findTunable(name)) return usageError("--params: unknown weight " + name);
    fit.seconds = limit;
    fit.threads = threads;
    // Checked before the work, so that a bad path does not cost the fit.
    if (std::ofstream probe(outFile, std::ios::app); !probe)
        return usageError("--out: cannot write " + outFile);

    const auto t0 = std::chrono::steady_clock::now();
    tune::RecordSamples fromRecords;
    for (const std::string& file : recordFiles) {
        std::string error;
        const auto text = arena::readTextFile(file, error);
        if (!text) return usageError("--records: " + error);
        const auto records = arena::parseRecords(*text, error);
        if (!records) return usageError("--records: " + file + ": " + error);
        if (auto err = tune::recordSamples(*records, stride, fromRecords))
            return usageError("--records: " + file + ": " + *err);
    }
    std::shared_ptr<const tables::Tablebase> tablebase;
    if (withTables) {
        tablebase = std::make_shared<const tables::Tablebase>(tableRoot, rules);
        for (const std::string& problem : tablebase->problems())
            say("tables: " + problem);
        if (tablebase->sets().empty()) {
            std::cerr << kProgram << ": error: no endgame tables of these rules under "
                      << tablebase->directory().string() << " (generate them: " << generateHint
                      << ")\n";
            return 1;
        }
    }
    auto samples = recordFiles.empty()
                       ? tune::tableSamples(*tablebase, *ruleset, positions, perGame, seed)
                       : std::move(fromRecords.samples);
    std::vector<tune::Sample> five;  // the five-creature positions, fitted and held out
    if (captures > 0) {
        const auto t = std::chrono::steady_clock::now();
        five = tune::captureSamples(tablebase, *ruleset, start,
                                    {.count = captures,
                                     .perGame = perGame,
                                     .depth = captureDepth,
                                     .threads = threads,
                                     .seed = seed});
        char line[160];
        std::snprintf(line, sizeof line,
                      "labelled %zu positions of five creatures by depth-%d searches in %.1f s",
                      five.size(), captureDepth, seconds(t));
        say(line);
        // Their games are not the other samples' games: apart in the hold-out's count.
        for (tune::Sample& s : five)
            s.game += kCaptureGames;
        samples.insert(samples.end(), five.begin(), five.end());
    }
    if (samples.size() < 10 && !recordFiles.empty()) {
        std::cerr << kProgram << ": error: only " << samples.size()
                  << " decision points in the records\n";
        return 1;
    }
    if (samples.size() < 10) {
        std::cerr << kProgram << ": error: only " << samples.size()
                  << " positions the tables answer under " << tablebase->directory().string()
                  << " (generate them: " << generateHint << ")\n";
        return 1;
    }
    // The positions of every fifth game are held out: the fit never sees them, and their
    // loss says whether the fit learnt the game or the sample.
    std::vector<tune::Sample> train, held;
    for (const tune::Sample& s : samples)
        (s.game % 5 == 4 ? held : train).push_back(s);
    char line[256];
    std::snprintf(line, sizeof line, "sampled %zu positions (%zu fitted, %zu held out) in %.1f s",
                  samples.size(), train.size(), held.size(), seconds(t0));
    say(line);
    const double fitBefore = tune::meanSquaredError(train, start, threads);
    const double heldBefore = tune::meanSquaredError(held, start, threads);
    std::snprintf(line, sizeof line, "start: loss %.6f fitted, %.6f held out", fitBefore,
                  heldBefore);
    say(line);

    if (!five.empty()) {
        std::snprintf(line, sizeof line, "start: loss %.6f on the %zu positions of five creatures",
                      tune::meanSquaredError(five, start, threads), five.size());
        say(line);
    }

    const auto t1 = std::chrono::steady_clock::now();
    const eval::Tunables tuned = tune::fit(train, start, fit, say);
    const double fitAfter = tune::meanSquaredError(train, tuned, threads);
    const double heldAfter = tune::meanSquaredError(held, tuned, threads);
    std::snprintf(line, sizeof line, "end: loss %.6f fitted, %.6f held out, fit %.1f s", fitAfter,
                  heldAfter, seconds(t1));
    say(line);
    if (!five.empty()) {
        std::snprintf(line, sizeof line, "end: loss %.6f on the %zu positions of five creatures",
                      tune::meanSquaredError(five, tuned, threads), five.size());
        say(line);
    }

    std::ostringstream header;
    header << "# dejarik-tune --ruleset " << rulesetName
           << (recordFiles.empty()
                   ? " --positions " + std::to_string(positions) + " --seed " + std::to_string(seed)
                   : " --records (" + std::to_string(recordFiles.size()) + " files) --stride " +
                         std::to_string(stride))
           << (captures > 0 ? " --captures " + std::to_string(captures) + " --capture-depth " +
                                  std::to_string(captureDepth)
                            : "")
           << ": loss " << fitBefore << " -> " << fitAfter << " fitted, " << heldBefore << " -> "
           << heldAfter << " held out\n";
    if (auto err = eval::saveTunables(outFile, tuned, header.str())) {
        std::cerr << kProgram << ": error: " << *err << "\n";
        return 1;
    }
    say("wrote " + outFile);
    return 0;
}
