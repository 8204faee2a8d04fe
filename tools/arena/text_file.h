// Reading the arena's input files (deals, records, results) whole, and checking the files
// it writes before any game is played.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace dejarik::arena {

// No valid deal, record or results line comes near this; a longer one means the input is not
// such a file (/dev/zero, a binary), which must fail rather than fill the memory.
inline constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;

// The whole text of a file, of any size. None, with one error line naming the file, if it
// cannot be read ("cannot read PATH: is a directory", "cannot read PATH: No such file or
// directory") or holds a line over kMaxLineBytes ("PATH: line N longer than 1 MiB").
[[nodiscard]] std::optional<std::string> readTextFile(const std::string& path, std::string& error);

// Why `path` cannot be a file a run writes ("is a directory"; with `readBack`, the file a
// resumed run goes on from, also "not a regular file"), or none. Checked before the run:
// the stream libraries would report it only once under way, as an exception or a bare failure.
[[nodiscard]] std::optional<std::string> outputFileProblem(const std::string& path,
                                                           bool readBack = false);

}  // namespace dejarik::arena
