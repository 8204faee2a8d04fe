#include "text_file.h"

#include <sys/stat.h>

#include "read_file.h"

namespace dejarik::arena {

std::optional<std::string> readTextFile(const std::string& path, std::string& error) {
    ReadError why;
    auto text = readFile(path, {.maxLineBytes = kMaxLineBytes}, why);
    if (!text)
        error = why.kind == ReadError::Kind::LineTooLong ? path + ": " + why.what
                                                         : "cannot read " + path + ": " + why.what;
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
