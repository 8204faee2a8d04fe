#include "output.h"

#include <spdlog/spdlog.h>

#include "text.h"

namespace dejarik::protocol {

std::string errorLine(std::string_view message) {
    return "info string error: " + text::printable(message);
}

void Output::emit(std::string_view text) {
    // A line is one line of text whatever went into it (a path or a name from an option, a
    // file's contents): a control byte could end it or drive the GUI's terminal. Lines are
    // checked before anything is made, so a clean one costs no allocation.
    std::string masked;
    if (!text::isPrintable(text)) text = masked = text::printable(text);
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
