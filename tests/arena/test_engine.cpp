// dejarik-test-engine: a small DEI engine for the arena's tests. It plays the random or
// greedy baseline, and can be told to misbehave in the ways a real engine might: crash,
// hang, answer illegally, talk garbage, start slowly. Faults strike at the N-th `go` of
// each process, so every restarted engine fails again at the same point.
#include <unistd.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <csignal>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>

#include "baselines.h"
#include "position.h"

namespace po = boost::program_options;
using namespace dejarik;

namespace {

std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
    std::uint64_t z = a ^ (b * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void sleepMs(int ms) {
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

struct Settings {
    std::string player = "random";
    std::string fault = "none";
    int after = 1;
    int delayMs = 0;
    int slowStartMs = 0;
    bool noise = false;
};

class TestEngine {
  public:
    explicit TestEngine(Settings s)
        : settings_(std::move(s)),
          rules_(std::make_unique<Rules>(options_)),
          pos_(Position::startpos(*rules_)) {}

    // Returns false on quit.
    bool handle(const std::string& line) {
        std::istringstream in(line);
        std::string command;
        in >> command;
        if (settings_.noise) std::cout << "garbage before " << command << "\n";
        if (command.empty()) return true;
        if (command == "dei") {
            std::cout << "id name dejarik-test-engine\nid author the dejarik arena tests\n"
                      << "option name Ruleset type combo default kelly var kelly var "
                         "dalsian-classic var dalsian var holochess\n"
                      << "option name DrawTurns type spin default 40 min 0 max 1000\n"
                      << "option name Seed type spin default 0 min 0 max 4294967295\n"
                      << "deiok" << std::endl;
        } else if (command == "isready") {
            std::cout << "readyok" << std::endl;
        } else if (command == "setoption") {
            setOption(line);
        } else if (command == "position") {
            setPosition(line);
        } else if (command == "go") {
            go();
        } else if (command == "d") {
            if (pos_.phase() == Phase::Decision) std::cout << "DFEN: " << pos_.dfen() << "\n";
            std::cout << "Rules: " << rules_->describe() << std::endl;
        } else if (command == "quit") {
            return false;
        } else if (command != "newgame" && command != "stop") {
            std::cout << "info string error: unknown command '" << command << "'" << std::endl;
        }
        return true;
    }

  private:
    void setOption(const std::string& line) {
        // setoption name <id> value <x>
        const auto namePos = line.find(" name ");
        const auto valuePos = line.find(" value ");
        if (namePos == std::string::npos || valuePos == std::string::npos) {
            std::cout << "info string error: malformed setoption" << std::endl;
            return;
        }
        const std::string name = line.substr(namePos + 6, valuePos - namePos - 6);
        const std::string value = line.substr(valuePos + 7);
        if (name == "Seed") {
            seed_ = std::stoull(value);
        } else if (RuleOptions::isRuleOption(name)) {
            if (auto e = options_.set(name, value)) {
                std::cout << "info string error: " << *e << std::endl;
                return;
            }
            rules_ = std::make_unique<Rules>(options_);
            pos_ = Position::startpos(*rules_);
        } else {
            std::cout << "info string error: unknown option '" << name << "'" << std::endl;
        }
    }

    void setPosition(const std::string& line) {
        const auto movesPos = line.find(" moves");
        const std::string head = line.substr(0, movesPos);
        const std::string moves = movesPos == std::string::npos ? "" : line.substr(movesPos + 6);
        std::string error;
        std::optional<Position> start;
        if (head.find(" startpos") != std::string::npos) {
            start = Position::startpos(*rules_);
        } else if (const auto d = head.find(" dfen "); d != std::string::npos) {
            start = Position::fromDfen(head.substr(d + 6), *rules_, &error);
        } else {
            error = "position needs startpos or dfen";
        }
        if (start) start = playTokens(*start, moves, &error);
        if (!start) {
            std::cout << "info string error: " << error << std::endl;
            return;
        }
        pos_ = *start;
    }

    void go() {
        ++searches_;
        if (pos_.isOver() || pos_.phase() == Phase::Outcome) {
            std::cout << "info string error: no decision is due\nbestmove none" << std::endl;
            return;
        }
        std::uint64_t rng = mix(mix(mix(seed_, pos_.key()), pos_.turn()),
                                pos_.quiet() * 4 + static_cast<std::uint64_t>(pos_.actionsLeft()));
        const Event e = settings_.player == "greedy" ? search::greedyDecision(pos_, rng)
                                                     : search::randomDecision(pos_, rng);
        const std::string move = e.token();
        if (searches_ == settings_.after) {
            const std::string& f = settings_.fault;
            if (f == "crash") ::kill(::getpid(), SIGKILL);
            if (f == "hang") {
                // Deaf to everything, stop and quit included, until killed.
                while (true)
                    sleepMs(1000);
            }
            if (f == "slow") sleepMs(settings_.delayMs);
            if (f == "illegal") {
                std::cout << "info depth 1 score ev 0 pv pass\nbestmove pass" << std::endl;
                return;
            }
            if (f == "badtoken") {
                std::cout << "bestmove xyzzy" << std::endl;
                return;
            }
            if (f == "nobestmove") {
                std::cout << "bestmove none" << std::endl;
                return;
            }
        }
        if (settings_.noise) std::cout << "this line means nothing\ninfo nonsense 1 2 3\n";
        std::cout << "info depth 1 nodes " << searches_ << " score ev " << (searches_ % 7) * 10
                  << " wdl 300 400 300 pv " << move << "\nbestmove " << move << std::endl;
    }

    Settings settings_;
    RuleOptions options_;
    std::unique_ptr<Rules> rules_;
    Position pos_;
    std::uint64_t seed_ = 0;
    int searches_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
    Settings s;
    po::options_description desc("dejarik-test-engine options");
    desc.add_options()("help,h", "show this help")("player", po::value(&s.player),
                                                   "random (default) or greedy")(
        "fault", po::value(&s.fault),
        "none, crash, hang, slow, illegal, badtoken, nobestmove, exit (at start)")(
        "after", po::value(&s.after), "the fault strikes at this go of the process (default 1)")(
        "delay-ms", po::value(&s.delayMs), "how long the slow fault sleeps")(
        "slow-start-ms", po::value(&s.slowStartMs), "sleep this long before reading anything")(
        "noise", "print garbage lines around every answer");
    po::variables_map vm;
    try {
        po::store(po::parse_command_line(argc, argv, desc), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        std::cerr << e.what() << "\n";
        return 2;
    }
    if (vm.count("help")) {
        std::cout << desc << "\n";
        return 0;
    }
    s.noise = vm.count("noise") > 0;
    if (s.fault == "exit") return 3;
    if (s.slowStartMs > 0) sleepMs(s.slowStartMs);
    TestEngine engine(s);
    std::string line;
    while (std::getline(std::cin, line))
        if (!engine.handle(line)) break;
    return 0;
}
