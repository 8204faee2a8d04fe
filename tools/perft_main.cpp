// dejarik-perft: counts event sequences from a position (RULES §12), printing the format of
// PROTOCOL.md "Perft output" and the rate on stderr.
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "command_line.h"
#include "perft.h"
#include "position.h"
#include "rules.h"

namespace po = boost::program_options;
using namespace dejarik;

namespace {

constexpr std::string_view kProgram = "dejarik-perft";

int usageError(const std::string& message) {
    return tools::usageError(kProgram, message);
}

}  // namespace

int main(int argc, char** argv) {
    po::options_description desc(
        "Usage: dejarik-perft --ruleset R [--option Name=Value]... (--startpos | --dfen D)\n"
        "                     [--moves \"e1 e2 ...\"] --depth N [--divide]\nOptions");
    std::string rulesetName = "kelly";
    std::vector<std::string> options;
    std::string dfen;
    std::string moves;
    int depth = -1;
    desc.add_options()("help,h", "show this help")(
        "ruleset", po::value(&rulesetName),
        "kelly (default), dalsian-classic, dalsian, holochess or courtier")(
        "option", po::value(&options)->composing(),
        "a rule option as Name=Value (PROTOCOL.md names), repeatable")(
        "startpos", "start from the ruleset's standard position")(
        "dfen", po::value(&dfen), "start from this DFEN")("moves", po::value(&moves),
                                                          "events to play first, space-separated")(
        "depth", po::value(&depth), "plies to count (0 or more)")(
        "divide", "print the count below each first event");

    // Not in --help: a measurement switch (make/unmake instead of copy-make), same counts.
    po::options_description hidden;
    hidden.add_options()("unmake", "count by make/unmake");
    po::variables_map vm;
    if (auto code = tools::parseCommandLine(
            {.program = kProgram, .options = desc, .hidden = &hidden}, argc, argv, vm))
        return *code;

    RuleOptions ruleOptions;
    if (auto err = ruleOptions.set("Ruleset", rulesetName)) return usageError(*err);
    for (const auto& o : options)
        if (auto err = ruleOptions.setAssignment(o)) return usageError("--option " + *err);
    const Rules rules(ruleOptions);

    if (vm.count("startpos") == vm.count("dfen"))
        return usageError("give exactly one of --startpos and --dfen");
    if (!vm.count("depth")) return usageError("--depth is required");
    if (depth < 0 || depth > kMaxPerftDepth)
        return usageError("--depth must be from 0 to " + std::to_string(kMaxPerftDepth));

    std::string error;
    auto start = vm.count("startpos") ? std::optional(Position::startpos(rules))
                                      : Position::fromDfen(dfen, rules, &error);
    if (!start) return usageError(error);
    auto pos = playTokens(*start, moves, &error);
    if (!pos) return usageError("--moves: " + error);

    const bool unmake = vm.count("unmake") != 0;
    const auto t0 = std::chrono::steady_clock::now();
    std::uint64_t total = 0;
    if (vm.count("divide")) {
        std::string out;
        const auto rows = unmake ? perftDivideUnmake(*pos, depth) : perftDivide(*pos, depth);
        for (const auto& [event, count] : rows) {
            out += pos->token(event) + ": " + std::to_string(count) + "\n";
            total += count;
        }
        if (depth == 0) total = 1;
        std::cout << out << "\n";
    } else {
        total = unmake ? perftUnmake(*pos, depth) : perft(*pos, depth);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cout << "Nodes searched: " << total << std::endl;
    std::fprintf(stderr, "time %.3f s, %.0f leaves/s\n", seconds,
                 seconds > 0 ? static_cast<double>(total) / seconds : 0.0);
    return 0;
}
