#include "spsa.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "splitmix.h"

namespace dejarik::tune {

Spsa::Spsa(std::vector<const eval::TunableSpec*> params, const eval::Tunables& start,
           const SpsaSettings& settings, std::uint64_t seed)
    : params_(std::move(params)), start_(start), settings_(settings), rng_(seed) {
    if (settings_.iterations < 1 || !(settings_.perturbation > 0) || !(settings_.step > 0))
        throw std::invalid_argument("SPSA: iterations, perturbation and step must be positive");
    for (const eval::TunableSpec* p : params_) {
        if (!p || !(p->max > p->min)) throw std::invalid_argument("SPSA: a weight without a range");
        units_.push_back(std::clamp((p->get(start) - p->min) / (p->max - p->min), 0.0, 1.0));
    }
    // a_0 / (2 c_0) is the first step for a result of 1.
    const double stability = settings_.stability * settings_.iterations;
    a_ = settings_.step * 2 * settings_.perturbation * std::pow(1 + stability, settings_.alpha);
}

double Spsa::perturbationAt(int k) const {
    return settings_.perturbation / std::pow(k + 1, settings_.gamma);
}

double Spsa::gainAt(int k) const {
    return a_ / std::pow(k + 1 + settings_.stability * settings_.iterations, settings_.alpha);
}

eval::Tunables Spsa::at(const std::vector<double>& units) const {
    eval::Tunables t = start_;
    for (std::size_t i = 0; i < params_.size(); ++i) {
        const eval::TunableSpec& p = *params_[i];
        double v = p.min + std::clamp(units[i], 0.0, 1.0) * (p.max - p.min);
        if (p.integral()) v = std::round(v);
        p.set(t, std::clamp(v, p.min, p.max));
    }
    return t;
}

Spsa::Trial Spsa::next() {
    Trial t;
    t.iteration = k_;
    t.perturbation = perturbationAt(k_);
    std::vector<double> up = units_, down = units_;
    for (std::size_t i = 0; i < params_.size(); ++i) {
        const int sign = (splitmix64(rng_) >> 63) != 0 ? 1 : -1;
        t.signs.push_back(sign);
        up[i] += sign * t.perturbation;
        down[i] -= sign * t.perturbation;
    }
    t.plus = at(up);
    t.minus = at(down);
    return t;
}

void Spsa::update(const Trial& trial, double result) {
    if (trial.iteration != k_ || trial.signs.size() != units_.size())
        throw std::logic_error("SPSA: a result for another iteration");
    const double gain = gainAt(k_) * std::clamp(result, -1.0, 1.0) / (2 * trial.perturbation);
    for (std::size_t i = 0; i < units_.size(); ++i)
        units_[i] = std::clamp(units_[i] + gain * trial.signs[i], 0.0, 1.0);
    ++k_;
}

eval::Tunables Spsa::current() const {
    return at(units_);
}

}  // namespace dejarik::tune
