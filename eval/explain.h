// What the protocol's `eval` command and `wdl` show of an evaluation.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "position.h"
#include "tunables.h"

namespace dejarik::eval {

// One named term of the evaluation, as shown by the protocol's `eval` command.
struct Term {
    std::string name;
    double player1 = 0;  // the term's contribution for player 1, in raw units (calibrated)
    double player2 = 0;  // the same for player 2
    std::string note;    // optional detail ("3 threats", "hold 2/3")
};

// Every term, plus the final value; the terms explain exactly how evaluate() is made:
// evaluate() sums the same terms in the same order, so `value` is evaluate(pos, tunables) to
// the bit, whatever the weights.
struct Breakdown {
    std::vector<Term> terms;
    double raw = 0;    // player 1's raw score (the sum of the terms' differences, in order)
    double value = 0;  // tanh(raw) within the value limit: evaluate(pos, tunables)
};
[[nodiscard]] Breakdown explain(const Position& pos, const Tunables& tunables = kDefaultTunables);

// Win / draw / loss chances per mille for player 1 matching an expected result `value`
// (W - L = round(1000 * value), W + D + L = 1000), with the draw share estimated from the
// position (material, quiet counter near the draw).
[[nodiscard]] std::array<int, 3> wdl(const Position& pos, double value,
                                     const Tunables& tunables = kDefaultTunables);

// The same from the expected result and the share of the room it leaves (1000 − |W − L|)
// that goes to draws: what each game's wdl() estimates is only that share.
[[nodiscard]] std::array<int, 3> wdlFromDrawShare(double value, double drawShare);

// `v` with `decimals` digits after the point, for the terms' notes.
[[nodiscard]] std::string fixed(double v, int decimals = 3);

}  // namespace dejarik::eval
