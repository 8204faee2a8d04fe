// dejarik-tune: fits the evaluation weights to positions labelled by the exact endgame
// tables and writes a weights file the engine loads with `EvalFile` (docs/tuning.md).
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "command_line.h"
#include "tablebase.h"
#include "tuner.h"

namespace po = boost::program_options;
using namespace dejarik;

namespace {

constexpr std::string_view kProgram = "dejarik-tune";

int usageError(const std::string& message) {
    return tools::usageError(kProgram, message);
}

void say(const std::string& line) {
    std::cerr << line << std::endl;
}

std::vector<std::string> splitNames(const std::string& list) {
    std::vector<std::string> out;
    std::stringstream in(list);
    for (std::string name; std::getline(in, name, ',');)
        if (!name.empty()) out.push_back(name);
    return out;
}

double seconds(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

}  // namespace

int main(int argc, char** argv) {
    po::options_description desc(
        "Usage: dejarik-tune --out FILE [--ruleset R] [--option Name=Value]... [--tables DIR]\n"
        "                    [--positions N] [--per-game K] [--seconds S] [--threads N]\n"
        "                    [--params a,b,...] [--start FILE] [--seed N]\n"
        "Fits the evaluation weights to positions of at most four creatures labelled by the\n"
        "exact endgame tables (mean squared error of evaluate() against the tables' value),\n"
        "holding out a fifth of the positions, and writes the weights as EvalFile reads them.\n"
        "Progress goes to stderr.\nOptions");
    std::string rulesetName = "kelly", tablePath, params, startFile, outFile;
    std::vector<std::string> ruleOptions;
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
    if (threads < 1 || threads > 64) return usageError("--threads must be from 1 to 64");
    if (!(limit > 0)) return usageError("--seconds must be above 0");
    const Rules rules(options);
    const auto ruleset = parseRuleset(rulesetName);
    if (!ruleset) return usageError("--ruleset: unknown ruleset " + rulesetName);

    eval::Tunables start;
    if (!startFile.empty())
        if (auto err = eval::loadTunables(startFile, start)) return usageError("--start: " + *err);
    tune::FitOptions fit;
    fit.params = params.empty() ? tune::defaultParams(rules) : splitNames(params);
    for (const std::string& name : fit.params)
        if (!eval::findTunable(name)) return usageError("--params: unknown weight " + name);
    fit.seconds = limit;
    fit.threads = threads;
    // Checked before the work, so that a bad path does not cost the fit.
    if (std::ofstream probe(outFile, std::ios::app); !probe)
        return usageError("--out: cannot write " + outFile);

    const auto t0 = std::chrono::steady_clock::now();
    const tables::Tablebase tb(
        tablePath.empty() ? tables::defaultTablePath() : std::filesystem::path(tablePath), rules);
    for (const std::string& problem : tb.problems())
        say("tables: " + problem);
    auto samples = tune::tableSamples(tb, *ruleset, positions, perGame, seed);
    if (samples.size() < 10) {
        std::cerr << kProgram << ": error: only " << samples.size()
                  << " positions the tables answer under " << tb.directory().string()
                  << " (generate them: dejarik-tb generate --ruleset " << rulesetName
                  << " --max-pieces 4)\n";
        return 1;
    }
    // Every fifth position is held out: the fit never sees it, and its loss says whether
    // the fit learnt the game or the sample.
    std::vector<tune::Sample> train, held;
    for (std::size_t i = 0; i < samples.size(); ++i)
        (i % 5 == 4 ? held : train).push_back(samples[i]);
    char line[256];
    std::snprintf(line, sizeof line, "sampled %zu positions (%zu fitted, %zu held out) in %.1f s",
                  samples.size(), train.size(), held.size(), seconds(t0));
    say(line);
    const double fitBefore = tune::meanSquaredError(train, start, threads);
    const double heldBefore = tune::meanSquaredError(held, start, threads);
    std::snprintf(line, sizeof line, "start: loss %.6f fitted, %.6f held out", fitBefore,
                  heldBefore);
    say(line);

    const auto t1 = std::chrono::steady_clock::now();
    const eval::Tunables tuned = tune::fit(train, start, fit, say);
    const double fitAfter = tune::meanSquaredError(train, tuned, threads);
    const double heldAfter = tune::meanSquaredError(held, tuned, threads);
    std::snprintf(line, sizeof line, "end: loss %.6f fitted, %.6f held out, fit %.1f s", fitAfter,
                  heldAfter, seconds(t1));
    say(line);

    std::ofstream out(outFile, std::ios::trunc);
    out << "# dejarik-tune --ruleset " << rulesetName << " --positions " << positions << " --seed "
        << seed << ": loss " << fitBefore << " -> " << fitAfter << " fitted, " << heldBefore
        << " -> " << heldAfter << " held out\n"
        << eval::formatTunables(tuned);
    if (!out) {
        std::cerr << kProgram << ": error: cannot write " << outFile << "\n";
        return 1;
    }
    say("wrote " + outFile);
    return 0;
}
