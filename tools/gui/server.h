// The HTTP and WebSocket server of dejarik-gui: the embedded page on GET, one game session
// per WebSocket connection at /ws (at most maxGames at once), all network work on one
// thread, every session's engine work on that session's own thread.
#pragma once

#include <memory>
#include <string>

#include "session.h"

namespace spdlog {
class logger;
}

namespace dejarik::gui {

struct ServerConfig {
    std::string host = "127.0.0.1";
    unsigned short port = 8080;  // 0: any free port (reported by run's callback)
    SessionConfig session;
};

// Serves until SIGINT or SIGTERM, then ends every session (their engines quit) and
// returns. `onListening` gets the port once the server listens. Throws on a bind error.
void runServer(const ServerConfig& config, const std::shared_ptr<spdlog::logger>& log,
               const std::function<void(unsigned short)>& onListening);

}  // namespace dejarik::gui
