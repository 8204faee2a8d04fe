#include "log_file.h"

#include <filesystem>
#include <system_error>

#include "command_line.h"

namespace dejarik::tools {

std::shared_ptr<spdlog::sinks::basic_file_sink_mt> openLogFile(std::string_view flag,
                                                               const std::string& path) {
    const auto fail = [&](const std::string& why) {
        return UsageError{std::string(flag) + ": cannot open '" + path + "': " + why};
    };
    const std::filesystem::path folder = std::filesystem::path(path).parent_path();
    std::error_code ec;
    if (!folder.empty() && !std::filesystem::is_directory(folder, ec))
        throw fail("no folder " + folder.string());
    try {
        return std::make_shared<spdlog::sinks::basic_file_sink_mt>(path);
    } catch (const spdlog::spdlog_ex& e) {
        throw fail(e.what());
    }
}

}  // namespace dejarik::tools
