#include "event.h"

#include <algorithm>

#include "text.h"

namespace dejarik {

std::string Event::token() const {
    switch (kind_) {
        case EventKind::None:
            return "none";
        case EventKind::Move:
        case EventKind::Place:
            return from().name() + "-" + to().name();
        case EventKind::Attack:
            return from().name() + "x" + to().name();
        case EventKind::Pass:
            return "pass";
        case EventKind::Outcome:
            return std::string(outcomeName(outcome()));
        case EventKind::Setup:
            // Only the slots are known here: "setup#" and the slot of each home cell.
            return "setup#" + std::to_string(slots() & 3) + std::to_string((slots() >> 2) & 3) +
                   std::to_string((slots() >> 4) & 3) + std::to_string(slots() >> 6);
        case EventKind::CaptureMove:
            return from().name() + "-" + to().name() + "x" + captured().name();
        case EventKind::Roll:
            return "ray:" + to().name();
    }
    return "none";
}

std::optional<Event> Event::parse(std::string_view raw) {
    const std::string token = text::lowerCase(raw);
    if (token == "pass") return pass();
    if (token.starts_with("ray:")) {
        const auto cell = Cell::parse(std::string_view(token).substr(4));
        if (!cell) return std::nullopt;
        return roll(*cell);
    }
    for (const Outcome o : kOutcomes)
        if (token == outcomeName(o)) return outcome(o);
    // The separator follows the first cell name: "a" is one letter, ring cells 2 or 3.
    for (std::size_t split = 1; split < token.size(); ++split) {
        const char sep = token[split];
        if (sep != '-' && sep != 'x') continue;
        const auto from = Cell::parse(std::string_view(token).substr(0, split));
        const auto to = Cell::parse(std::string_view(token).substr(split + 1));
        if (sep == '-' && from && !to) {
            // A Courtier capture choice: "<from>-<to>x<cell>" (cell names hold no 'x').
            const auto x = token.find('x', split + 1);
            if (x == std::string::npos) continue;
            const auto target =
                Cell::parse(std::string_view(token).substr(split + 1, x - split - 1));
            const auto taken = Cell::parse(std::string_view(token).substr(x + 1));
            if (!target || !taken || !board::adjacent(*target).has(*taken)) continue;
            // Only the middle cell of a line that the step's cell ends survives the code's
            // round trip (Event::code); anything else names no capture.
            const Event e = captureMove(*from, *target, *taken);
            if (fromCode(e.code()) != e) continue;
            return e;
        }
        if (!from || !to) continue;
        return sep == '-' ? move(*from, *to) : attack(*from, *to);
    }
    return std::nullopt;
}

// By code, without decoding every event of the list: a list holds only the codes of events
// that come back from them, so an event is in it exactly when it comes back from its own
// code and that code is there.
bool EventList::contains(Event e) const {
    const std::uint16_t code = e.code();
    return Event::fromCode(code) == e && std::find(codes_, codes_ + size_, code) != codes_ + size_;
}

}  // namespace dejarik
