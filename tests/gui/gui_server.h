// The GUI server as the GUI's tests start it: dejarik-gui on a free port, its URL read from
// the line it prints, ended by the test (SIGTERM: every game's engine quits).
#pragma once

#include <signal.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "child_process.h"

namespace dejarik::testing {

class GuiServer {
  public:
    // None, with `error` set, when the server does not come up within five seconds.
    static std::optional<GuiServer> start(const std::string& binary,
                                          const std::vector<std::string>& args,
                                          std::string& error) {
        process::ChildProcess::Spec spec;
        spec.argv = {binary, "--port", "0"};
        spec.argv.insert(spec.argv.end(), args.begin(), args.end());
        spec.stderrTo = process::ChildProcess::Stderr::Capture;
        auto child = process::ChildProcess::spawn(spec, error);
        if (!child) return std::nullopt;
        const auto line = child->readLine(std::chrono::seconds(5));
        const std::string marker = "http://";
        const auto at = line ? line->find(marker) : std::string::npos;
        if (at == std::string::npos) {
            error = "dejarik-gui did not start: " + line.value_or("") + child->stderrText();
            return std::nullopt;
        }
        std::string hostPort = line->substr(at + marker.size());
        hostPort = hostPort.substr(0, hostPort.find('/'));
        return GuiServer(std::move(*child), hostPort);
    }

    [[nodiscard]] std::string httpUrl() const { return "http://" + hostPort_ + "/"; }
    [[nodiscard]] std::string wsUrl() const { return "ws://" + hostPort_ + "/ws"; }
    [[nodiscard]] pid_t pid() const { return child_.pid(); }
    // SIGTERM, and the exit status (none if it did not end within the wait).
    std::optional<process::ExitStatus> terminate(std::chrono::milliseconds wait) {
        ::kill(child_.pid(), SIGTERM);
        return child_.waitExit(wait);
    }
    [[nodiscard]] const std::string& stderrText() { return child_.stderrText(); }

  private:
    GuiServer(process::ChildProcess child, std::string hostPort)
        : child_(std::move(child)), hostPort_(std::move(hostPort)) {}

    process::ChildProcess child_;
    std::string hostPort_;
};

}  // namespace dejarik::testing
