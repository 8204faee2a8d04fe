// One connection's engine: a DEI process started for the page, told the game's rules,
// asked for decisions and analyses, stopped when the page is gone. Every wait has a
// deadline and wakes up on the session's interrupt, so a crashed or stalled engine is
// found out and a page that leaves never waits on a search.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "child_process.h"
#include "rules.h"

namespace spdlog {
class logger;
}

namespace dejarik::gui {

// What an `info ... score ...` line says.
struct InfoLine {
    int multipv = 1;
    int depth = 0;
    std::uint64_t nodes = 0;
    std::int64_t timeMs = 0;
    int ev = 0;  // per mille, for the player whose decision was searched
    std::optional<std::array<int, 3>> wdl;
    bool exact = false;
    std::vector<std::string> pv;
};
// None for lines without a score (and for anything malformed).
[[nodiscard]] std::optional<InfoLine> parseInfoLine(std::string_view line);

// The rule options as `setoption` pairs, read from Rules::describe() (one source of truth).
[[nodiscard]] std::vector<std::pair<std::string, std::string>> ruleOptionPairs(const Rules& rules);

struct EngineTimeouts {
    std::chrono::milliseconds start{10000};  // for deiok and readyok
    std::chrono::milliseconds stall{60000};  // for a bestmove under a depth limit
    std::chrono::milliseconds margin{2000};  // over a movetime
    std::chrono::milliseconds grace{1000};   // for bestmove after stop, exit after quit
};

class EngineLink {
  public:
    enum class Status : std::uint8_t { Done, Crash, Stall, Interrupted };
    struct Search {
        Status status = Status::Done;
        std::string bestmove;          // also after an interrupt, when the engine answered the stop
        std::optional<InfoLine> last;  // the last scored line of multipv 1
        std::int64_t elapsedMs = 0;
        std::string detail;  // what went wrong
    };

    EngineLink(std::string path, EngineTimeouts timeouts, std::shared_ptr<spdlog::logger> log,
               const std::atomic<bool>* interrupt);
    ~EngineLink();
    EngineLink(const EngineLink&) = delete;
    EngineLink& operator=(const EngineLink&) = delete;

    // (Re)starts the engine under these rules: an error message when it does not come up.
    [[nodiscard]] std::optional<std::string> start(const Rules& rules);
    [[nodiscard]] bool running() const { return process_.has_value(); }
    [[nodiscard]] pid_t pid() const { return process_ ? process_->pid() : -1; }

    // `setoption` then `isready`: false when the engine failed (it is then ended).
    [[nodiscard]] bool setOption(const std::string& name, const std::string& value);
    // position dfen <deal> moves ..., then `go`; every scored info line goes to `onInfo`.
    // `wait` bounds the search: past it the engine is stopped, and without a bestmove
    // `grace` later it is a stall and the engine is ended.
    [[nodiscard]] Search search(const std::string& deal, const std::vector<std::string>& moves,
                                const std::string& go, std::chrono::milliseconds wait,
                                const std::function<void(const InfoLine&)>& onInfo);
    // quit, and the process reaped (killed after the grace).
    void quit();

  private:
    [[nodiscard]] bool send(const std::string& line);
    [[nodiscard]] bool waitFor(const std::string& awaited);
    void kill();

    std::string path_;
    EngineTimeouts timeouts_;
    std::shared_ptr<spdlog::logger> log_;
    const std::atomic<bool>* interrupt_;
    std::optional<process::ChildProcess> process_;
};

}  // namespace dejarik::gui
