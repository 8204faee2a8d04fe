// libFuzzer target: the DEI line parser. Any byte string must parse to a command or to an
// error whose message is one printable line; a parsed command must be self-consistent.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "command.h"
#include "perft.h"

using namespace dejarik::protocol;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view line(reinterpret_cast<const char*>(data), size);
    const ParseResult result = parseLine(line);
    if (const auto* error = std::get_if<ParseError>(&result)) {
        if (error->message.empty()) std::abort();
        for (const char c : error->message)
            if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) std::abort();
        return 0;
    }
    const Command& command = std::get<Command>(result);
    if (const auto* go = std::get_if<Go>(&command)) {
        if (go->depth && (*go->depth < 1 || *go->depth > kMaxGoDepth)) std::abort();
        if (go->movetimeMs && (*go->movetimeMs < 1 || *go->movetimeMs > kMaxTimeMs)) std::abort();
        if (go->nodes && *go->nodes == 0) std::abort();
    }
    if (const auto* perft = std::get_if<GoPerft>(&command))
        if (perft->depth < 0 || perft->depth > dejarik::kMaxPerftDepth) std::abort();
    if (const auto* option = std::get_if<SetOption>(&command))
        if (option->name.empty() || (option->value && option->value->empty())) std::abort();
    if (std::holds_alternative<Empty>(command) && !tokenize(line).empty()) std::abort();
    return 0;
}
