#include "perft.h"

namespace dejarik {

std::uint64_t perft(const Position& pos, int depth) {
    if (depth == 0) return 1;
    if (depth == 1) return static_cast<std::uint64_t>(pos.countEvents());
    EventList events;
    pos.generate(events);
    std::uint64_t total = 0;
    for (const Event e : events) {
        Position child = pos;
        child.apply(e);
        total += perft(child, depth - 1);
    }
    return total;
}

std::vector<std::pair<Event, std::uint64_t>> perftDivide(const Position& pos, int depth) {
    std::vector<std::pair<Event, std::uint64_t>> rows;
    if (depth < 1) return rows;
    EventList events;
    pos.generate(events);
    for (const Event e : events) {
        Position child = pos;
        child.apply(e);
        rows.emplace_back(e, perft(child, depth - 1));
    }
    return rows;
}

std::uint64_t perftUnmake(Position& pos, int depth) {
    if (depth == 0) return 1;
    if (depth == 1) return static_cast<std::uint64_t>(pos.countEvents());
    EventList events;
    pos.generate(events);
    std::uint64_t total = 0;
    Position::Undo undo;
    for (const Event e : events) {
        pos.apply(e, undo);
        total += perftUnmake(pos, depth - 1);
        pos.undo(e, undo);
    }
    return total;
}

std::vector<std::pair<Event, std::uint64_t>> perftDivideUnmake(Position& pos, int depth) {
    std::vector<std::pair<Event, std::uint64_t>> rows;
    if (depth < 1) return rows;
    EventList events;
    pos.generate(events);
    Position::Undo undo;
    for (const Event e : events) {
        pos.apply(e, undo);
        rows.emplace_back(e, perftUnmake(pos, depth - 1));
        pos.undo(e, undo);
    }
    return rows;
}

}  // namespace dejarik
