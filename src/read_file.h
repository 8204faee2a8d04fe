// Reading a file whole, within limits, for every reader of the project's input files: the
// small files an option names (CreatureFile, EvalFile: bounded in size) and the arena's
// deals, records and results (any size, bounded per line). A device or a wrong path
// (/dev/zero, a binary, a directory) is refused at once instead of filling the memory or
// passing for an empty file; a FIFO no writer holds open reads as empty, never waits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

namespace dejarik {

struct ReadLimits {
    std::size_t maxBytes = std::numeric_limits<std::size_t>::max();
    std::size_t maxLineBytes = std::numeric_limits<std::size_t>::max();
};

struct ReadError {
    enum class Kind : std::uint8_t { Unreadable, TooLarge, LineTooLong };
    Kind kind = Kind::Unreadable;
    // "is a directory" or the system's reason; "larger than N KiB"; "line N longer than
    // M MiB".
    std::string what;
};

// The text of the file at `path`, or nothing with `error` set.
[[nodiscard]] std::optional<std::string> readFile(const std::string& path, const ReadLimits& limits,
                                                  ReadError& error);

}  // namespace dejarik
