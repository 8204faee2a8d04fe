// SPSA, simultaneous perturbation stochastic approximation (Spall, "Implementation of the
// simultaneous perturbation algorithm for stochastic optimization", 1998), over named
// evaluation weights: each iteration moves every weight at once by +c_k or -c_k (a fair coin
// each), plays the two weight sets against each other, and steps every weight along its
// perturbation by a_k times the result over 2 c_k. Two games estimate a gradient in any
// number of weights, which is why engines tune through games this way. The weights are
// handled in units of their range (eval::TunableSpec), so one step size serves a calibration
// in [0.1, 2] and a cap in [0, 24].
#pragma once

#include <cstdint>
#include <vector>

#include "tunables.h"

namespace dejarik::tune {

struct SpsaSettings {
    int iterations = 500;
    // c: the first perturbation, as a share of each weight's range.
    double perturbation = 0.05;
    // The first step of a weight for a result of +-1, as a share of its range.
    double step = 0.01;
    // Spall's exponents of a_k = a / (k + 1 + A)^alpha and c_k = c / (k + 1)^gamma, and A as
    // a share of the iterations: his recommended values.
    double alpha = 0.602;
    double gamma = 0.101;
    double stability = 0.1;
};

class Spsa {
  public:
    // Tunes `params` (each a weight of eval::tunableSpecs()) from `start`; the other weights
    // stay as `start` has them.
    Spsa(std::vector<const eval::TunableSpec*> params, const eval::Tunables& start,
         const SpsaSettings& settings, std::uint64_t seed);

    struct Trial {
        int iteration = 0;
        eval::Tunables plus, minus;
        std::vector<int> signs;   // +1 or -1 per weight: plus has it moved up
        double perturbation = 0;  // c_k
    };
    // The next pair of weight sets to play; draws the signs.
    [[nodiscard]] Trial next();
    // `result`: the plus set's score over the trial's games minus the minus set's, in
    // [-1, 1]. Moves every weight, clamped to its range, and counts the iteration.
    void update(const Trial& trial, double result);

    [[nodiscard]] eval::Tunables current() const;
    [[nodiscard]] int iteration() const { return k_; }
    [[nodiscard]] double perturbationAt(int k) const;  // c_k
    [[nodiscard]] double gainAt(int k) const;          // a_k

  private:
    [[nodiscard]] eval::Tunables at(const std::vector<double>& units) const;

    std::vector<const eval::TunableSpec*> params_;
    eval::Tunables start_;
    std::vector<double> units_;  // each weight's place in its range, 0 to 1
    SpsaSettings settings_;
    double a_ = 0;
    std::uint64_t rng_;
    int k_ = 0;
};

}  // namespace dejarik::tune
