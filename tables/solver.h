// The values of one material set: its move graph, the exact operator T and the certified
// fixed point (docs/tables.md, "Solver").
//
// Inside a set only attacks lead out of the attack-free game: kills, counter-kills and
// blocked pushes that remove a piece go to smaller sets (already solved) or end the game,
// while pushes and counter-pushes come back into the set after their placement. Given
// values V of the set's states, every attack has a value Q(V) (the chance-weighted sum over
// its outcomes, each placement chosen by its player), and T(V) is the exact solution of the
// attack-free game whose exits are those attacks at Q(V) and the CentreWin wins. V_k =
// T^k(0) is the game cut after k attacks that stay in the set; it converges geometrically,
// and the result is certified by the residual max |T(V) - V|.
//
// Values are from side A's view (player 1 of the set's canonical orientation).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "index.h"
#include "material.h"
#include "position.h"
#include "rules.h"

namespace dejarik::tables {

// The value (player 1's view) of a decision position of a smaller set; nothing when that
// set is missing.
using SmallerSets = std::function<std::optional<double>(const Position&)>;

struct SolveReport {
    int iterations = 0;      // applications of T
    int jumps = 0;           // accelerations taken between them
    double residual = 0;     // max |T(V) - V| of the values returned
    bool converged = false;  // residual below the tolerance within the iteration cap
    // T's contraction factor: the most probability with which an attack stays in the set.
    // Below 1, |V - V*| <= residual / (1 - contraction) for the one fixed point V*.
    double contraction = 0;
};

class SetSolver {
  public:
    // `rules` must be a Rules without the quiet draw (DrawTurns 0) and outlive the solver.
    // Throws std::runtime_error when a smaller set the captures lead to is missing.
    SetSolver(const Material& material, const Rules& rules, const SmallerSets& smaller);
    ~SetSolver();
    SetSolver(const SetSolver&) = delete;
    SetSolver& operator=(const SetSolver&) = delete;

    [[nodiscard]] const Layout& layout() const;
    [[nodiscard]] std::uint32_t states() const;
    [[nodiscard]] std::uint64_t edges() const;
    [[nodiscard]] std::uint64_t attacks() const;

    // out = T(in); returns max |out - in|.
    double apply(std::span<const double> in, std::span<double> out);
    // Per state, the actions before the attack (or the move that ends the game) that
    // realises out's value in the attack-free game of the last apply(): the side the value
    // serves takes the shortest way, the other the longest, among value-optimal choices;
    // 0 for a value of 0 (docs/tables.md, "Distances").
    [[nodiscard]] std::span<const std::uint32_t> distances() const;

    // Fills in the states files do not store (Layout::storedSize() on) from the others:
    // each is the best of its decisions, which all end the turn in stored states.
    void completeDerived(std::span<double> values);

    [[nodiscard]] double contraction() const;

    // Iterates T from V = 0 until the residual is below `tolerance` or `maxIterations`
    // applications; `values` gets the result. When T contracts, each application is
    // followed by a jump to the fixed point of the choices it made (see solver.cpp); the
    // residual of the values returned is measured by T in every case.
    SolveReport solve(std::vector<double>& values, double tolerance, int maxIterations);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace dejarik::tables
