// Reading the arena's input files (deals, records, results) whole.
#pragma once

#include <optional>
#include <string>

namespace dejarik::arena {

// The whole text of a file; none, with error "cannot open 'PATH'", if it cannot be read.
[[nodiscard]] std::optional<std::string> readTextFile(const std::string& path, std::string& error);

}  // namespace dejarik::arena
