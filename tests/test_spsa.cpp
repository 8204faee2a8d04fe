// SPSA (tools/tune/spsa.h) on objectives whose optimum is known: it climbs a noisy one, keeps
// every weight in its range and whole where it must be, and refuses a stale result; the luck
// control of its game results (tools/tune/spsa_match.h).
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

#include "splitmix.h"
#include "spsa.h"
#include "spsa_match.h"

using namespace dejarik;

namespace {

const eval::TunableSpec& spec(const char* name) {
    const eval::TunableSpec* s = eval::findTunable(name);
    REQUIRE(s);
    return *s;
}

double unitsOf(const eval::TunableSpec& s, const eval::Tunables& t) {
    return (s.get(t) - s.min) / (s.max - s.min);
}

}  // namespace

TEST_CASE("SPSA climbs a noisy objective to its optimum") {
    const eval::TunableSpec &calibration = spec("calibration"), &exposure = spec("exposure");
    // The objective: a paraboloid in units of the ranges, peaking at 0.6 and 0.8; a trial's
    // result is ten times the difference of its two sides plus noise of +-0.5, clamped to
    // [-1, 1] as a match's is.
    const auto objective = [&](const eval::Tunables& t) {
        const double x = unitsOf(calibration, t) - 0.6, y = unitsOf(exposure, t) - 0.8;
        return -(x * x + y * y);
    };
    const eval::Tunables start;
    const auto distance = [&](const eval::Tunables& t) { return std::sqrt(-objective(t)); };
    const double before = distance(start);
    REQUIRE(before > 0.4);

    tune::SpsaSettings settings;
    settings.iterations = 2000;
    tune::Spsa spsa({&calibration, &exposure}, start, settings, 11);
    std::uint64_t noise = 5;
    for (int k = 0; k < settings.iterations; ++k) {
        const auto trial = spsa.next();
        CHECK(trial.iteration == k);
        const double u = static_cast<double>(splitmix64(noise) >> 11) / 9007199254740992.0;
        const double result = 10 * (objective(trial.plus) - objective(trial.minus)) + (u - 0.5);
        spsa.update(trial, std::clamp(result, -1.0, 1.0));
    }
    CHECK(spsa.iteration() == settings.iterations);
    CHECK(distance(spsa.current()) < 0.1 * before);
    // The weights not tuned stay as they started.
    CHECK(spsa.current().base.secondAttack == start.base.secondAttack);
    // The schedules fall as Spall's exponents say.
    CHECK(spsa.perturbationAt(0) == doctest::Approx(settings.perturbation));
    CHECK(spsa.perturbationAt(999) ==
          doctest::Approx(settings.perturbation / std::pow(1000, settings.gamma)));
    CHECK(spsa.gainAt(0) / (2 * spsa.perturbationAt(0)) == doctest::Approx(settings.step));
    CHECK(spsa.gainAt(1000) < spsa.gainAt(0));
}

TEST_CASE("SPSA keeps weights in their ranges, whole where they must be") {
    const eval::TunableSpec& cap = spec("mobilityCap");
    const eval::TunableSpec& calibration = spec("calibration");
    REQUIRE(cap.integral());
    tune::SpsaSettings settings;
    settings.iterations = 50;
    settings.perturbation = 0.3;
    settings.step = 0.5;
    tune::Spsa spsa({&cap, &calibration}, eval::Tunables{}, settings, 3);
    for (int k = 0; k < settings.iterations; ++k) {
        const auto trial = spsa.next();
        for (const eval::Tunables* t : {&trial.plus, &trial.minus}) {
            CHECK(cap.get(*t) == std::round(cap.get(*t)));
            CHECK(cap.get(*t) >= cap.min);
            CHECK(cap.get(*t) <= cap.max);
            CHECK(calibration.get(*t) >= calibration.min);
            CHECK(calibration.get(*t) <= calibration.max);
        }
        // The side with the higher calibration always wins: it runs to the top of its range
        // and stays there.
        spsa.update(trial, calibration.get(trial.plus) > calibration.get(trial.minus) ? 1 : -1);
        CHECK(calibration.get(spsa.current()) <= calibration.max);
    }
    CHECK(calibration.get(spsa.current()) == calibration.max);

    const auto stale = spsa.next();
    spsa.update(stale, 0);
    CHECK_THROWS_AS(spsa.update(stale, 0), std::logic_error);
    CHECK_THROWS_AS(tune::Spsa({&cap}, eval::Tunables{}, tune::SpsaSettings{.iterations = 0}, 1),
                    std::invalid_argument);
}

TEST_CASE("SPSA's results shed the luck once enough trials are in") {
    tune::LuckControl luck;
    std::uint64_t state = 17;
    const auto uniform = [&] {
        return static_cast<double>(splitmix64(state) >> 11) / 9007199254740992.0 - 0.5;
    };
    double plainSquares = 0, adjustedSquares = 0;
    for (int i = 0; i < 200; ++i) {
        // A result mostly the attacks' luck, some the showdowns', a little the weights'.
        const double attack = 4 * uniform(), showdown = uniform(), skill = 0.05 * uniform();
        const tune::TrialResult trial{0.2 * attack + 0.5 * showdown + skill, attack, showdown};
        const double adjusted = luck.adjust(trial);
        if (i < static_cast<int>(arena::kMinimumLuckPairs)) {
            CHECK(adjusted == trial.result);  // no fit yet
        } else if (i >= 50) {
            plainSquares += trial.result * trial.result;
            adjustedSquares += adjusted * adjusted;
            CHECK(std::abs(adjusted - skill) < 0.005);  // skill alone is +-0.025
        }
    }
    CHECK(luck.coefficients()[0] == doctest::Approx(0.2).epsilon(0.02));
    CHECK(luck.coefficients()[1] == doctest::Approx(0.5).epsilon(0.02));
    CHECK(luck.varianceRatio() < 0.01);
    CHECK(adjustedSquares < 0.01 * plainSquares);
}
