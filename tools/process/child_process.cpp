#include "child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <utility>

extern char** environ;

namespace dejarik::process {

namespace {

// How often a blocked read looks at the interrupt flag.
constexpr auto kInterruptSlice = std::chrono::milliseconds(50);
// How often a wait for the child's end looks at the child.
constexpr auto kExitSlice = std::chrono::milliseconds(5);

void closeFd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

void closePipe(int (&fds)[2]) {
    closeFd(fds[0]);
    closeFd(fds[1]);
}

void setNonBlocking(int fd) {
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
}

ExitStatus decodeStatus(int status) {
    if (WIFEXITED(status)) return {WEXITSTATUS(status), 0};
    if (WIFSIGNALED(status)) return {-1, WTERMSIG(status)};
    return {};
}

int millisecondsUntil(Clock::time_point t) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(t - Clock::now()).count();
    return static_cast<int>(std::clamp<std::int64_t>(left, 0, INT_MAX));
}

// Holds SIGPIPE back from the calling thread while it lives, so that a write to a child
// that is gone fails with EPIPE instead of ending the whole process. A SIGPIPE the writes
// raised is taken away before the thread's mask is restored.
class SigpipeHold {
  public:
    SigpipeHold() {
        sigemptyset(&pipeOnly_);
        sigaddset(&pipeOnly_, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &pipeOnly_, &previous_);
        sigset_t pending;
        sigpending(&pending);
        wasPending_ = sigismember(&pending, SIGPIPE) == 1;
    }
    ~SigpipeHold() {
        if (raised_ && !wasPending_) {
            const timespec zero{0, 0};
            sigtimedwait(&pipeOnly_, nullptr, &zero);
        }
        pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
    }
    SigpipeHold(const SigpipeHold&) = delete;
    SigpipeHold& operator=(const SigpipeHold&) = delete;

    void raised() { raised_ = true; }

  private:
    sigset_t pipeOnly_;
    sigset_t previous_;
    bool wasPending_ = false;
    bool raised_ = false;
};

}  // namespace

std::string ExitStatus::describe() const {
    if (signal != 0) return "signal " + std::to_string(signal);
    if (code >= 0) return "exit " + std::to_string(code);
    return "lost";
}

int ExitStatus::shellCode() const {
    return signal != 0 ? 128 + signal : code;
}

std::optional<ChildProcess> ChildProcess::spawn(const Spec& spec, std::string& error) {
    if (spec.argv.empty() || spec.argv[0].empty()) {
        error = "empty command";
        return std::nullopt;
    }
    int toChild[2] = {-1, -1}, fromChild[2] = {-1, -1}, errors[2] = {-1, -1};
    const bool capture = spec.stderrTo == Stderr::Capture;
    if (::pipe2(toChild, O_CLOEXEC) != 0 || ::pipe2(fromChild, O_CLOEXEC) != 0 ||
        (capture && ::pipe2(errors, O_CLOEXEC) != 0)) {
        error = std::string("pipe: ") + std::strerror(errno);
        closePipe(toChild);
        closePipe(fromChild);
        closePipe(errors);
        return std::nullopt;
    }

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, toChild[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, fromChild[1], STDOUT_FILENO);
    switch (spec.stderrTo) {
        case Stderr::Discard:
            posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
            break;
        case Stderr::AppendToFile:
            posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, spec.stderrPath.c_str(),
                                             O_WRONLY | O_CREAT | O_APPEND, 0644);
            break;
        case Stderr::Capture:
            posix_spawn_file_actions_adddup2(&actions, errors[1], STDERR_FILENO);
            break;
    }
    if (!spec.workdir.empty()) posix_spawn_file_actions_addchdir_np(&actions, spec.workdir.c_str());

    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    for (const int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT})
        sigaddset(&defaults, sig);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(
        &attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

    std::vector<char*> argv;
    for (const auto& a : spec.argv)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);

    pid_t pid = -1;
    const int rc = ::posix_spawnp(&pid, argv[0], &actions, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    closeFd(toChild[0]);
    closeFd(fromChild[1]);
    closeFd(errors[1]);
    if (rc != 0) {
        error = "cannot start '" + spec.argv[0] + "': " + std::strerror(rc);
        closePipe(toChild);
        closePipe(fromChild);
        closePipe(errors);
        return std::nullopt;
    }

    ChildProcess child;
    child.pid_ = pid;
    child.in_ = toChild[1];
    child.out_ = fromChild[0];
    child.err_ = errors[0];
    child.writeTimeout_ = spec.writeTimeout;
    for (const int fd : {child.in_, child.out_, child.err_})
        if (fd >= 0) setNonBlocking(fd);
    return child;
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept {
    *this = std::move(other);
}

ChildProcess& ChildProcess::operator=(ChildProcess&& other) noexcept {
    if (this != &other) {
        release();
        pid_ = std::exchange(other.pid_, -1);
        in_ = std::exchange(other.in_, -1);
        out_ = std::exchange(other.out_, -1);
        err_ = std::exchange(other.err_, -1);
        writeTimeout_ = other.writeTimeout_;
        outBuffer_ = std::move(other.outBuffer_);
        errBuffer_ = std::move(other.errBuffer_);
        status_ = std::exchange(other.status_, std::nullopt);
    }
    return *this;
}

ChildProcess::~ChildProcess() {
    release();
}

void ChildProcess::release() {
    if (pid_ > 0 && !status_) kill();
    closeFd(in_);
    closeFd(out_);
    closeFd(err_);
    pid_ = -1;
}

bool ChildProcess::send(std::string_view line) {
    std::string bytes(line);
    bytes += '\n';
    return sendRaw(bytes);
}

bool ChildProcess::sendRaw(std::string_view bytes) {
    if (in_ < 0) return false;
    SigpipeHold hold;
    const auto deadline = Clock::now() + writeTimeout_;
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(in_, bytes.data() + done, bytes.size() - done);
        if (n > 0) {
            done += static_cast<std::size_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && Clock::now() < deadline) {
            // The child is not reading now: keep reading its output meanwhile, so that a
            // child blocked on a full stdout can get back to its input.
            pump(deadline, true);
            continue;
        }
        if (n < 0 && errno == EPIPE) hold.raised();
        return false;
    }
    return true;
}

void ChildProcess::closeInput() {
    closeFd(in_);
}

void ChildProcess::readInto(int& fd, std::string& buffer) {
    char chunk[65536];
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n > 0) {
        buffer.append(chunk, static_cast<std::size_t>(n));
    } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        closeFd(fd);
    }
}

bool ChildProcess::pump(Clock::time_point until, bool forWrite) {
    enum Slot { Out, Err, In };
    pollfd fds[3];
    Slot slots[3];
    nfds_t n = 0;
    const auto watch = [&](int fd, short events, Slot slot) {
        if (fd < 0) return;
        fds[n] = {fd, events, 0};
        slots[n++] = slot;
    };
    watch(out_, POLLIN, Out);
    watch(err_, POLLIN, Err);
    if (forWrite) watch(in_, POLLOUT, In);
    // With nothing to watch this only sleeps, which is what a wait for the exit wants.
    if (::poll(fds, n, millisecondsUntil(until)) <= 0) return false;
    bool news = false;
    for (nfds_t i = 0; i < n; ++i) {
        if (fds[i].revents == 0) continue;
        switch (slots[i]) {
            case Out:
                readInto(out_, outBuffer_);
                news = true;
                break;
            case Err:
                readInto(err_, errBuffer_);
                break;
            case In:
                news = true;
                break;
        }
    }
    return news;
}

ChildProcess::ReadStatus ChildProcess::readLine(std::string& line, Clock::time_point deadline,
                                                const std::atomic<bool>* interrupt) {
    for (;;) {
        if (const auto nl = outBuffer_.find('\n'); nl != std::string::npos) {
            line.assign(outBuffer_, 0, nl);
            outBuffer_.erase(0, nl + 1);
            return ReadStatus::Line;
        }
        if (out_ < 0) {
            if (outBuffer_.empty()) return ReadStatus::Closed;
            line = std::move(outBuffer_);
            outBuffer_.clear();
            return ReadStatus::Line;
        }
        if (interrupt && interrupt->load()) return ReadStatus::Interrupted;
        const auto now = Clock::now();
        if (now >= deadline) return ReadStatus::Timeout;
        pump(interrupt ? std::min(deadline, now + kInterruptSlice) : deadline, false);
    }
}

std::optional<std::string> ChildProcess::readLine(std::chrono::milliseconds timeout) {
    std::string line;
    if (readLine(line, Clock::now() + timeout) != ReadStatus::Line) return std::nullopt;
    return line;
}

std::optional<std::vector<std::string>> ChildProcess::readUntil(
    const std::function<bool(const std::string&)>& done, std::chrono::milliseconds timeout,
    std::vector<std::string>* partial) {
    const auto deadline = Clock::now() + timeout;
    std::vector<std::string> lines;
    std::string line;
    while (readLine(line, deadline) == ReadStatus::Line) {
        lines.push_back(std::move(line));
        if (done(lines.back())) return lines;
    }
    if (partial) *partial = std::move(lines);
    return std::nullopt;
}

std::optional<ExitStatus> ChildProcess::reap(bool wait) {
    if (status_) return status_;
    if (pid_ <= 0) return std::nullopt;
    int status = 0;
    pid_t r;
    do {
        r = ::waitpid(pid_, &status, wait ? 0 : WNOHANG);
    } while (r < 0 && errno == EINTR);
    if (r == pid_) {
        status_ = decodeStatus(status);
    } else if (r < 0) {
        status_ = ExitStatus{};  // reaped elsewhere
    }
    return status_;
}

std::optional<ExitStatus> ChildProcess::exited() {
    return reap(false);
}

std::optional<ExitStatus> ChildProcess::waitExit(std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    for (;;) {
        if (auto s = reap(false)) return s;
        const auto now = Clock::now();
        if (now >= deadline) return std::nullopt;
        pump(std::min(deadline, now + kExitSlice), false);
    }
}

ExitStatus ChildProcess::stop(std::chrono::milliseconds grace) {
    closeInput();
    if (auto s = waitExit(grace)) return *s;
    return kill();
}

ExitStatus ChildProcess::kill() {
    if (auto s = reap(false)) return *s;
    if (pid_ > 0) {
        ::kill(-pid_, SIGKILL);
        ::kill(pid_, SIGKILL);  // in case it left its process group
    }
    return reap(true).value_or(ExitStatus{});
}

const std::string& ChildProcess::stderrText() {
    // Everything already written, without waiting for more.
    while (err_ >= 0) {
        const std::size_t before = errBuffer_.size();
        readInto(err_, errBuffer_);
        if (err_ >= 0 && errBuffer_.size() == before) break;
    }
    return errBuffer_;
}

}  // namespace dejarik::process
