// Weight sets for tests: every weight of eval/tunables.h drawn from its range.
#pragma once

#include <cmath>
#include <random>

#include "tunables.h"

namespace dejarik::testing {

// Every weight drawn uniformly from its range (integers for the integral ones).
inline eval::Tunables randomTunables(std::mt19937_64& rng) {
    eval::Tunables t;
    for (const eval::TunableSpec& spec : eval::tunableSpecs()) {
        double v = std::uniform_real_distribution<double>(spec.min, spec.max)(rng);
        if (spec.integral()) v = std::round(v);
        spec.set(t, v);
    }
    return t;
}

}  // namespace dejarik::testing
