// The command-line parsing the tools share (Boost.Program_options), so that every tool
// answers alike: --help prints the options on stdout, a bad flag or a stray word gets one
// "<tool>: error: ..." line on stderr and exit code 2.
#pragma once

#include <boost/program_options.hpp>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dejarik::tools {

inline constexpr int kExitUsage = 2;

// Prints "<program>: error: <message>" on stderr; returns kExitUsage.
int usageError(std::string_view program, std::string_view message);

// Throws a boost::program_options::error when an option of an unsigned type was given a
// negative number: Program_options reads "-1" into an unsigned as its wrapped value (2^64 - 1
// pairs, a seed no one asked for).
void refuseNegativeUnsigned(const boost::program_options::parsed_options& parsed);

// A bad command line, for tools with subcommands: thrown wherever a flag turns out wrong and
// reported in one place, as usageError does.
struct UsageError {
    std::string message;
};

// Parses `args` against `options` and stores them in a new map: the words must all be options
// (a stray word is an error) and refuseNegativeUnsigned holds. Throws a UsageError with
// Program_options' message on a bad line.
[[nodiscard]] boost::program_options::variables_map parseOptions(
    const std::vector<std::string>& args,
    const boost::program_options::options_description& options);

struct CommandLine {
    std::string_view program;  // the tool's name, for the error line
    // What the tool takes, and what --help shows (an option "help" asks for it).
    const boost::program_options::options_description& options;
    // Also taken but not shown: measurement switches and the like.
    const boost::program_options::options_description* hidden = nullptr;
    // The words that are not options; none given, a stray word is an error.
    const boost::program_options::positional_options_description* positional = nullptr;
    // Sees the parsed options, in command-line order, before they are stored.
    std::function<void(const boost::program_options::parsed_options&)> inspect = {};
};

// Parses `args` (the words after the program's name, or after its subcommand) into `vm`.
// Nothing when the tool goes on; else its exit code: kExitUsage after a usage error, 0 after
// --help.
[[nodiscard]] std::optional<int> parseCommandLine(const CommandLine& line,
                                                  const std::vector<std::string>& args,
                                                  boost::program_options::variables_map& vm);
// The same for main's arguments.
[[nodiscard]] std::optional<int> parseCommandLine(const CommandLine& line, int argc, char** argv,
                                                  boost::program_options::variables_map& vm);

}  // namespace dejarik::tools
