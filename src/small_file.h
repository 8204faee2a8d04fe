// Reading the small text files an option names (CreatureFile, EvalFile): the whole file,
// up to a bound, so that a device or a wrong path (/dev/zero, a binary) is refused at once
// instead of filling the memory.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace dejarik {

// The text of the file at `path`, or nothing with `why` set: "a directory", the system's
// reason it cannot be opened, "a read error", or "larger than N KiB" past `maxBytes`.
[[nodiscard]] std::optional<std::string> readSmallFile(const std::string& path,
                                                       std::size_t maxBytes, std::string& why);

}  // namespace dejarik
