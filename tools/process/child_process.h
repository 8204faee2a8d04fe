// A child process driven through pipes, the way a GUI or a tournament manager drives a DEI
// engine: lines to its stdin, lines from its stdout. Every read and write has a deadline,
// so a hung child fails a test or loses a game instead of hanging the caller. Used by the
// arena's referee, the protocol tests and the latency benchmark.
//
// A child that died turns a write into a failed write, never into SIGPIPE: the signal is
// held back for the writing thread only, so nothing process-wide changes.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dejarik::process {

using Clock = std::chrono::steady_clock;

// How a child ended.
struct ExitStatus {
    int code = -1;   // the exit code when it exited, else -1
    int signal = 0;  // the signal that ended it, else 0
    // Both unknown: the child was reaped elsewhere and nothing more can be learnt.
    [[nodiscard]] bool lost() const { return code < 0 && signal == 0; }
    // "exit 3", "signal 9" or "lost".
    [[nodiscard]] std::string describe() const;
    // As a shell reports it: the exit code, or 128 + the signal (-1 when lost).
    [[nodiscard]] int shellCode() const;
    bool operator==(const ExitStatus&) const = default;
};

class ChildProcess {
  public:
    enum class Stderr : std::uint8_t {
        Discard,       // to /dev/null
        AppendToFile,  // to Spec::stderrPath, created when missing
        Capture,       // into a buffer, read by stderrText()
    };

    struct Spec {
        // Every member has an initializer, so that designated initializers may leave any out.
        std::vector<std::string> argv{};  // argv[0] is looked up in PATH unless it has a '/'
        std::string workdir{};            // empty: the caller's
        Stderr stderrTo = Stderr::Discard;
        std::string stderrPath{};  // for Stderr::AppendToFile
        // A child that does not take a write within this time is as good as dead.
        std::chrono::milliseconds writeTimeout{5000};
    };

    enum class ReadStatus { Line, Timeout, Closed, Interrupted };

    // Starts the child in its own process group (so that a terminal's Ctrl-C reaches the
    // caller only, which can then stop its children in order) with default signal handling
    // and an empty signal mask. None, and `error` set, when it cannot be started.
    [[nodiscard]] static std::optional<ChildProcess> spawn(const Spec& spec, std::string& error);

    ChildProcess(ChildProcess&& other) noexcept;
    ChildProcess& operator=(ChildProcess&& other) noexcept;
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;
    ~ChildProcess();  // kills the child's process group if it still runs, and reaps it

    // Writes one line (a newline is appended). False when the child no longer reads (a
    // caller may as well let its next read find that out).
    bool send(std::string_view line);
    // Writes bytes as they are (input without a final newline, say).
    bool sendRaw(std::string_view bytes);
    // Ends the child's input (it reads EOF).
    void closeInput();

    // The next stdout line, without its '\n', before `deadline`; a last line without a
    // newline counts once stdout is closed. The wait wakes up regularly to look at
    // `interrupt`, when given.
    [[nodiscard]] ReadStatus readLine(std::string& line, Clock::time_point deadline,
                                      const std::atomic<bool>* interrupt = nullptr);
    // The same within `timeout`: none on timeout or when stdout is closed.
    [[nodiscard]] std::optional<std::string> readLine(std::chrono::milliseconds timeout);
    // Lines up to and including the first that `done` accepts; none on timeout or EOF, with
    // the lines read so far left in `partial` when given.
    [[nodiscard]] std::optional<std::vector<std::string>> readUntil(
        const std::function<bool(const std::string&)>& done, std::chrono::milliseconds timeout,
        std::vector<std::string>* partial = nullptr);

    // How the child ended, if it has (never waits).
    [[nodiscard]] std::optional<ExitStatus> exited();
    // How the child ended, waiting up to `timeout` (reading its output meanwhile, so that
    // a chatty child never blocks on a full pipe); none on timeout.
    [[nodiscard]] std::optional<ExitStatus> waitExit(std::chrono::milliseconds timeout);
    // Closes the child's stdin, gives it `grace` to exit, then kills its process group.
    ExitStatus stop(std::chrono::milliseconds grace);
    // Kills the process group at once and reaps the child.
    ExitStatus kill();

    // Everything the child wrote to stderr so far (Stderr::Capture; empty otherwise).
    [[nodiscard]] const std::string& stderrText();
    [[nodiscard]] pid_t pid() const { return pid_; }

  private:
    ChildProcess() = default;
    void release();
    [[nodiscard]] std::optional<ExitStatus> reap(bool wait);
    // Waits until `until` for stdout to bring something (data or EOF) or, with `forWrite`,
    // for stdin to take more, moving whatever stdout and stderr hold into the buffers.
    // True when stdout brought something or stdin can take more.
    bool pump(Clock::time_point until, bool forWrite);
    // Reads once from a readable pipe into `buffer`; closes the pipe at its end.
    static void readInto(int& fd, std::string& buffer);

    pid_t pid_ = -1;
    int in_ = -1;   // the child's stdin, our write end
    int out_ = -1;  // the child's stdout, our read end; -1 once it is closed
    int err_ = -1;  // the child's stderr with Stderr::Capture, our read end
    std::chrono::milliseconds writeTimeout_{5000};
    std::string outBuffer_;
    std::string errBuffer_;
    std::optional<ExitStatus> status_;
};

}  // namespace dejarik::process
