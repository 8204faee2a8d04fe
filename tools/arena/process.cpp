#include "process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>
#include <utility>

extern char** environ;

namespace dejarik::arena {

namespace {

// How often a blocked read looks at the interrupt flag.
constexpr auto kPollSlice = std::chrono::milliseconds(50);
// A child that does not take a protocol line within this time is as good as dead.
constexpr auto kWriteTimeout = std::chrono::seconds(5);

std::string describeStatus(int status) {
    if (WIFEXITED(status)) return "exit " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) return "signal " + std::to_string(WTERMSIG(status));
    return "status " + std::to_string(status);
}

void closeFd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

// Writes all of `data` to a non-blocking pipe, with SIGPIPE held back for this thread so
// that a child that died turns into an EPIPE error instead of killing the arena.
bool writeAll(int fd, std::string_view data) {
    sigset_t pipeOnly, previous;
    sigemptyset(&pipeOnly);
    sigaddset(&pipeOnly, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipeOnly, &previous);
    sigset_t pendingBefore;
    sigpending(&pendingBefore);
    const bool wasPending = sigismember(&pendingBefore, SIGPIPE) == 1;

    bool ok = true;
    bool brokenPipe = false;
    const auto deadline = Clock::now() + kWriteTimeout;
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n > 0) {
            done += static_cast<std::size_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
            if (left.count() <= 0) {
                ok = false;
                break;
            }
            pollfd p{fd, POLLOUT, 0};
            ::poll(&p, 1, static_cast<int>(std::min<std::int64_t>(left.count(), 100)));
            continue;
        }
        brokenPipe = n < 0 && errno == EPIPE;
        ok = false;
        break;
    }

    if (brokenPipe && !wasPending) {
        const timespec zero{0, 0};
        sigtimedwait(&pipeOnly, nullptr, &zero);
    }
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    return ok;
}

}  // namespace

std::optional<ChildProcess> ChildProcess::spawn(const Spec& spec, std::string& error) {
    if (spec.argv.empty() || spec.argv[0].empty()) {
        error = "empty engine command";
        return std::nullopt;
    }
    int toChild[2], fromChild[2];
    if (::pipe2(toChild, O_CLOEXEC) != 0) {
        error = std::string("pipe: ") + std::strerror(errno);
        return std::nullopt;
    }
    if (::pipe2(fromChild, O_CLOEXEC) != 0) {
        error = std::string("pipe: ") + std::strerror(errno);
        ::close(toChild[0]);
        ::close(toChild[1]);
        return std::nullopt;
    }

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, toChild[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, fromChild[1], STDOUT_FILENO);
    if (spec.stderrPath.empty()) {
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    } else {
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, spec.stderrPath.c_str(),
                                         O_WRONLY | O_CREAT | O_APPEND, 0644);
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
    ::close(toChild[0]);
    ::close(fromChild[1]);
    if (rc != 0) {
        error = "cannot start '" + spec.argv[0] + "': " + std::strerror(rc);
        ::close(toChild[1]);
        ::close(fromChild[0]);
        return std::nullopt;
    }
    ::fcntl(toChild[1], F_SETFL, ::fcntl(toChild[1], F_GETFL) | O_NONBLOCK);

    ChildProcess child;
    child.pid_ = pid;
    child.in_ = toChild[1];
    child.out_ = fromChild[0];
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
        buffer_ = std::move(other.buffer_);
        eof_ = other.eof_;
        status_ = std::move(other.status_);
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
    pid_ = -1;
}

bool ChildProcess::writeLine(std::string_view line) {
    if (in_ < 0) return false;
    std::string data(line);
    data += '\n';
    return writeAll(in_, data);
}

ChildProcess::ReadStatus ChildProcess::readLine(std::string& line, Clock::time_point deadline,
                                                const std::atomic<bool>* interrupt) {
    while (true) {
        const auto nl = buffer_.find('\n');
        if (nl != std::string::npos) {
            line = buffer_.substr(0, nl);
            buffer_.erase(0, nl + 1);
            if (!line.empty() && line.back() == '\r') line.pop_back();
            return ReadStatus::Line;
        }
        if (eof_) {
            if (!buffer_.empty()) {
                line = std::move(buffer_);
                buffer_.clear();
                return ReadStatus::Line;
            }
            return ReadStatus::Closed;
        }
        if (interrupt && interrupt->load()) return ReadStatus::Interrupted;
        const auto now = Clock::now();
        if (now >= deadline) return ReadStatus::Timeout;
        const auto wait = std::min<Clock::duration>(deadline - now, kPollSlice);
        pollfd p{out_, POLLIN, 0};
        const int ready = ::poll(
            &p, 1, static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(wait).count()));
        if (ready < 0 && errno != EINTR) {
            eof_ = true;
            continue;
        }
        if (ready <= 0) continue;
        char chunk[4096];
        const ssize_t n = ::read(out_, chunk, sizeof chunk);
        if (n > 0) {
            buffer_.append(chunk, static_cast<std::size_t>(n));
        } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
            eof_ = true;
        }
    }
}

std::optional<std::string> ChildProcess::reap(bool wait) {
    if (status_) return status_;
    if (pid_ <= 0) return std::nullopt;
    int status = 0;
    pid_t r;
    do {
        r = ::waitpid(pid_, &status, wait ? 0 : WNOHANG);
    } while (r < 0 && errno == EINTR);
    if (r == pid_) {
        status_ = describeStatus(status);
    } else if (r < 0) {
        status_ = "lost";  // reaped elsewhere; nothing more can be learnt
    }
    return status_;
}

std::optional<std::string> ChildProcess::exited() {
    return reap(false);
}

std::string ChildProcess::stop(std::chrono::milliseconds grace) {
    closeFd(in_);
    const auto deadline = Clock::now() + grace;
    while (Clock::now() < deadline) {
        if (auto s = reap(false)) return *s;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return kill();
}

std::string ChildProcess::kill() {
    if (auto s = reap(false)) return *s;
    if (pid_ > 0) {
        ::kill(-pid_, SIGKILL);
        ::kill(pid_, SIGKILL);  // in case it left its process group
    }
    return reap(true).value_or("killed");
}

}  // namespace dejarik::arena
