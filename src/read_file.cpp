#include "read_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace dejarik {

namespace {

// Closes the descriptor on every way out of readFile.
class FileDescriptor {
  public:
    explicit FileDescriptor(int fd) : fd_(fd) {}
    ~FileDescriptor() {
        if (fd_ >= 0) ::close(fd_);
    }
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    [[nodiscard]] int get() const { return fd_; }

  private:
    int fd_;
};

}  // namespace

std::optional<std::string> readFile(const std::string& path, const ReadLimits& limits,
                                    ReadError& error) {
    const auto fail = [&](ReadError::Kind kind, std::string what) -> std::optional<std::string> {
        error = {kind, std::move(what)};
        return std::nullopt;
    };
    // Opened without blocking: opening a FIFO otherwise waits for a writer, for ever when
    // none comes (a path a GUI, a table header or a typo names). Its reads block again
    // below; one that no writer holds open reads as empty.
    const FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (fd.get() < 0) return fail(ReadError::Kind::Unreadable, std::strerror(errno));
    if (const int flags = ::fcntl(fd.get(), F_GETFL);
        flags < 0 || ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK) != 0)
        return fail(ReadError::Kind::Unreadable, std::strerror(errno));
    // A directory opens and then reads as nothing, which would pass for an empty file.
    struct stat info {};
    if (::fstat(fd.get(), &info) != 0)
        return fail(ReadError::Kind::Unreadable, std::strerror(errno));
    if (S_ISDIR(info.st_mode)) return fail(ReadError::Kind::Unreadable, "is a directory");
    std::string text;
    std::size_t lineStart = 0, lineNumber = 1;
    const auto tooLong = [&] {
        return fail(ReadError::Kind::LineTooLong,
                    "line " + std::to_string(lineNumber) + " longer than " +
                        std::to_string(limits.maxLineBytes >> 20) + " MiB");
    };
    char buffer[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return fail(ReadError::Kind::Unreadable, std::strerror(errno));
        if (n == 0) break;
        const std::size_t from = text.size();
        text.append(buffer, static_cast<std::size_t>(n));
        // Checked after every read, so an endless file or line stops one read past its limit.
        if (text.size() > limits.maxBytes)
            return fail(ReadError::Kind::TooLarge,
                        "larger than " + std::to_string(limits.maxBytes / 1024) + " KiB");
        for (auto i = text.find('\n', from); i != std::string::npos; i = text.find('\n', i + 1)) {
            if (i - lineStart > limits.maxLineBytes) return tooLong();
            lineStart = i + 1;
            ++lineNumber;
        }
        if (text.size() - lineStart > limits.maxLineBytes) return tooLong();
    }
    return text;
}

}  // namespace dejarik
