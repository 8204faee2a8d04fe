#include "text_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace dejarik::arena {

namespace {

// Closes the descriptor on every way out of readTextFile.
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

std::optional<std::string> readTextFile(const std::string& path, std::string& error) {
    auto fail = [&](const std::string& message) -> std::optional<std::string> {
        error = message;
        return std::nullopt;
    };
    const FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0) return fail("cannot read " + path + ": " + std::strerror(errno));
    // A directory opens and then reads as nothing, which would pass for an empty file.
    struct stat info {};
    if (::fstat(fd.get(), &info) != 0)
        return fail("cannot read " + path + ": " + std::strerror(errno));
    if (S_ISDIR(info.st_mode)) return fail("cannot read " + path + ": is a directory");
    std::string text;
    std::size_t lineStart = 0, lineNumber = 1;
    auto tooLong = [&] {
        return fail(path + ": line " + std::to_string(lineNumber) + " longer than " +
                    std::to_string(kMaxLineBytes >> 20) + " MiB");
    };
    char buffer[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return fail("cannot read " + path + ": " + std::strerror(errno));
        if (n == 0) break;
        const std::size_t from = text.size();
        text.append(buffer, static_cast<std::size_t>(n));
        for (auto i = text.find('\n', from); i != std::string::npos; i = text.find('\n', i + 1)) {
            if (i - lineStart > kMaxLineBytes) return tooLong();
            lineStart = i + 1;
            ++lineNumber;
        }
        // Checked after every read, so an endless line stops one read past the limit.
        if (text.size() - lineStart > kMaxLineBytes) return tooLong();
    }
    return text;
}

std::optional<std::string> outputFileProblem(const std::string& path, bool readBack) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) return std::nullopt;  // created when written
    if (S_ISDIR(info.st_mode)) return "is a directory";
    if (readBack && !S_ISREG(info.st_mode)) return "not a regular file";
    return std::nullopt;
}

}  // namespace dejarik::arena
