// The `dejarik` command line: no subcommand runs the DEI protocol loop on stdin/stdout;
// `analyse`, `odds` and `bench` answer a person directly.
#pragma once

#include <cstdio>
#include <istream>

namespace dejarik::protocol {

// Exit codes: 0 success, 2 a bad command line or bad input named on it.
inline constexpr int kExitUsage = 2;

[[nodiscard]] int runCommandLine(int argc, const char* const* argv);

// Reads protocol lines until `quit` or the end of input; returns the exit code.
[[nodiscard]] int runProtocolLoop(std::istream& in, std::FILE* out);

}  // namespace dejarik::protocol
