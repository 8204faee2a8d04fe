#include "output.h"

#include <spdlog/spdlog.h>

namespace dejarik::protocol {

std::string printable(std::string_view text) {
    std::string s(text);
    for (char& c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7f) c = '?';
    }
    return s;
}

std::string errorLine(std::string_view message) {
    return "info string error: " + printable(message);
}

void Output::emit(std::string_view text) {
    spdlog::debug(">> {}", text);
    std::fwrite(text.data(), 1, text.size(), stream_);
    std::fputc('\n', stream_);
    std::fflush(stream_);
}

void Output::line(std::string_view text) {
    const std::lock_guard lock(mutex_);
    emit(text);
}

void Output::lines(const std::vector<std::string>& texts) {
    const std::lock_guard lock(mutex_);
    for (const auto& t : texts)
        emit(t);
}

void Output::error(std::string_view message) {
    line(errorLine(message));
}

}  // namespace dejarik::protocol
