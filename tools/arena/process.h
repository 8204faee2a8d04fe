// A child process driven through pipes: its stdin and stdout carry the protocol, its
// stderr goes to a file (or nowhere). Every read has a deadline, so a hanging child can
// never hang the arena.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dejarik::arena {

using Clock = std::chrono::steady_clock;

class ChildProcess {
  public:
    struct Spec {
        std::vector<std::string> argv;  // argv[0] is looked up in PATH unless it has a '/'
        std::string workdir;            // empty: the arena's
        std::string stderrPath;         // empty: discarded; appended to otherwise
    };

    enum class ReadStatus { Line, Timeout, Closed, Interrupted };

    // Starts the child in its own process group (so that a terminal's Ctrl-C reaches the
    // arena only, which then stops its engines in order) with default signal handling.
    [[nodiscard]] static std::optional<ChildProcess> spawn(const Spec& spec, std::string& error);

    ChildProcess(ChildProcess&& other) noexcept;
    ChildProcess& operator=(ChildProcess&& other) noexcept;
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;
    ~ChildProcess();  // kills the child if it still runs, and reaps it

    // Writes one line (a newline is appended). False when the child no longer reads.
    [[nodiscard]] bool writeLine(std::string_view line);

    // Reads the next line (without its line end) before `deadline`. The wait wakes up
    // regularly to look at `interrupt`, when given.
    [[nodiscard]] ReadStatus readLine(std::string& line, Clock::time_point deadline,
                                      const std::atomic<bool>* interrupt = nullptr);

    // Closes the child's stdin, gives it `grace` to exit, then kills its process group.
    // Returns a description of how it ended ("exit 0", "signal 9").
    std::string stop(std::chrono::milliseconds grace);

    // Kills the process group at once and reaps the child.
    std::string kill();

    [[nodiscard]] pid_t pid() const { return pid_; }
    // A description of how the child ended, if it has ("exit 3", "signal 11").
    [[nodiscard]] std::optional<std::string> exited();

  private:
    ChildProcess() = default;
    void release();
    [[nodiscard]] std::optional<std::string> reap(bool wait);

    pid_t pid_ = -1;
    int in_ = -1;   // the child's stdin, our write end
    int out_ = -1;  // the child's stdout, our read end
    std::string buffer_;
    bool eof_ = false;
    std::optional<std::string> status_;
};

}  // namespace dejarik::arena
