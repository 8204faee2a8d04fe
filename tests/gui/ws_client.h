// A small blocking WebSocket client (Boost.Beast) with deadlines, for the GUI's tests: the
// scripted players of the load test and the DevTools connection of the browser test; and a
// plain HTTP GET. The only test code that includes Beast, which is slow to compile.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>

namespace dejarik::testing {

class WsClient {
  public:
    WsClient();
    ~WsClient();
    WsClient(const WsClient&) = delete;
    WsClient& operator=(const WsClient&) = delete;

    // ws://HOST:PORT/PATH; an error message on failure.
    [[nodiscard]] std::optional<std::string> connect(const std::string& url,
                                                     std::chrono::milliseconds timeout);
    [[nodiscard]] bool send(const std::string& text);
    // The next message, or none on timeout or a closed connection (closed() tells which).
    [[nodiscard]] std::optional<std::string> read(std::chrono::milliseconds timeout);
    [[nodiscard]] bool closed() const;
    void close();

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// The status code of a GET of `target` from HOST:PORT (throws on a network error).
[[nodiscard]] int httpStatus(const std::string& hostPort, const std::string& target);

}  // namespace dejarik::testing
