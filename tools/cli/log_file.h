// The log file a program's --log-file (the arena's --log) names, for every program that
// takes one.
#pragma once

#include <spdlog/sinks/basic_file_sink.h>

#include <memory>
#include <string>
#include <string_view>

namespace dejarik::tools {

// spdlog's file sink, appending, but only in a folder that exists: spdlog makes every
// missing folder on the path, so a mistyped one became a tree of folders. Throws a
// UsageError "FLAG: cannot open 'PATH': reason" when the file cannot be opened.
[[nodiscard]] std::shared_ptr<spdlog::sinks::basic_file_sink_mt> openLogFile(
    std::string_view flag, const std::string& path);

}  // namespace dejarik::tools
