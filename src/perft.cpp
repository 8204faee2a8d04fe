#include "perft.h"

namespace dejarik {

namespace {

// `stopped` is asked at every node above the last ply; once it says yes the count unwinds
// with a partial total, which the caller throws away. perft() asks nothing, so its loop is
// the plain one.
template <typename Stopped>
std::uint64_t count(const Position& pos, int depth, const Stopped& stopped) {
    if (depth == 0) return 1;
    if (depth == 1) return static_cast<std::uint64_t>(pos.countEvents());
    if (stopped()) return 0;
    EventList events;
    pos.generate(events);
    std::uint64_t total = 0;
    for (const Event e : events) {
        Position child = pos;
        child.apply(e);
        total += count(child, depth - 1, stopped);
    }
    return total;
}

constexpr auto kNeverStopped = [] { return false; };

}  // namespace

std::uint64_t perft(const Position& pos, int depth) {
    return count(pos, depth, kNeverStopped);
}

bool perftDivide(const Position& pos, int depth, const std::stop_token& stop, const PerftRow& row) {
    if (depth < 1) return true;
    const auto stopped = [&stop] { return stop.stop_requested(); };
    EventList events;
    pos.generate(events);
    for (const Event e : events) {
        Position child = pos;
        child.apply(e);
        const std::uint64_t n = count(child, depth - 1, stopped);
        if (stopped()) return false;
        row(e, n);
    }
    return true;
}

std::vector<std::pair<Event, std::uint64_t>> perftDivide(const Position& pos, int depth) {
    std::vector<std::pair<Event, std::uint64_t>> rows;
    (void)perftDivide(pos, depth, std::stop_token(),
                      [&rows](Event e, std::uint64_t n) { rows.emplace_back(e, n); });
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
