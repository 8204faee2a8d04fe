// The evaluator's currency and the arithmetic behind it: logits of win chances, ln x and
// e^-x by table and short polynomial, and tanh back to a value (docs/eval.md, "Speed").
//
// ln x and e^-x are free of divisions and of long dependency chains: the evaluator takes a
// few of each per call, and std::log / std::exp (or series long enough to need no table)
// cost more than the rest of a term.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

namespace dejarik::eval {

// Win chances are kept inside [kEps, 1 - kEps] before taking logits: |L| <= 3.8, the logit
// of the value limit 0.999.
inline constexpr double kEps = 5e-4;
// Values stay strictly inside (-1, 1): the search uses [-1, 1] as the bounds of every value.
inline constexpr double kValueLimit = 0.999;

namespace fastmath {

inline constexpr double kLn2 = 0.69314718055994530942;

// The tables are built at compile time in long double, far beyond the 1e-16 they need.
[[nodiscard]] constexpr long double logSeries(long double y) {  // ln y for y in [1, 2]
    const long double t = (y - 1) / (y + 1), t2 = t * t;
    long double sum = 0, power = t;
    for (int k = 0; k < 40; ++k, power *= t2)
        sum += power / (2 * k + 1);
    return 2 * sum;
}

// ln x = e ln 2 + ln m, m in [1, 2) split by its top 7 bits j: ln m = -ln c_j + ln(1 + u)
// with c_j close to 1 / m, so that u = m c_j - 1 is below 2^-8 and six terms of the series
// of ln(1 + u) leave an error below 1e-17.
inline constexpr int kLogBits = 7;
struct LogEntry {
    double inverse;   // c_j
    double minusLog;  // -ln c_j
};
inline constexpr auto kLogTable = [] {
    std::array<LogEntry, 1 << kLogBits> t{};
    for (int j = 0; j < (1 << kLogBits); ++j) {
        const long double mid = 1.0L + (j + 0.5L) / (1 << kLogBits);
        const double c = static_cast<double>(1.0L / mid);
        t[j] = {c, static_cast<double>(logSeries(1.0L / c))};
    }
    return t;
}();

// 2^(-j/64), j in [0, 64).
inline constexpr int kExpBits = 6;
inline constexpr auto kExpTable = [] {
    std::array<double, 1 << kExpBits> t{};
    for (int j = 0; j < (1 << kExpBits); ++j) {
        // e^-y by its Taylor series, y = j ln 2 / 64 < ln 2.
        const long double y = j * 0.693147180559945309417232121458176568L / (1 << kExpBits);
        long double term = 1, sum = 1;
        for (int k = 1; k < 40; ++k) {
            term *= -y / k;
            sum += term;
        }
        t[j] = static_cast<double>(sum);
    }
    return t;
}();

}  // namespace fastmath

// ln x for a positive normal x, to about 1e-16 absolute near 1.
[[nodiscard]] inline double fastLog(double x) {
    using namespace fastmath;
    const auto bits = std::bit_cast<std::uint64_t>(x);
    const int exponent = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
    const double m = std::bit_cast<double>((bits & 0x000fffffffffffffull) | 0x3ff0000000000000ull);
    const LogEntry& entry = kLogTable[(bits >> (52 - kLogBits)) & ((1u << kLogBits) - 1)];
    const double u = std::fma(m, entry.inverse, -1.0);
    const double u2 = u * u;
    // u - u^2/2 + u^3/3 - u^4/4 + u^5/5 - u^6/6, evaluated in pairs (shorter chains).
    const double poly =
        (u - 0.5 * u2) + u2 * u * ((1.0 / 3 - 0.25 * u) + u2 * (0.2 - u * (1.0 / 6)));
    return exponent * kLn2 + entry.minusLog + poly;
}

// ln(a / b), exactly antisymmetric in a and b (the difference of two logarithms), so that
// logits of player 1 and of player 2 are exact negatives.
[[nodiscard]] inline double logRatio(double a, double b) {
    return fastLog(a) - fastLog(b);
}

// e^-x for x >= 0, to about 1e-16 relative: x = n ln 2 / 64 - r with |r| <= ln 2 / 128,
// e^-x = 2^-(n / 64) 2^-(n % 64 / 64) e^r, e^r by five terms of its series.
[[nodiscard]] inline double expNegative(double x) {
    using namespace fastmath;
    constexpr double kScale = (1 << kExpBits) / kLn2;
    // ln 2 / 64 in two parts, the first with trailing zero bits so that n times it is exact.
    constexpr double kStepHigh = 0x1.62e42fee00000p-7;
    constexpr double kStepLow = 0x1.a39ef35793c76p-39;
    x = std::min(x, 700.0);
    const int n = static_cast<int>(x * kScale + 0.5);
    const double r = (n * kStepHigh - x) + n * kStepLow;
    const double r2 = r * r;
    const double poly =
        (1.0 + r) + r2 * ((0.5 + r * (1.0 / 6)) + r2 * (1.0 / 24 + r * (1.0 / 120)));
    const double scale =
        std::bit_cast<double>(static_cast<std::uint64_t>(1023 - (n >> kExpBits)) << 52);
    return poly * kExpTable[n & ((1 << kExpBits) - 1)] * scale;
}

[[nodiscard]] inline double clampWin(double w) {
    return std::clamp(w, kEps, 1.0 - kEps);
}

// L(w) = ln(w / (1 - w)) / 2 = atanh(2w - 1), of a clamped win chance.
[[nodiscard]] inline double logit(double w) {
    w = clampWin(w);
    return 0.5 * logRatio(w, 1.0 - w);
}

// tanh, odd by construction, clamped to the value limit.
[[nodiscard]] inline double squash(double raw) {
    const double e = expNegative(2.0 * std::abs(raw));
    const double t = std::min((1.0 - e) / (1.0 + e), kValueLimit);
    return raw < 0 ? -t : t;
}

}  // namespace dejarik::eval
