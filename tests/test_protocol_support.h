// Helpers for driving the real `dejarik` binary in tests. Every wait has a generous timeout
// (liveness, never latency): a hung engine fails the test instead of hanging it.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "child_process.h"

namespace dejarik::test {

using namespace std::chrono_literals;
inline constexpr auto kLiveness = std::chrono::milliseconds(90000);

inline bool startsWith(const std::string& s, std::string_view prefix) {
    return s.rfind(prefix, 0) == 0;
}

// The first line starting with `prefix`, or "" (which no expected line equals).
inline std::string lineStarting(const std::vector<std::string>& lines, std::string_view prefix) {
    for (const auto& l : lines)
        if (startsWith(l, prefix)) return l;
    return {};
}

inline bool isError(const std::string& line) {
    return startsWith(line, "info string error: ");
}

inline std::size_t countIf(const std::vector<std::string>& lines, std::string_view prefix) {
    return static_cast<std::size_t>(std::count_if(
        lines.begin(), lines.end(), [&](const std::string& l) { return startsWith(l, prefix); }));
}

// The token after "bestmove", or empty.
inline std::string bestmoveOf(const std::string& line) {
    return startsWith(line, "bestmove ") ? line.substr(9) : std::string();
}

// The value of a field in an info line ("depth" -> "6"), or empty.
inline std::string field(const std::string& line, const std::string& name) {
    const std::string key = " " + name + " ";
    const auto at = line.find(key);
    if (at == std::string::npos) return {};
    const auto start = at + key.size();
    return line.substr(start, line.find(' ', start) - start);
}

// The pv of an info line, as tokens.
inline std::vector<std::string> pvOf(const std::string& line) {
    std::vector<std::string> out;
    const auto at = line.find(" pv ");
    if (at == std::string::npos) return out;
    std::size_t i = at + 4;
    while (i < line.size()) {
        const auto sp = line.find(' ', i);
        out.push_back(line.substr(i, sp - i));
        if (sp == std::string::npos) break;
        i = sp + 1;
    }
    return out;
}

class Engine {
  public:
    explicit Engine(const std::vector<std::string>& args = {}) {
        process::ChildProcess::Spec spec;
        spec.argv = {DEJARIK_BINARY};
        spec.argv.insert(spec.argv.end(), args.begin(), args.end());
        spec.stderrTo = process::ChildProcess::Stderr::Capture;
        spec.writeTimeout = kLiveness;
        std::string error;
        process_ = process::ChildProcess::spawn(spec, error);
        REQUIRE_MESSAGE(process_, error);
    }

    // Ends the engine (end of input) and fails the test if a sanitizer reported anything.
    ~Engine() {
        process_->closeInput();
        (void)process_->waitExit(kLiveness);
        const std::string& err = process_->stderrText();
        CHECK_MESSAGE(err.find("Sanitizer") == std::string::npos, err);
        CHECK_MESSAGE(err.find("runtime error") == std::string::npos, err);
    }
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    process::ChildProcess& process() { return *process_; }

    void send(const std::string& line) { REQUIRE(process_->send(line)); }

    // Lines up to and including the first starting with `prefix`, which must come within
    // `timeout`.
    std::vector<std::string> until(std::string_view prefix,
                                   std::chrono::milliseconds timeout = kLiveness) {
        std::vector<std::string> partial;
        auto lines = process_->readUntil(
            [&](const std::string& l) { return startsWith(l, prefix); }, timeout, &partial);
        if (!lines) {
            std::string seen;
            for (const auto& l : partial)
                seen += l + "\n";
            FAIL("no line starting with '" << std::string(prefix) << "'; got:\n"
                                           << seen << "stderr:\n"
                                           << process_->stderrText());
        }
        return *lines;
    }

    // isready and everything printed before its readyok (readyok not included).
    std::vector<std::string> sync() {
        send("isready");
        auto lines = until("readyok");
        lines.pop_back();
        return lines;
    }

    // Sends a line that completes without a search and returns all it printed.
    std::vector<std::string> command(const std::string& line) {
        send(line);
        return sync();
    }

    // One `go`: every line up to and including its bestmove.
    std::vector<std::string> go(const std::string& line) {
        send(line);
        return until("bestmove");
    }

    // The exit status once the engine ends.
    int exitStatus() {
        const auto status = process_->waitExit(kLiveness);
        REQUIRE_MESSAGE(status, "the engine did not exit");
        return status->shellCode();
    }

  private:
    std::optional<process::ChildProcess> process_;
};

// The lines without a running search's progress (`info depth ...`), which may arrive at
// any time between a go and its bestmove.
inline std::vector<std::string> withoutProgress(std::vector<std::string> lines) {
    lines.erase(std::remove_if(lines.begin(), lines.end(),
                               [](const std::string& l) { return startsWith(l, "info depth"); }),
                lines.end());
    return lines;
}

// Checks that `lines` is exactly one error line.
inline void checkOneError(const std::vector<std::string>& lines, const std::string& context) {
    INFO("after: " << context);
    REQUIRE(lines.size() == 1);
    CHECK(isError(lines[0]));
}

}  // namespace dejarik::test
