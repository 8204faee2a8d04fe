// A position where a pushed piece must be placed is worth its best placement for the
// decider (docs/eval.md, "Placements and finished games").
#pragma once

#include "memo.h"
#include "position.h"
#include "tunables.h"

namespace dejarik::eval {

struct Placement {
    Position position;  // after the placement
    double value = 0;   // its value, evaluate()'s
    Event event;        // the placement
};

// The placement the decider likes best of a position at a placement, not over.
[[nodiscard]] Placement bestPlacement(const Position& pos, const Tunables& tunables,
                                      Memo* memo = nullptr);

}  // namespace dejarik::eval
