// Perft (RULES §12): the number of event sequences of a given length, the test of event
// generation against independent implementations.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "position.h"

namespace dejarik {

// Bulk-counts the last ply; no hash table, so the count exercises every node.
[[nodiscard]] std::uint64_t perft(const Position& pos, int depth);

// perft(depth - 1) below each first event, in generation order.
[[nodiscard]] std::vector<std::pair<Event, std::uint64_t>> perftDivide(const Position& pos,
                                                                       int depth);

// The same counts by make/unmake (Position::apply with an Undo, then Position::undo) on one
// position instead of copy-make; `pos` is left as it was.
[[nodiscard]] std::uint64_t perftUnmake(Position& pos, int depth);
[[nodiscard]] std::vector<std::pair<Event, std::uint64_t>> perftDivideUnmake(Position& pos,
                                                                             int depth);

}  // namespace dejarik
