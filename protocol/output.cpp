#include "output.h"

#include <spdlog/spdlog.h>

#include "text.h"

namespace dejarik::protocol {

std::string errorLine(std::string_view message) {
    return "info string error: " + text::printable(message);
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
