// dejarik-gui: a browser board to play and analyse against the engine over DEI
// (docs/gui.md). Serves its embedded page and speaks JSON over a WebSocket.
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>
#include <boost/asio/ip/address.hpp>

#include <filesystem>
#include <iostream>

#include "command_line.h"
#include "log_file.h"
#include "server.h"

namespace po = boost::program_options;
using namespace dejarik;

namespace {

// The engine beside this binary, as the build puts it.
std::string engineBeside(const char* argv0) {
    std::error_code ec;
    auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) self = std::filesystem::path(argv0);
    return (self.parent_path() / "dejarik").string();
}

}  // namespace

int main(int argc, char** argv) {
    po::options_description desc(
        "Usage: dejarik-gui [options]\n"
        "Serves a browser board on http://HOST:PORT/ to play and analyse against the engine.\n"
        "Options");
    desc.add_options()("help,h", "show this help")(
        "port", po::value<unsigned>()->default_value(8080), "port to listen on (0: any free one)")(
        "host", po::value<std::string>()->default_value("127.0.0.1"), "address to listen on")(
        "engine", po::value<std::string>(), "the DEI engine (default: dejarik beside this binary)")(
        "max-games", po::value<int>()->default_value(8), "games (engine processes) at once")(
        "stall-timeout", po::value<int>()->default_value(60000),
        "ms the engine may take for a decision under a depth limit")(
        "log-file", po::value<std::string>(), "write a debug log here")(
        "verbose,v", "log the games' starts and ends on stderr");
    po::variables_map vm;
    if (const auto exit = tools::parseCommandLine({"dejarik-gui", desc}, argc, argv, vm))
        return *exit;

    const unsigned port = vm["port"].as<unsigned>();
    if (port > 65535) return tools::usageError("dejarik-gui", "--port: expected 0 to 65535");
    const int maxGames = vm["max-games"].as<int>();
    if (maxGames < 1 || maxGames > 256)
        return tools::usageError("dejarik-gui", "--max-games: expected 1 to 256");
    const int stall = vm["stall-timeout"].as<int>();
    if (stall < 100) return tools::usageError("dejarik-gui", "--stall-timeout: expected >= 100");

    gui::ServerConfig config;
    config.host = vm["host"].as<std::string>();
    // The server binds an address, not a name: a name or a typo is refused here, in words.
    if (boost::system::error_code ec; boost::asio::ip::make_address(config.host, ec), ec)
        return tools::usageError("dejarik-gui",
                                 "--host: '" + config.host + "' is not an IPv4 or IPv6 address");
    config.port = static_cast<unsigned short>(port);
    config.session.enginePath =
        vm.count("engine") ? vm["engine"].as<std::string>() : engineBeside(argv[0]);
    if (std::error_code ec; std::filesystem::is_directory(config.session.enginePath, ec) ||
                            access(config.session.enginePath.c_str(), X_OK) != 0)
        return tools::usageError("dejarik-gui",
                                 "--engine: '" + config.session.enginePath + "' is not executable");
    config.session.engineName =
        std::filesystem::path(config.session.enginePath).filename().string();
    config.session.maxGames = maxGames;
    config.session.timeouts.stall = std::chrono::milliseconds(stall);

    std::vector<spdlog::sink_ptr> sinks;
    auto console = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
    console->set_level(vm.count("verbose") ? spdlog::level::info : spdlog::level::warn);
    sinks.push_back(console);
    try {
        if (vm.count("log-file")) {
            auto file = tools::openLogFile("--log-file", vm["log-file"].as<std::string>());
            file->set_level(spdlog::level::debug);
            sinks.push_back(file);
        }
    } catch (const tools::UsageError& e) {
        return tools::usageError("dejarik-gui", e.message);
    }
    auto log = std::make_shared<spdlog::logger>("gui", sinks.begin(), sinks.end());
    log->set_level(spdlog::level::debug);
    log->flush_on(spdlog::level::info);

    try {
        gui::runServer(config, log, [&](unsigned short p) {
            // An IPv6 address goes in brackets in a URL (RFC 3986).
            const bool v6 = config.host.find(':') != std::string::npos;
            std::cout << "dejarik-gui: open http://" << (v6 ? "[" : "") << config.host
                      << (v6 ? "]" : "") << ":" << p << "/" << std::endl;
        });
    } catch (const std::exception& e) {
        std::cerr << "dejarik-gui: error: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
