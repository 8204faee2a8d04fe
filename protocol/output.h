// The engine's single writer of protocol lines, each masked by text::printable().
//
// The input thread and the job threads (the search's callbacks, `go perft`, `bench`) all
// answer the GUI; every line goes through one mutex so lines never interleave, and each is
// flushed at once because a GUI waits for it. Blocks of lines (a `d` picture, the final info
// plus bestmove) are written under one lock so nothing from another thread lands between
// them.
#pragma once

#include <cstdio>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace dejarik::protocol {

class Output {
  public:
    explicit Output(std::FILE* stream) : stream_(stream) {}
    Output(const Output&) = delete;
    Output& operator=(const Output&) = delete;

    void line(std::string_view text);
    void lines(const std::vector<std::string>& texts);
    // errorLine(message).
    void error(std::string_view message);

    // Runs `write` with the lock held; `write` calls emit() for each line. For writers that
    // must also update state atomically with what they print (the end of a job).
    template <typename F>
    void locked(F&& write) {
        const std::lock_guard lock(mutex_);
        write();
    }
    // Only inside locked().
    void emit(std::string_view text);

  private:
    std::mutex mutex_;
    std::FILE* stream_;
};

// `info string error: <message>`, masked by text::printable().
[[nodiscard]] std::string errorLine(std::string_view message);

}  // namespace dejarik::protocol
