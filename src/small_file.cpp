#include "small_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace dejarik {

std::optional<std::string> readSmallFile(const std::string& path, std::size_t maxBytes,
                                         std::string& why) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        why = "a directory";
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        why = std::strerror(errno);
        return std::nullopt;
    }
    // One byte more than allowed tells a file that is too large without reading all of it.
    std::string text(maxBytes + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    if (in.bad()) {
        why = "a read error";
        return std::nullopt;
    }
    text.resize(static_cast<std::size_t>(in.gcount()));
    if (text.size() > maxBytes) {
        why = "larger than " + std::to_string(maxBytes / 1024) + " KiB";
        return std::nullopt;
    }
    return text;
}

}  // namespace dejarik
