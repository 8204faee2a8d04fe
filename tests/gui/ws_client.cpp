#include "ws_client.h"

// Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility> (g++ 12).
#include <utility>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

namespace dejarik::testing {

namespace beast = boost::beast;
namespace net = boost::asio;
using tcp = net::ip::tcp;

struct WsClient::Impl {
    net::io_context io;
    beast::websocket::stream<beast::tcp_stream> ws{io};
    beast::flat_buffer buffer;
    bool closed = false;

    // Runs the io context until `done` or the timeout; on timeout the operation is
    // cancelled (and the connection counts as lost).
    bool runUntil(const bool& done, std::chrono::milliseconds timeout) {
        io.restart();
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (!done && std::chrono::steady_clock::now() < deadline)
            io.run_one_until(deadline);
        if (done) return true;
        beast::get_lowest_layer(ws).cancel();
        io.restart();
        io.run();
        return false;
    }
};

WsClient::WsClient() : impl_(std::make_unique<Impl>()) {}

WsClient::~WsClient() {
    close();
}

std::optional<std::string> WsClient::connect(const std::string& url,
                                             std::chrono::milliseconds timeout) {
    const std::string prefix = "ws://";
    if (url.rfind(prefix, 0) != 0) return "not a ws:// URL: " + url;
    const auto slash = url.find('/', prefix.size());
    const std::string hostPort = url.substr(prefix.size(), slash - prefix.size());
    const std::string path = slash == std::string::npos ? "/" : url.substr(slash);
    const auto colon = hostPort.rfind(':');
    if (colon == std::string::npos) return "no port in " + url;
    const std::string host = hostPort.substr(0, colon), port = hostPort.substr(colon + 1);

    beast::error_code ec;
    tcp::resolver resolver(impl_->io);
    const auto endpoints = resolver.resolve(host, port, ec);
    if (ec) return "resolve " + hostPort + ": " + ec.message();
    beast::get_lowest_layer(impl_->ws).expires_after(timeout);
    beast::get_lowest_layer(impl_->ws).connect(endpoints, ec);
    if (ec) return "connect " + hostPort + ": " + ec.message();
    beast::get_lowest_layer(impl_->ws).expires_never();
    impl_->ws.read_message_max(64 << 20);
    impl_->ws.handshake(hostPort, path, ec);
    if (ec) return "handshake " + url + ": " + ec.message();
    return std::nullopt;
}

bool WsClient::send(const std::string& text) {
    if (impl_->closed) return false;
    beast::error_code ec;
    impl_->ws.text(true);
    impl_->ws.write(net::buffer(text), ec);
    if (ec) impl_->closed = true;
    return !ec;
}

std::optional<std::string> WsClient::read(std::chrono::milliseconds timeout) {
    if (impl_->closed) return std::nullopt;
    bool done = false;
    beast::error_code result;
    impl_->ws.async_read(impl_->buffer, [&](beast::error_code ec, std::size_t) {
        result = ec;
        done = true;
    });
    if (!impl_->runUntil(done, timeout) || result) {
        impl_->closed = impl_->closed || (done && result);
        if (!done) impl_->closed = true;  // a cancelled read leaves the stream unusable
        return std::nullopt;
    }
    std::string text = beast::buffers_to_string(impl_->buffer.data());
    impl_->buffer.consume(impl_->buffer.size());
    return text;
}

bool WsClient::closed() const {
    return impl_->closed;
}

void WsClient::close() {
    if (impl_->closed) return;
    impl_->closed = true;
    beast::error_code ec;
    beast::get_lowest_layer(impl_->ws).expires_after(std::chrono::seconds(2));
    impl_->ws.close(beast::websocket::close_code::normal, ec);
}

int httpStatus(const std::string& hostPort, const std::string& target) {
    namespace http = beast::http;
    net::io_context io;
    tcp::resolver resolver(io);
    beast::tcp_stream stream(io);
    const auto colon = hostPort.rfind(':');
    stream.connect(resolver.resolve(hostPort.substr(0, colon), hostPort.substr(colon + 1)));
    http::request<http::empty_body> request{http::verb::get, target, 11};
    request.set(http::field::host, hostPort);
    http::write(stream, request);
    beast::flat_buffer buffer;
    http::response<http::string_body> response;
    http::read(stream, buffer, response);
    return static_cast<int>(response.result_int());
}

}  // namespace dejarik::testing
