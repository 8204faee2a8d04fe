#include "server.h"

#include <spdlog/spdlog.h>

// Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility> (g++ 12).
#include <utility>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "assets.h"

namespace dejarik::gui {

namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

constexpr std::size_t kMaxMessage = 1 << 20;  // a record of a very long game fits
constexpr std::uint64_t kMaxRequestBody = 1 << 14;
constexpr auto kIdleTimeout = std::chrono::seconds(60);

// What every session shares: the count of games under way and a way to end them all.
class Registry {
  public:
    explicit Registry(int maxGames) : maxGames_(maxGames) {}

    // A place for one more game, or false at the limit.
    bool enter(const std::shared_ptr<Session>& s) {
        std::lock_guard lock(mutex_);
        if (static_cast<int>(sessions_.size()) >= maxGames_) return false;
        sessions_.push_back(s);
        return true;
    }
    void leave(const Session* s) {
        std::lock_guard lock(mutex_);
        std::erase_if(sessions_, [s](const auto& w) { return w.get() == s; });
        left_.notify_all();
    }
    // Closes every session and waits until their threads have ended their engines.
    void closeAll(std::chrono::milliseconds wait) {
        std::unique_lock lock(mutex_);
        for (const auto& s : sessions_)
            s->close();
        left_.wait_for(lock, wait, [this] { return sessions_.empty(); });
    }
    [[nodiscard]] int maxGames() const { return maxGames_; }

  private:
    const int maxGames_;
    std::mutex mutex_;
    std::condition_variable left_;
    std::vector<std::shared_ptr<Session>> sessions_;
};

class WebSocketSession : public std::enable_shared_from_this<WebSocketSession> {
  public:
    WebSocketSession(tcp::socket&& socket, std::shared_ptr<Registry> registry,
                     const SessionConfig& config, std::shared_ptr<spdlog::logger> log)
        : ws_(std::move(socket)),
          registry_(std::move(registry)),
          config_(config),
          log_(std::move(log)) {}

    ~WebSocketSession() {
        if (session_) session_->close();
    }

    void run(http::request<http::string_body> request) {
        ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
        ws_.read_message_max(kMaxMessage);
        ws_.async_accept(
            request, beast::bind_front_handler(&WebSocketSession::onAccept, shared_from_this()));
    }

    // From any thread: the message goes out on the network thread, in order.
    void send(std::string message) {
        net::post(ws_.get_executor(),
                  [self = shared_from_this(), m = std::move(message)]() mutable {
                      self->queue_.push_back(std::move(m));
                      if (self->queue_.size() == 1) self->writeNext();
                  });
    }

  private:
    void onAccept(beast::error_code ec) {
        if (ec) return;
        std::weak_ptr<WebSocketSession> weak = shared_from_this();
        auto session = std::make_shared<Session>(
            config_,
            [weak](std::string m) {
                if (auto self = weak.lock()) self->send(std::move(m));
            },
            log_);
        if (!registry_->enter(session)) {
            log_->warn("refused a game: {} games under way", registry_->maxGames());
            send(encodeError("the server is busy: " + std::to_string(registry_->maxGames()) +
                             " games are under way; try again later"));
            closing_ = true;
            return;
        }
        session_ = session;
        log_->info("a game starts");
        // The thread holds the registry too: it may outlive the server's loop.
        std::thread([session, registry = registry_] {
            session->run();
            registry->leave(session.get());
        }).detach();
        read();
    }

    void read() {
        ws_.async_read(buffer_,
                       beast::bind_front_handler(&WebSocketSession::onRead, shared_from_this()));
    }

    void onRead(beast::error_code ec, std::size_t) {
        if (ec) {
            log_->info("the page left ({})", ec.message());
            session_->close();
            return;
        }
        if (!ws_.got_text()) {
            send(encodeError("messages are JSON text"));
        } else {
            session_->post(beast::buffers_to_string(buffer_.data()));
        }
        buffer_.consume(buffer_.size());
        read();
    }

    void writeNext() {
        ws_.text(true);
        ws_.async_write(net::buffer(queue_.front()),
                        beast::bind_front_handler(&WebSocketSession::onWrite, shared_from_this()));
    }

    void onWrite(beast::error_code ec, std::size_t) {
        if (ec) {
            queue_.clear();
            if (session_) session_->close();
            return;
        }
        queue_.pop_front();
        if (!queue_.empty()) {
            writeNext();
        } else if (closing_) {
            ws_.async_close(websocket::close_code::try_again_later,
                            [self = shared_from_this()](beast::error_code) {});
        }
    }

    websocket::stream<beast::tcp_stream> ws_;
    std::shared_ptr<Registry> registry_;
    const SessionConfig& config_;
    std::shared_ptr<spdlog::logger> log_;
    beast::flat_buffer buffer_;
    std::deque<std::string> queue_;
    std::shared_ptr<Session> session_;
    bool closing_ = false;  // refused: close once the error is out
};

class HttpSession : public std::enable_shared_from_this<HttpSession> {
  public:
    HttpSession(tcp::socket&& socket, std::shared_ptr<Registry> registry,
                const SessionConfig& config, std::shared_ptr<spdlog::logger> log)
        : stream_(std::move(socket)),
          registry_(std::move(registry)),
          config_(config),
          log_(std::move(log)) {}

    void run() { read(); }

  private:
    void read() {
        parser_.emplace();
        parser_->body_limit(kMaxRequestBody);
        stream_.expires_after(kIdleTimeout);
        http::async_read(stream_, buffer_, *parser_,
                         beast::bind_front_handler(&HttpSession::onRead, shared_from_this()));
    }

    void onRead(beast::error_code ec, std::size_t) {
        if (ec == http::error::end_of_stream) {
            stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
            return;
        }
        if (ec) return;
        auto request = parser_->release();
        if (websocket::is_upgrade(request)) {
            if (request.target() == "/ws") {
                stream_.expires_never();
                std::make_shared<WebSocketSession>(stream_.release_socket(), registry_, config_,
                                                   log_)
                    ->run(std::move(request));
                return;
            }
            respond(request, http::status::not_found, "text/plain", "no such socket\n");
            return;
        }
        if (request.method() != http::verb::get && request.method() != http::verb::head) {
            respond(request, http::status::method_not_allowed, "text/plain", "GET only\n");
            return;
        }
        const auto target = request.target();
        const Asset* asset = findAsset(std::string_view(target.data(), target.size()));
        if (!asset) {
            respond(request, http::status::not_found, "text/plain", "not found\n");
            return;
        }
        respond(request, http::status::ok, contentType(asset->path), asset->body);
    }

    void respond(const http::request<http::string_body>& request, http::status status,
                 std::string_view type, std::string_view body) {
        auto response =
            std::make_shared<http::response<http::string_body>>(status, request.version());
        response->set(http::field::server, "dejarik-gui");
        response->set(http::field::content_type, beast::string_view(type.data(), type.size()));
        response->set(http::field::cache_control, "no-cache");
        response->set("X-Content-Type-Options", "nosniff");
        response->set("Content-Security-Policy",
                      "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; "
                      "style-src 'self' 'unsafe-inline'");
        response->keep_alive(request.keep_alive());
        if (request.method() != http::verb::head) response->body() = std::string(body);
        response->prepare_payload();
        if (request.method() == http::verb::head) response->content_length(body.size());
        http::async_write(stream_, *response,
                          [self = shared_from_this(), response](beast::error_code ec, std::size_t) {
                              if (ec) return;
                              if (!response->keep_alive()) {
                                  self->stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
                                  return;
                              }
                              self->read();
                          });
    }

    beast::tcp_stream stream_;
    std::shared_ptr<Registry> registry_;
    const SessionConfig& config_;
    std::shared_ptr<spdlog::logger> log_;
    beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
};

class Listener : public std::enable_shared_from_this<Listener> {
  public:
    Listener(net::io_context& io, tcp::endpoint endpoint, std::shared_ptr<Registry> registry,
             const SessionConfig& config, std::shared_ptr<spdlog::logger> log)
        : io_(io),
          acceptor_(io),
          registry_(std::move(registry)),
          config_(config),
          log_(std::move(log)) {
        acceptor_.open(endpoint.protocol());
        acceptor_.set_option(net::socket_base::reuse_address(true));
        acceptor_.bind(endpoint);
        acceptor_.listen(net::socket_base::max_listen_connections);
    }

    [[nodiscard]] unsigned short port() const { return acceptor_.local_endpoint().port(); }
    void run() { accept(); }
    void stop() {
        beast::error_code ec;
        acceptor_.close(ec);
    }

  private:
    void accept() {
        acceptor_.async_accept(net::make_strand(io_),
                               [self = shared_from_this()](beast::error_code ec, tcp::socket s) {
                                   if (ec == net::error::operation_aborted) return;
                                   if (!ec)
                                       std::make_shared<HttpSession>(std::move(s), self->registry_,
                                                                     self->config_, self->log_)
                                           ->run();
                                   self->accept();
                               });
    }

    net::io_context& io_;
    tcp::acceptor acceptor_;
    std::shared_ptr<Registry> registry_;
    const SessionConfig& config_;
    std::shared_ptr<spdlog::logger> log_;
};

}  // namespace

void runServer(const ServerConfig& config, const std::shared_ptr<spdlog::logger>& log,
               const std::function<void(unsigned short)>& onListening) {
    net::io_context io{1};
    auto registry = std::make_shared<Registry>(config.session.maxGames);
    const tcp::endpoint endpoint{net::ip::make_address(config.host), config.port};
    auto listener = std::make_shared<Listener>(io, endpoint, registry, config.session, log);
    listener->run();
    net::signal_set signals(io, SIGINT, SIGTERM);
    signals.async_wait([&](beast::error_code, int signal) {
        log->info("signal {}: ending every game", signal);
        listener->stop();
        registry->closeAll(config.session.timeouts.grace * 3);
        io.stop();
    });
    if (onListening) onListening(listener->port());
    io.run();
}

}  // namespace dejarik::gui
