#include "protocol/client.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

extern char** environ;

namespace dejarik::protocol {

namespace {

void closeFd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

int decodeStatus(int status) {
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return -1;
}

}  // namespace

std::unique_ptr<EngineProcess> EngineProcess::spawn(const std::string& path,
                                                    const std::vector<std::string>& args,
                                                    std::string* error) {
    int in[2], out[2], err[2];
    if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0 ||
        ::pipe2(err, O_CLOEXEC) != 0) {
        if (error) *error = std::string("pipe: ") + std::strerror(errno);
        return nullptr;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);

    std::vector<std::string> argvStrings = {path};
    argvStrings.insert(argvStrings.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& s : argvStrings)
        argv.push_back(s.data());
    argv.push_back(nullptr);

    std::unique_ptr<EngineProcess> p(new EngineProcess());
    const int rc = ::posix_spawn(&p->pid_, path.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(in[0]);
    ::close(out[1]);
    ::close(err[1]);
    p->inFd_ = in[1];
    p->outFd_ = out[0];
    p->errFd_ = err[0];
    if (rc != 0) {
        p->pid_ = -1;
        if (error) *error = "posix_spawn " + path + ": " + std::strerror(rc);
        return nullptr;
    }
    ::fcntl(p->outFd_, F_SETFL, O_NONBLOCK);
    ::fcntl(p->errFd_, F_SETFL, O_NONBLOCK);
    // A child that quit must not kill the test with SIGPIPE on the next send.
    ::signal(SIGPIPE, SIG_IGN);
    return p;
}

EngineProcess::~EngineProcess() {
    closeInput();
    if (pid_ > 0 && !status_) {
        if (!waitExit(std::chrono::milliseconds(5000))) {
            ::kill(pid_, SIGKILL);
            int status = 0;
            ::waitpid(pid_, &status, 0);
        }
    }
    closeFd(outFd_);
    closeFd(errFd_);
}

bool EngineProcess::send(std::string_view line) {
    std::string bytes(line);
    bytes += '\n';
    return sendRaw(bytes);
}

bool EngineProcess::sendRaw(std::string_view bytes) {
    if (inFd_ < 0) return false;
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(inFd_, bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        done += static_cast<std::size_t>(n);
    }
    return true;
}

void EngineProcess::closeInput() {
    closeFd(inFd_);
}

bool EngineProcess::pump(Clock::time_point deadline) {
    for (;;) {
        pollfd fds[2];
        nfds_t n = 0;
        if (outFd_ >= 0) fds[n++] = {outFd_, POLLIN, 0};
        if (errFd_ >= 0) fds[n++] = {errFd_, POLLIN, 0};
        if (n == 0) return false;
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        const int ms = static_cast<int>(std::max<std::int64_t>(0, left.count()));
        const int ready = ::poll(fds, n, ms);
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) return false;
        bool gotOutput = false;
        for (nfds_t i = 0; i < n; ++i) {
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            char buf[65536];
            const ssize_t r = ::read(fds[i].fd, buf, sizeof buf);
            const bool isOut = fds[i].fd == outFd_;
            if (r > 0) {
                (isOut ? outBuffer_ : errBuffer_).append(buf, static_cast<std::size_t>(r));
                gotOutput = gotOutput || isOut;
            } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
                closeFd(isOut ? outFd_ : errFd_);
                gotOutput = gotOutput || isOut;  // EOF is news for a reader of stdout
            }
        }
        if (gotOutput) return true;
    }
}

std::optional<std::string> EngineProcess::takeLine() {
    const auto nl = outBuffer_.find('\n');
    if (nl == std::string::npos) return std::nullopt;
    std::string line = outBuffer_.substr(0, nl);
    outBuffer_.erase(0, nl + 1);
    return line;
}

std::optional<std::string> EngineProcess::readLine(std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    for (;;) {
        if (auto line = takeLine()) return line;
        if (outFd_ < 0) return std::nullopt;
        if (!pump(deadline) && Clock::now() >= deadline) return std::nullopt;
    }
}

std::optional<std::vector<std::string>> EngineProcess::readUntil(
    const std::function<bool(const std::string&)>& done, std::chrono::milliseconds timeout,
    std::vector<std::string>* partial) {
    const auto deadline = Clock::now() + timeout;
    std::vector<std::string> lines;
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        auto line = readLine(std::max(left, std::chrono::milliseconds(0)));
        if (!line) {
            if (partial) *partial = std::move(lines);
            return std::nullopt;
        }
        lines.push_back(*line);
        if (done(lines.back())) return lines;
    }
}

std::vector<std::string> EngineProcess::drain(std::chrono::milliseconds quiet) {
    std::vector<std::string> lines;
    while (auto line = readLine(quiet))
        lines.push_back(std::move(*line));
    return lines;
}

std::optional<int> EngineProcess::waitExit(std::chrono::milliseconds timeout) {
    if (status_) return status_;
    if (pid_ <= 0) return std::nullopt;
    const auto deadline = Clock::now() + timeout;
    for (;;) {
        int status = 0;
        const pid_t r = ::waitpid(pid_, &status, WNOHANG);
        if (r == pid_) {
            status_ = decodeStatus(status);
            return status_;
        }
        if (r < 0 && errno != EINTR) return std::nullopt;
        if (Clock::now() >= deadline) return std::nullopt;
        // Keep the pipes drained so a chatty child never blocks on a full pipe.
        pump(std::min(deadline, Clock::now() + std::chrono::milliseconds(5)));
    }
}

const std::string& EngineProcess::stderrText() {
    // Everything already written, without waiting for more.
    while (errFd_ >= 0) {
        char buf[65536];
        const ssize_t r = ::read(errFd_, buf, sizeof buf);
        if (r > 0) {
            errBuffer_.append(buf, static_cast<std::size_t>(r));
        } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
            closeFd(errFd_);
        } else if (errno == EAGAIN) {
            break;
        }
    }
    return errBuffer_;
}

}  // namespace dejarik::protocol
