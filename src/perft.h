// Perft (RULES §12): the number of event sequences of a given length, the test of event
// generation against independent implementations.
#pragma once

#include <cstdint>
#include <functional>
#include <stop_token>
#include <utility>
#include <vector>

#include "position.h"

namespace dejarik {

// The deepest count the tools take (`go perft`, dejarik-perft): 30 plies is already far
// beyond any count that ends in a lifetime.
inline constexpr int kMaxPerftDepth = 30;

// Bulk-counts the last ply; no hash table, so the count exercises every node.
[[nodiscard]] std::uint64_t perft(const Position& pos, int depth);

// perft(depth - 1) below each first event, in generation order.
[[nodiscard]] std::vector<std::pair<Event, std::uint64_t>> perftDivide(const Position& pos,
                                                                       int depth);

// The same rows, each handed to `row` as soon as it is counted, for a caller that shows a
// long count as it goes. Gives up soon after `stop` is requested (it is looked at in every
// node above the last ply): the row being counted is then dropped and the result is false.
using PerftRow = std::function<void(Event first, std::uint64_t count)>;
[[nodiscard]] bool perftDivide(const Position& pos, int depth, const std::stop_token& stop,
                               const PerftRow& row);

// The same counts by make/unmake (Position::apply with an Undo, then Position::undo) on one
// position instead of copy-make; `pos` is left as it was.
[[nodiscard]] std::uint64_t perftUnmake(Position& pos, int depth);
[[nodiscard]] std::vector<std::pair<Event, std::uint64_t>> perftDivideUnmake(Position& pos,
                                                                             int depth);

}  // namespace dejarik
