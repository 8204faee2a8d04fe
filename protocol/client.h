// A DEI engine run as a child process and talked to through pipes, the way a GUI does it:
// for the protocol tests, the fuzzer and the latency benchmark. Every read has a timeout,
// so a hung engine fails a test instead of hanging it.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dejarik::protocol {

class EngineProcess {
  public:
    using Clock = std::chrono::steady_clock;

    // Starts `path` with `args` (not including argv[0]); nullptr and a message on failure.
    [[nodiscard]] static std::unique_ptr<EngineProcess> spawn(const std::string& path,
                                                              const std::vector<std::string>& args,
                                                              std::string* error = nullptr);
    ~EngineProcess();  // closes stdin, waits briefly, then kills
    EngineProcess(const EngineProcess&) = delete;
    EngineProcess& operator=(const EngineProcess&) = delete;

    // Writes one line (a newline is added). False when the engine no longer reads.
    bool send(std::string_view line);
    // Writes raw bytes as they are (for input without a final newline).
    bool sendRaw(std::string_view bytes);
    // Ends the engine's input (EOF).
    void closeInput();

    // The next stdout line, without its newline; none on timeout or when stdout closed.
    [[nodiscard]] std::optional<std::string> readLine(std::chrono::milliseconds timeout);
    // Lines up to and including the first that `done` accepts; none on timeout or EOF, with
    // the lines read so far left in `partial` when given.
    [[nodiscard]] std::optional<std::vector<std::string>> readUntil(
        const std::function<bool(const std::string&)>& done, std::chrono::milliseconds timeout,
        std::vector<std::string>* partial = nullptr);
    // Lines that arrive within `quiet` of each other, until a gap of `quiet`.
    [[nodiscard]] std::vector<std::string> drain(std::chrono::milliseconds quiet);

    // The exit status once the process has ended (exit code, or 128 + signal), none on
    // timeout.
    [[nodiscard]] std::optional<int> waitExit(std::chrono::milliseconds timeout);
    // Everything the engine wrote to stderr so far.
    [[nodiscard]] const std::string& stderrText();
    [[nodiscard]] bool stdoutClosed() const { return outFd_ < 0; }
    [[nodiscard]] pid_t pid() const { return pid_; }

  private:
    EngineProcess() = default;
    // Moves whatever is readable into the buffers, waiting until `deadline` for something.
    // Returns false when nothing came before the deadline.
    bool pump(Clock::time_point deadline);
    [[nodiscard]] std::optional<std::string> takeLine();

    pid_t pid_ = -1;
    int inFd_ = -1;
    int outFd_ = -1;
    int errFd_ = -1;
    std::string outBuffer_;
    std::string errBuffer_;
    std::optional<int> status_;
};

}  // namespace dejarik::protocol
