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

// What a searched value means between sound players (docs/eval.md, "Reported value";
// Tunables::reportModel, fitted to self-play results per ruleset): the
// expected result for player 1, and the chance of a draw that it includes. The search keeps
// its own scale (an SPRT rejected it shaped so), so only what is reported goes through this.
struct Reported {
    double value = 0;
    double draw = 0;
};
[[nodiscard]] Reported reported(double searched, Ruleset ruleset,
                                const Tunables& tunables = kDefaultTunables);

// Whether a value is the game's (a finished game, the endgame tables, a proven line), which
// is reported as it is, or a searched or static estimate, which is reported through
// reported().
enum class Certainty { Estimate, Exact };

// Win / draw / loss chances per mille for player 1 matching a value for player 1
// (W - L = round(1000 * the expected result), W + D + L = 1000): an estimate as reported()
// says, with its draw chance; an exact value as it is, with the draw share of the room it
// leaves estimated from the position (quiet counter near the draw, a side hiding, pieces
// that can hardly kill each other).
[[nodiscard]] std::array<int, 3> wdl(const Position& pos, double value,
                                     const Tunables& tunables = kDefaultTunables,
                                     Certainty certainty = Certainty::Estimate);

// The same from the expected result and the share of the room it leaves (1000 − |W − L|)
// that goes to draws: what each game's wdl() estimates is only that share.
[[nodiscard]] std::array<int, 3> wdlFromDrawShare(double value, double drawShare);

// `v` with `decimals` digits after the point, for the terms' notes.
[[nodiscard]] std::string fixed(double v, int decimals = 3);

}  // namespace dejarik::eval
