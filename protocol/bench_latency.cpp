// dejarik-bench-latency: how fast the engine answers a GUI. Measures, over many searches,
// the time from `go` to the first `info` (the start of a search: depth 1 takes microseconds,
// the rest is what starting costs), from `go depth 1` to `bestmove` (a whole search's fixed
// costs: start, helpers, report), and from `stop` to `bestmove` (goal: p99 <= 20 ms); and
// from process start to `deiok` (goal: <= 50 ms). Given several engines it alternates them
// search by search, so that their figures come from the same minutes of a noisy machine.
// It prints figures only; tests never assert latencies.
#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
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

void report(const std::string& what, const std::vector<double>& v, const std::string& goal) {
    if (v.empty()) return;
    std::printf("  %-24s n=%-4zu p50 %7.2f ms  p99 %7.2f ms  max %7.2f ms%s\n", what.c_str(),
                v.size(), quantile(v, 0.5), quantile(v, 0.99),
                *std::max_element(v.begin(), v.end()),
                goal.empty() ? "" : ("  (goal: " + goal + ")").c_str());
}

// What is measured of one engine.
struct Figures {
    std::vector<double> start;   // process start -> deiok
    std::vector<double> goInfo;  // go -> first info
    std::vector<double> goDone;  // go depth 1 -> bestmove
    std::vector<double> stop;    // stop -> bestmove
};

bool startToDeiok(const std::string& engine, std::vector<double>& out) {
    const auto t0 = Clock::now();
    std::string error;
    auto p = ChildProcess::spawn({.argv = {engine}}, error);
    if (!p) {
        std::cerr << "dejarik-bench-latency: " << error << "\n";
        return false;
    }
    p->send("dei");
    if (!p->readUntil([](const std::string& l) { return l == "deiok"; }, kLiveness)) {
        std::cerr << "dejarik-bench-latency: no deiok from " << engine << "\n";
        return false;
    }
    out.push_back(ms(Clock::now() - t0));
    p->send("quit");
    return p->waitExit(kLiveness).has_value();
}

bool isBestmove(const std::string& l) {
    return l.starts_with("bestmove");
}

bool isInfo(const std::string& l) {
    return l.starts_with("info depth");
}

// Sends `command` and appends the time to the first line `done` accepts to `out`.
bool timeUntil(ChildProcess& p, const std::string& command, bool (*done)(const std::string&),
               std::vector<double>& out) {
    const auto t0 = Clock::now();
    p.send(command);
    if (!p.readUntil(done, kLiveness)) {
        std::cerr << "dejarik-bench-latency: no answer to " << command << "\n";
        return false;
    }
    out.push_back(ms(Clock::now() - t0));
    return true;
}

// `go infinite`, the first info timed; then `stop` after `think`, the bestmove timed.
bool infiniteThenStop(ChildProcess& p, std::chrono::milliseconds think, Figures& f) {
    const auto t0 = Clock::now();
    if (!timeUntil(p, "go infinite", isInfo, f.goInfo)) return false;
    std::this_thread::sleep_until(t0 + think);
    return timeUntil(p, "stop", isBestmove, f.stop);
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> engines;
    int searches = 200, starts = 20, threads = 1;
    std::uint32_t seed = 1;
    po::options_description desc(
        "Usage: dejarik-bench-latency [--engine PATH]... [--searches N] [--starts N]\n"
        "Measures go -> first info, go depth 1 -> bestmove, stop -> bestmove and process start\n"
        "-> deiok of DEI engines; several engines are alternated search by search.\n"
        "Options");
    desc.add_options()("help,h", "show this help")(
        "engine", po::value(&engines)->composing(),
        "an engine; repeat to compare (default: dejarik next to this program)")(
        "searches", po::value(&searches)->default_value(200), "searches of each kind per engine")(
        "starts", po::value(&starts)->default_value(20), "process starts to time per engine")(
        "threads", po::value(&threads)->default_value(1), "the engines' Threads option")(
        "seed", po::value(&seed)->default_value(1), "seed of the think times");
    po::variables_map vm;
    if (auto code = dejarik::tools::parseCommandLine({.program = kProgram, .options = desc}, argc,
                                                     argv, vm))
        return *code;
    if (searches < 1 || starts < 0 || threads < 1)
        return dejarik::tools::usageError(
            kProgram, "--searches and --threads must be at least 1, --starts at least 0");
    if (engines.empty()) {
        const std::string self = argv[0];
        const auto slash = self.rfind('/');
        engines.push_back((slash == std::string::npos ? std::string(".") : self.substr(0, slash)) +
                          "/dejarik");
    }

    std::vector<Figures> figures(engines.size());
    for (int i = 0; i < starts; ++i)
        for (std::size_t e = 0; e < engines.size(); ++e)
            if (!startToDeiok(engines[e], figures[e].start)) return 1;

    std::vector<ChildProcess> procs;
    for (const std::string& engine : engines) {
        std::string error;
        auto p = ChildProcess::spawn({.argv = {engine}}, error);
        if (!p) {
            std::cerr << "dejarik-bench-latency: " << error << "\n";
            return 1;
        }
        p->send("setoption name Threads value " + std::to_string(threads));
        p->send("isready");
        if (!p->readUntil([](const std::string& l) { return l == "readyok"; }, kLiveness)) return 1;
        procs.push_back(std::move(*p));
    }

    // Positions of every ruleset, some with a placement due for the player not on turn, so
    // every kind of search the engine runs is timed.
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
    for (int i = 0; i < searches; ++i) {
        const auto& [ruleset, position] = setups[static_cast<std::size_t>(i) % setups.size()];
        const auto think = std::chrono::milliseconds(thinkMs(rng));
        for (std::size_t e = 0; e < procs.size(); ++e) {
            ChildProcess& p = procs[e];
            p.send("setoption name Ruleset value " + ruleset);
            p.send(position);
            if (!infiniteThenStop(p, think, figures[e])) return 1;
            p.send(position);
            if (!timeUntil(p, "go depth 1", isBestmove, figures[e].goDone)) return 1;
        }
    }
    int status = 0;
    for (auto& p : procs) {
        p.send("quit");
        const auto exit = p.waitExit(kLiveness);
        if (!exit || exit->shellCode() != 0) status = 1;
    }

    for (std::size_t e = 0; e < engines.size(); ++e) {
        const Figures& f = figures[e];
        std::printf("engine %s (Threads %d)\n", engines[e].c_str(), threads);
        report("go -> first info", f.goInfo, "");
        report("go depth 1 -> bestmove", f.goDone, "");
        report("stop -> bestmove", f.stop, "p99 <= 20 ms");
        report("process start -> deiok", f.start, "max <= 50 ms");
    }
    return status;
}
