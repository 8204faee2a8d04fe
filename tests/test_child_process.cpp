// The child-process library (tools/process/) against small shell scripts: lines both ways,
// deadlines, exits and signals, stderr, and the two ways a child can block its parent (a
// full pipe, a dead reader). Waits are for liveness only; no assertion depends on timing.
#include <doctest/doctest.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "child_process.h"

using namespace dejarik::process;
using namespace std::chrono_literals;

namespace {

constexpr auto kLiveness = 30000ms;

ChildProcess shell(const std::string& script,
                   ChildProcess::Stderr stderrTo = ChildProcess::Stderr::Discard,
                   const std::string& stderrPath = {}) {
    std::string error;
    auto child = ChildProcess::spawn(
        {.argv = {"sh", "-c", script}, .stderrTo = stderrTo, .stderrPath = stderrPath}, error);
    REQUIRE_MESSAGE(child, error);
    return std::move(*child);
}

// Whether a process has ended: gone, or a zombie that its parent has not reaped yet.
bool ended(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    if (!std::getline(stat, text)) return true;
    const auto name = text.rfind(')');  // the state follows the command name
    return name != std::string::npos && name + 2 < text.size() && text[name + 2] == 'Z';
}

std::string fileText(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

TEST_SUITE("child-process") {
    TEST_CASE("lines both ways; a last line without a newline; bytes kept as written") {
        ChildProcess c = shell(R"(while read -r l; do echo "got $l"; done; printf 'tail\r')");
        REQUIRE(c.send("a"));
        CHECK(c.readLine(kLiveness) == std::optional<std::string>("got a"));
        REQUIRE(c.sendRaw("b\nc"));
        CHECK(c.readLine(kLiveness) == std::optional<std::string>("got b"));
        c.closeInput();
        // `read` gives the unterminated "c" with a false status: the loop ends without it.
        CHECK(c.readLine(kLiveness) == std::optional<std::string>("tail\r"));
        std::string line;
        CHECK(c.readLine(line, Clock::now() + kLiveness) == ChildProcess::ReadStatus::Closed);
        const auto status = c.waitExit(kLiveness);
        REQUIRE(status);
        CHECK(status->describe() == "exit 0");
        CHECK_FALSE(c.send("after the end of input"));
    }

    TEST_CASE("readUntil returns the lines up to the one accepted, or what came") {
        ChildProcess c = shell("echo one; echo two; echo three");
        const auto lines = c.readUntil([](const std::string& l) { return l == "two"; }, kLiveness);
        REQUIRE(lines);
        CHECK(*lines == std::vector<std::string>{"one", "two"});
        std::vector<std::string> partial;
        CHECK_FALSE(
            c.readUntil([](const std::string& l) { return l == "four"; }, kLiveness, &partial));
        CHECK(partial == std::vector<std::string>{"three"});
    }

    TEST_CASE("a read ends at its deadline or on the interrupt flag") {
        ChildProcess c = shell("read -r x; echo late");
        std::string line;
        CHECK(c.readLine(line, Clock::now() + 50ms) == ChildProcess::ReadStatus::Timeout);
        std::atomic<bool> interrupt{true};
        CHECK(c.readLine(line, Clock::now() + kLiveness, &interrupt) ==
              ChildProcess::ReadStatus::Interrupted);
        REQUIRE(c.send("go on"));
        CHECK(c.readLine(kLiveness) == std::optional<std::string>("late"));
    }

    TEST_CASE("exit codes and signals") {
        ChildProcess exits = shell("exit 3");
        auto status = exits.waitExit(kLiveness);
        REQUIRE(status);
        CHECK(status->code == 3);
        CHECK(status->describe() == "exit 3");
        CHECK(status->shellCode() == 3);

        ChildProcess killed = shell("kill -9 $$");
        status = killed.waitExit(kLiveness);
        REQUIRE(status);
        CHECK(status->signal == SIGKILL);
        CHECK(status->describe() == "signal 9");
        CHECK(status->shellCode() == 137);
        CHECK(killed.exited() == status);
    }

    TEST_CASE("a write to a child that is gone fails, and SIGPIPE stays as it was") {
        ChildProcess c = shell("exit 0");
        REQUIRE(c.waitExit(kLiveness));
        // Larger than a pipe holds, so the write cannot vanish into the buffer.
        CHECK_FALSE(c.sendRaw(std::string(1 << 20, 'x')));
        struct sigaction now {};
        REQUIRE(sigaction(SIGPIPE, nullptr, &now) == 0);
        CHECK((now.sa_handler == SIG_DFL));
        sigset_t pending;
        sigpending(&pending);
        CHECK(sigismember(&pending, SIGPIPE) == 0);
    }

    TEST_CASE("a child that fills its stdout before it reads does not block a large write") {
        // The child writes 300 kB before it reads anything; a writer that waited for the
        // child's input without reading its output would wait forever.
        ChildProcess c = shell("head -c 300000 /dev/zero | tr '\\0' o; echo; wc -c");
        REQUIRE(c.sendRaw(std::string(300000, 'i')));
        c.closeInput();
        const auto first = c.readLine(kLiveness);
        REQUIRE(first);
        CHECK(*first == std::string(300000, 'o'));
        const auto count = c.readLine(kLiveness);
        REQUIRE(count);
        CHECK(std::stoi(*count) == 300000);
    }

    TEST_CASE("stderr is captured, appended to a file, or discarded") {
        const std::string script = "echo out; echo oops >&2";
        ChildProcess captured = shell(script, ChildProcess::Stderr::Capture);
        CHECK(captured.readLine(kLiveness) == std::optional<std::string>("out"));
        REQUIRE(captured.waitExit(kLiveness));
        CHECK(captured.stderrText() == "oops\n");

        const auto path = std::filesystem::temp_directory_path() /
                          ("dejarik-child-stderr-" + std::to_string(::getpid()));
        std::ofstream(path) << "before\n";
        ChildProcess appended = shell(script, ChildProcess::Stderr::AppendToFile, path.string());
        REQUIRE(appended.waitExit(kLiveness));
        CHECK(appended.stderrText().empty());
        CHECK(fileText(path) == "before\noops\n");
        std::filesystem::remove(path);

        ChildProcess discarded = shell(script);
        CHECK(discarded.readLine(kLiveness) == std::optional<std::string>("out"));
        REQUIRE(discarded.waitExit(kLiveness));
        CHECK(discarded.stderrText().empty());
    }

    TEST_CASE("stop: an exit within the grace, else the whole process group is killed") {
        ChildProcess polite = shell("cat > /dev/null; exit 5");
        CHECK(polite.stop(kLiveness).describe() == "exit 5");

        // Deaf to the end of its input, with a grandchild in its process group.
        ChildProcess deaf = shell("sleep 1000 & echo $!; wait");
        const auto grandchild = deaf.readLine(kLiveness);
        REQUIRE(grandchild);
        const pid_t sleeper = std::stoi(*grandchild);
        CHECK(deaf.stop(50ms).describe() == "signal 9");
        // The grandchild went with it.
        const auto deadline = Clock::now() + kLiveness;
        while (!ended(sleeper) && Clock::now() < deadline)
            std::this_thread::sleep_for(10ms);
        CHECK(ended(sleeper));
    }

    TEST_CASE("the command is looked up in PATH and runs in its working directory") {
        std::string error;
        auto c = ChildProcess::spawn({.argv = {"pwd"}, .workdir = "/"}, error);
        REQUIRE_MESSAGE(c, error);
        CHECK(c->readLine(kLiveness) == std::optional<std::string>("/"));
        CHECK(c->pid() > 0);

        CHECK_FALSE(ChildProcess::spawn({.argv = {"/nonexistent/engine"}}, error));
        CHECK(error.find("cannot start '/nonexistent/engine'") == 0);
        CHECK_FALSE(ChildProcess::spawn({}, error));
        CHECK(error == "empty command");
    }
}
