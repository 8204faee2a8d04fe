// Text for people: the picture of the circular board and plain descriptions of what is due
// in a position. Shared by the protocol's `d` and the `analyse` subcommand.
#pragma once

#include <string>
#include <vector>

#include "position.h"

namespace dejarik::protocol {

// The board as a clock face: ray 12 at the top, the outer ring c1..c12 outside, the inner
// ring b1..b12 inside, the centre a in the middle. Each cell shows its name and its piece
// (upper case player 1, lower case player 2, '.' empty).
[[nodiscard]] std::vector<std::string> boardPicture(const Position& pos);

// "player 1 wins", "drawn", "showdown: player 1 wins with probability 0.030489", ...
[[nodiscard]] std::string resultText(const Position& pos);

// Whose decision is due and of what kind, the pending chance event, or the result.
[[nodiscard]] std::string dueText(const Position& pos);

// The legal events, space-separated, in generation order.
[[nodiscard]] std::string legalEventsText(const Position& pos);

// Rays of Death's state (docs/rules.md): the combat cell and each player's used creatures.
[[nodiscard]] std::string raysText(const Position& pos);

// The creature set in force, its file and its creatures: "creatures Mirror Raiders from
// data/creatures/mirror-raiders.txt: W 5/3/4 Wraith-hound, ...".
[[nodiscard]] std::string creaturesText(const Rules& rules);

// "player 1" / "player 2".
[[nodiscard]] std::string playerName(Player p);

}  // namespace dejarik::protocol
