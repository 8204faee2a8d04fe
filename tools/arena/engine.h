// Seats: an engine process spoken to over DEI, and the in-process baseline players.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "baselines.h"
#include "child_process.h"
#include "game.h"

namespace spdlog {
class logger;
}

namespace dejarik::arena {

using process::ChildProcess;
using Clock = process::Clock;

// One engine of a run, from `--engine key=value ...` (docs/arena.md lists the keys).
struct EngineSpec {
    std::string name;
    std::string cmd;                // cmd=
    std::vector<std::string> args;  // every arg=, in order
    std::string builtin;            // builtin=random|greedy|cautious: an in-process baseline
    std::uint64_t builtinSeed = 0;  // seed= for the builtin
    std::string workdir;            // dir=
    std::string stderrPath;         // stderr=
    std::vector<std::pair<std::string, std::string>> options;  // option.Name=Value
    TimeControl control;

    // Applies key=value items on top of this spec (so `--each` can be laid under every
    // `--engine`). Returns an error message on a bad item.
    [[nodiscard]] std::optional<std::string> apply(const std::vector<std::string>& items);
    // Completes the spec (a default name) and checks that it can be played.
    [[nodiscard]] std::optional<std::string> finish(bool needsLimit);
    // Everything that decides how the engine plays, for the results file's fingerprint.
    [[nodiscard]] std::string describe() const;
    [[nodiscard]] std::vector<std::string> argv() const;
};

struct EngineTimeouts {
    std::chrono::milliseconds start{10000};     // for the handshake and every isready
    std::chrono::milliseconds stopGrace{1000};  // for bestmove after stop
    std::chrono::milliseconds quitGrace{1000};  // for the exit after quit
};

class EngineSeat final : public Seat {
  public:
    // ruleOptions: the rule options of the run as (Name, Value), sent before the engine's
    // own options.
    EngineSeat(EngineSpec spec, std::vector<std::pair<std::string, std::string>> ruleOptions,
               EngineTimeouts timeouts, std::shared_ptr<spdlog::logger> log,
               const std::atomic<bool>* interrupt);
    ~EngineSeat() override;

    [[nodiscard]] const std::string& name() const override { return spec_.name; }
    [[nodiscard]] Reply prepare() override;
    [[nodiscard]] Reply decide(const DecisionRequest& request) override;
    void recover() override;
    void shutdown() override;

    // Sends the commands, then isready, and returns the engine's lines up to readyok (to
    // replay records through the engine). Empty on a fault.
    [[nodiscard]] std::optional<std::vector<std::string>> converse(
        const std::vector<std::string>& commands, std::chrono::milliseconds wait);

  private:
    [[nodiscard]] Reply start();
    [[nodiscard]] Reply waitReady();
    // Reads a line of the handshake (for deiok or readyok, within timeouts_.start): nothing
    // when a line came, else the fault.
    [[nodiscard]] std::optional<Reply> readHandshakeLine(std::string& line,
                                                         Clock::time_point deadline,
                                                         const std::string& doing,
                                                         const std::string& awaited);
    [[nodiscard]] Reply crashed(const std::string& doing);
    [[nodiscard]] bool send(const std::string& line);
    // The engine's next line before `deadline`, a CRLF line end taken as LF.
    [[nodiscard]] ChildProcess::ReadStatus readLine(std::string& line, Clock::time_point deadline);
    void logLine(const std::string& line);

    EngineSpec spec_;
    std::vector<std::pair<std::string, std::string>> ruleOptions_;
    EngineTimeouts timeouts_;
    std::shared_ptr<spdlog::logger> log_;
    const std::atomic<bool>* interrupt_;
    std::optional<ChildProcess> process_;
    std::set<std::string> announcedOptions_;  // lower case
    int starts_ = 0;
};

// A baseline player of search/baselines.h (random, greedy, cautious), in the arena's own process:
// it decides by a generator seeded from its seed and the position's key, so it plays the same
// decision in the same position, whatever came before.
class BuiltinSeat final : public Seat {
  public:
    BuiltinSeat(std::string name, std::string kind, std::uint64_t seed);
    [[nodiscard]] const std::string& name() const override { return name_; }
    [[nodiscard]] Reply prepare() override { return {}; }
    [[nodiscard]] Reply decide(const DecisionRequest& request) override;
    void recover() override {}
    void shutdown() override {}

  private:
    std::string name_;
    search::Baseline player_;
    std::uint64_t seed_;
};

// The `go` line of a decision: the control's limits and each clock the players have.
[[nodiscard]] std::string goCommand(const DecisionRequest& request);

[[nodiscard]] std::unique_ptr<Seat> makeSeat(
    const EngineSpec& spec, const std::vector<std::pair<std::string, std::string>>& ruleOptions,
    const EngineTimeouts& timeouts, const std::shared_ptr<spdlog::logger>& log,
    const std::atomic<bool>* interrupt);

}  // namespace dejarik::arena
