// One page's game: the referee, the engine process and the queue of the page's requests,
// run on a thread of its own so that a search never holds up the network. The network
// side only posts requests (parsed and checked on arrival) and closes; everything the page
// sees goes out through the sender, which may be called from this thread.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "codec.h"
#include "engine_link.h"
#include "referee.h"

namespace spdlog {
class logger;
}

namespace dejarik::gui {

struct SessionConfig {
    std::string enginePath;
    std::string engineName;
    EngineTimeouts timeouts;
    int maxGames = 8;
};

class Session {
  public:
    using Sender = std::function<void(std::string)>;

    Session(SessionConfig config, Sender send, std::shared_ptr<spdlog::logger> log);

    // From the network: a message of the page. A malformed one is answered with an error
    // at once and changes nothing.
    void post(std::string_view text);
    // From the network: the page is gone. The search under way is stopped and run() ends.
    void close();
    // The session's own thread: until close().
    void run();

  private:
    [[nodiscard]] bool pending();
    // The next request, waiting for one; none once closed.
    [[nodiscard]] std::optional<Request> pop();
    void refreshInterrupt();  // with the lock held

    void handle(const Request& request);
    void advance();
    void engineDecides();
    void analyse(const AnalyseRequest& request);
    void engineFault(const std::string& detail);
    [[nodiscard]] bool ensureEngine();
    void adopt(std::unique_ptr<Referee> game);
    void sendState(bool thinking = false);

    SessionConfig config_;
    Sender send_;
    std::shared_ptr<spdlog::logger> log_;

    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Request> queue_;
    bool closed_ = false;
    std::atomic<bool> interrupt_{false};  // closed, or a request waits that ends a search

    EngineLink engine_;
    std::string engineRules_;  // the rules the engine was started with
    std::unique_ptr<Referee> game_;
    std::size_t view_ = 0;
    // How many of the game's first events the page holds: a state message sends the rest.
    // Only a new game, a loaded one and an undo take events back.
    std::size_t pageEvents_ = 0;
    int failures_ = 0;  // the engine's faults in a row
    bool engineFailed_ = false;
};

}  // namespace dejarik::gui
