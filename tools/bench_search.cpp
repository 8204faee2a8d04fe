// dejarik-bench-search: the search's figures on the bench set, for tools/bench-search.
//   --mode bench      the bench signature and nps (as the engine's `bench` command)
//   --mode reduction  nodes of plain expectiminimax / nodes of the pruned search at equal
//                     depth, checking that the root values agree
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "bench.h"
#include "command_line.h"
#include "search.h"

namespace po = boost::program_options;
using namespace dejarik;

namespace {

constexpr std::string_view kProgram = "dejarik-bench-search";

double seconds(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

int reduction(int depth) {
    std::uint64_t plainTotal = 0, starTotal = 0, fullTotal = 0;
    double plainTime = 0, starTime = 0;
    bool agree = true;
    double fullDiff = 0;
    std::printf("%-46s %12s %12s %12s %8s %8s\n", "position", "plain", "star1/2", "full", "ratio",
                "full");
    for (const auto& b : search::benchPositions()) {
        const Rules rules(b.ruleOptions());
        const auto pos = Position::fromDfen(b.dfen, rules);
        if (!pos) return 2;
        std::uint64_t plainNodes = 0, starNodes = 0;
        auto t = std::chrono::steady_clock::now();
        const double plain = search::expectiminimax(*pos, depth, plainNodes);
        plainTime += seconds(t);
        t = std::chrono::steady_clock::now();
        const double star = search::prunedValue(*pos, depth, starNodes);
        starTime += seconds(t);
        search::Searcher searcher;
        searcher.setOptions({.hashMiB = 16, .threads = 1, .multiPv = 1});
        search::Limits limits;
        limits.depth = depth;
        const auto full = searcher.run(*pos, limits);
        const bool same = std::abs(plain - star) <= 1e-9;
        const double fullValue =
            pos->decider() == Player::One ? full.lines.at(0).value : -full.lines.at(0).value;
        fullDiff = std::max(fullDiff, std::abs(fullValue - plain));
        agree = agree && same;
        plainTotal += plainNodes;
        starTotal += starNodes;
        fullTotal += full.nodes;
        std::printf("%-46s %12llu %12llu %12llu %8.1f %8.1f%s\n",
                    (std::string(rulesetName(b.ruleset)) + " " + std::string(b.dfen)).c_str(),
                    static_cast<unsigned long long>(plainNodes),
                    static_cast<unsigned long long>(starNodes),
                    static_cast<unsigned long long>(full.nodes),
                    static_cast<double>(plainNodes) / static_cast<double>(starNodes),
                    static_cast<double>(plainNodes) / static_cast<double>(full.nodes),
                    same ? "" : "  VALUES DIFFER");
    }
    std::printf("depth %d total: plain %llu, star1/star2 (no table) %llu, full search %llu\n",
                depth, static_cast<unsigned long long>(plainTotal),
                static_cast<unsigned long long>(starTotal),
                static_cast<unsigned long long>(fullTotal));
    std::printf("node reduction: star1/star2 %.2f, full search (table, ordering, deepening) %.2f\n",
                static_cast<double>(plainTotal) / static_cast<double>(starTotal),
                static_cast<double>(plainTotal) / static_cast<double>(fullTotal));
    std::printf("time: plain %.2f s, star1/star2 %.2f s; star1/star2 root values %s\n", plainTime,
                starTime, agree ? "agree within 1e-9" : "DIFFER");
    std::printf(
        "full search root values: largest difference from plain %.2e (float table "
        "entries; deeper entries stand in for shallower ones)\n",
        fullDiff);
    return agree ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    po::options_description desc("Usage: dejarik-bench-search --mode bench|reduction [--depth N]");
    std::string mode = "bench";
    int depth = 0;
    desc.add_options()("help,h", "show this help")("mode", po::value(&mode), "bench or reduction")(
        "depth", po::value(&depth), "search depth in actions");
    po::variables_map vm;
    if (auto code = tools::parseCommandLine({.program = kProgram, .options = desc}, argc, argv, vm))
        return *code;
    if (vm.count("depth") && (depth < 1 || depth > search::kMaxDepth))
        return tools::usageError(kProgram,
                                 "--depth must be from 1 to " + std::to_string(search::kMaxDepth));
    if (mode == "reduction") return reduction(depth > 0 ? depth : 4);
    if (mode != "bench") return tools::usageError(kProgram, "unknown mode '" + mode + "'");
    const auto r = search::runBench(depth > 0 ? depth : search::kBenchDepth,
                                    [](const std::string& line) { std::cerr << line << "\n"; });
    std::printf("bench nodes %llu nps %llu time %lld\n", static_cast<unsigned long long>(r.nodes),
                static_cast<unsigned long long>(r.nps), static_cast<long long>(r.timeMs));
    return 0;
}
