#include "spsa_main.h"

#include <unistd.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "command_line.h"
#include "spsa.h"
#include "spsa_match.h"
#include "tuner.h"

namespace po = boost::program_options;

namespace dejarik::tune {

namespace {

constexpr std::string_view kProgram = "dejarik-tune";

int usageError(const std::string& message) {
    return tools::usageError(kProgram, message);
}

}  // namespace

int spsaMain(const std::vector<std::string>& args) {
    po::options_description desc(
        "Usage: dejarik-tune spsa --engine CMD --out FILE [--ruleset R] [--option Name=Value]...\n"
        "                         [--each key=value]... [--iterations N] [--pairs K] [-j N]\n"
        "                         [--params a,b,...] [--start FILE] [--seed N]\n"
        "                         [--perturbation C] [--step S] [--plain-results]\n"
        "Tunes evaluation weights by SPSA through arena games: each iteration plays K\n"
        "duplicate pairs between the weights moved up and down by a random perturbation, and\n"
        "steps them towards the side that scored, the dice's luck taken out of the result.\n"
        "Writes the weights every 10 iterations and at the end. Progress goes to stderr.\n"
        "Options");
    std::string engine, rulesetName = "kelly", params, startFile, outFile;
    std::vector<std::string> ruleItems, each;
    int iterations = 500, pairs = 1, concurrency = 2;
    std::uint64_t seed = 1;
    bool plain = false;
    SpsaSettings settings;
    desc.add_options()("help,h", "show this help")("engine", po::value(&engine),
                                                   "the engine's command (required)")(
        "out", po::value(&outFile), "write the tuned weights here (required)")(
        "ruleset", po::value(&rulesetName), "kelly (default), dalsian-classic, dalsian, holochess")(
        "option", po::value(&ruleItems)->composing(), "a rule option as Name=Value, repeatable")(
        "each", po::value(&each)->composing(),
        "an arena engine item for both sides, e.g. depth=4 or tc=1+0.01 (repeatable; "
        "default depth=3)")("iterations", po::value(&iterations), "iterations (default 500)")(
        "pairs", po::value(&pairs), "duplicate pairs an iteration (default 1)")(
        "concurrency,j", po::value(&concurrency), "games played at once (default 2)")(
        "params", po::value(&params),
        "the weights to tune, comma-separated (default: the ruleset's evaluation weights)")(
        "start", po::value(&startFile), "start from this weights file (default: compiled in)")(
        "seed", po::value(&seed), "seeds the perturbations and the deals (default 1)")(
        "perturbation", po::value(&settings.perturbation),
        "the first perturbation, a share of each weight's range (default 0.05)")(
        "plain-results", po::bool_switch(&plain),
        "step on the games' results as they are, without the luck as a control variate")(
        "step", po::value(&settings.step),
        "the first step for a result of +-1, a share of each weight's range (default 0.01)");
    po::variables_map vm;
    if (auto code = tools::parseCommandLine({.program = kProgram, .options = desc}, args, vm))
        return *code;
    if (engine.empty()) return usageError("--engine CMD is required");
    if (outFile.empty()) return usageError("--out FILE is required");
    if (iterations < 1 || iterations > 1'000'000)
        return usageError("--iterations must be from 1 to 1000000");
    if (pairs < 1 || pairs > 1000) return usageError("--pairs must be from 1 to 1000");
    if (concurrency < 1 || concurrency > 64) return usageError("-j must be from 1 to 64");
    if (!(settings.perturbation > 0 && settings.perturbation <= 0.5))
        return usageError("--perturbation must be above 0 and at most 0.5");
    if (!(settings.step > 0 && settings.step <= 0.5))
        return usageError("--step must be above 0 and at most 0.5");
    settings.iterations = iterations;

    std::string error;
    auto rules = arena::ruleSettings(rulesetName, ruleItems, error);
    if (!rules) return usageError(error);
    if (Rules(rules->options).courtier())
        return usageError("--ruleset: " + std::string(kCourtierHasNoWeights));
    eval::Tunables start;
    if (!startFile.empty())
        if (auto err = eval::loadTunables(startFile, start)) return usageError("--start: " + *err);
    std::vector<const eval::TunableSpec*> specs;
    const auto names = params.empty() ? defaultParams(Rules(rules->options)) : splitNames(params);
    for (const std::string& name : names) {
        const eval::TunableSpec* spec = eval::findTunable(name);
        if (!spec) return usageError("--params: unknown weight " + name);
        specs.push_back(spec);
    }
    if (each.empty()) each.push_back("depth=3");
    SpsaMatch match{.engine = engine,
                    .each = each,
                    .rules = *rules,
                    .pairs = pairs,
                    .concurrency = concurrency,
                    .directory = {},
                    .seed = seed};
    if (auto e = checkSpsaMatch(match)) return usageError("--engine/--each: " + *e);
    if (std::ofstream probe(outFile, std::ios::app); !probe)
        return usageError("--out: cannot write " + outFile);
    match.directory =
        std::filesystem::temp_directory_path() / ("dejarik-spsa-" + std::to_string(::getpid()));
    std::error_code ec;
    std::filesystem::create_directories(match.directory, ec);
    if (ec) return usageError("cannot make " + match.directory.string() + ": " + ec.message());

    Spsa spsa(specs, start, settings, seed);
    const auto header = [&](int done) {
        return "# dejarik-tune spsa --ruleset " + rulesetName + " --iterations " +
               std::to_string(done) + " of " + std::to_string(iterations) + " --pairs " +
               std::to_string(pairs) + " --seed " + std::to_string(seed) + "\n";
    };
    const auto t0 = std::chrono::steady_clock::now();
    double total = 0;
    LuckControl luck;
    for (int k = 0; k < iterations; ++k) {
        const Spsa::Trial trial = spsa.next();
        const auto result = playTrial(match, trial.plus, trial.minus, k, error);
        if (!result) {
            std::cerr << kProgram << ": error: spsa iteration " << k + 1 << ": " << error << "\n";
            std::filesystem::remove_all(match.directory, ec);
            return 1;
        }
        const double step = plain ? result->result : luck.adjust(*result);
        spsa.update(trial, step);
        total += result->result;
        const bool report = (k + 1) % 10 == 0 || k + 1 == iterations;
        if (report) {
            const eval::Tunables now = spsa.current();
            std::string line;
            char head[160];
            std::snprintf(
                head, sizeof head,
                "iteration %d/%d c %.4f a %.5f mean result %+.3f luck variance x%.2f %.0f s:",
                k + 1, iterations, trial.perturbation, spsa.gainAt(k), total / (k + 1),
                plain ? 1.0 : luck.varianceRatio(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
            line = head;
            for (const eval::TunableSpec* s : specs) {
                char item[96];
                std::snprintf(item, sizeof item, " %s=%g", std::string(s->name).c_str(),
                              s->get(now));
                line += item;
            }
            std::cerr << line << std::endl;
            if (auto err = eval::saveTunables(outFile, now, header(k + 1))) {
                std::cerr << kProgram << ": error: " << *err << "\n";
                return 1;
            }
        }
    }
    std::filesystem::remove_all(match.directory, ec);
    std::cerr << "wrote " << outFile << std::endl;
    return 0;
}

}  // namespace dejarik::tune
