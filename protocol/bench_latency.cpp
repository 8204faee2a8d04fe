// dejarik-bench-latency: how fast the engine answers a GUI. Measures the time from `stop`
// to `bestmove` over many searches (goal: p99 <= 20 ms) and from process start to `deiok`
// (goal: <= 50 ms). It prints figures only; tests never assert latencies.
#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "child_process.h"
#include "command_line.h"

namespace po = boost::program_options;
using dejarik::process::ChildProcess;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

namespace {

constexpr std::string_view kProgram = "dejarik-bench-latency";
constexpr auto kLiveness = 30s;

double ms(Clock::duration d) {
    return std::chrono::duration<double, std::milli>(d).count();
}

// The q-quantile by the nearest-rank method.
double quantile(std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size())));
    return v[std::clamp<std::size_t>(rank, 1, v.size()) - 1];
}

void report(const std::string& what, const std::vector<double>& v, double goal,
            const std::string& goalName) {
    if (v.empty()) return;
    std::printf("%-26s n=%-4zu p50 %7.2f ms  p99 %7.2f ms  max %7.2f ms  (goal: %s <= %.0f ms)\n",
                what.c_str(), v.size(), quantile(v, 0.5), quantile(v, 0.99),
                *std::max_element(v.begin(), v.end()), goalName.c_str(), goal);
}

bool startToDeiok(const std::string& engine, std::vector<double>& out) {
    const auto t0 = Clock::now();
    std::string error;
    auto p = ChildProcess::spawn({.argv = {engine}}, error);
    if (!p) {
        std::cerr << "bench-latency: " << error << "\n";
        return false;
    }
    p->send("dei");
    if (!p->readUntil([](const std::string& l) { return l == "deiok"; }, kLiveness)) {
        std::cerr << "bench-latency: no deiok\n";
        return false;
    }
    out.push_back(ms(Clock::now() - t0));
    p->send("quit");
    return p->waitExit(kLiveness).has_value();
}

}  // namespace

int main(int argc, char** argv) {
    std::string engine;
    int searches = 200, starts = 20, threads = 1;
    std::uint32_t seed = 1;
    po::options_description desc(
        "Usage: dejarik-bench-latency [--engine PATH] [--searches N] [--starts N]\n"
        "Measures stop -> bestmove and process start -> deiok latency of a DEI engine.\n"
        "Options");
    desc.add_options()("help,h", "show this help")(
        "engine", po::value(&engine), "the engine (default: dejarik next to this program)")(
        "searches", po::value(&searches)->default_value(200), "searches to stop")(
        "starts", po::value(&starts)->default_value(20), "process starts to time")(
        "threads", po::value(&threads)->default_value(1), "the engine's Threads option")(
        "seed", po::value(&seed)->default_value(1), "seed of the think times");
    po::variables_map vm;
    if (auto code = dejarik::tools::parseCommandLine({.program = kProgram, .options = desc}, argc,
                                                     argv, vm))
        return *code;
    if (searches < 1 || starts < 0 || threads < 1)
        return dejarik::tools::usageError(
            kProgram, "--searches and --threads must be at least 1, --starts at least 0");
    if (engine.empty()) {
        const std::string self = argv[0];
        const auto slash = self.rfind('/');
        engine =
            (slash == std::string::npos ? std::string(".") : self.substr(0, slash)) + "/dejarik";
    }

    std::vector<double> startTimes;
    for (int i = 0; i < starts; ++i)
        if (!startToDeiok(engine, startTimes)) return 1;

    std::string error;
    auto p = ChildProcess::spawn({.argv = {engine}}, error);
    if (!p) {
        std::cerr << "dejarik-bench-latency: " << error << "\n";
        return 1;
    }
    p->send("setoption name Threads value " + std::to_string(threads));
    p->send("isready");
    if (!p->readUntil([](const std::string& l) { return l == "readyok"; }, kLiveness)) return 1;

    // Positions of every ruleset, some with a placement due for the player not on turn, so
    // the stop is timed in every kind of search the engine runs.
    const std::vector<std::pair<std::string, std::string>> setups = {
        {"kelly", "position startpos"},
        {"kelly", "position dfen S/Hk...mN....l/tG.........g 1 2 0 1"},
        {"kelly", "position dfen S/Hk...mN....l/tG.........g 1 2 0 1 moves axb2 counterpush"},
        {"dalsian-classic", "position dfen N/..k........./...G....mt.. 1 2 0 9 2/2"},
        {"dalsian", "position dfen ./SmKl......../tNh......... 1 2 0 1"},
        {"holochess", "position dfen ./L..m.....t../...S..G..k.. 1 2 0 1"},
    };
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> thinkMs(5, 150);
    std::vector<double> stopTimes;
    for (int i = 0; i < searches; ++i) {
        const auto& [ruleset, position] = setups[static_cast<std::size_t>(i) % setups.size()];
        p->send("setoption name Ruleset value " + ruleset);
        p->send(position);
        p->send("go infinite");
        std::this_thread::sleep_for(std::chrono::milliseconds(thinkMs(rng)));
        const auto t0 = Clock::now();
        p->send("stop");
        if (!p->readUntil([](const std::string& l) { return l.starts_with("bestmove"); },
                          kLiveness)) {
            std::cerr << "dejarik-bench-latency: no bestmove after stop\n";
            return 1;
        }
        stopTimes.push_back(ms(Clock::now() - t0));
    }
    p->send("quit");
    const auto status = p->waitExit(kLiveness);

    std::printf("engine %s\n", engine.c_str());
    report("stop -> bestmove", stopTimes, 20, "p99");
    report("process start -> deiok", startTimes, 50, "max");
    return status && status->shellCode() == 0 ? 0 : 1;
}
