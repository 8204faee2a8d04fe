// Whether the test is built under AddressSanitizer or ThreadSanitizer (g++ names them by
// macros, clang by __has_feature). Both reserve terabytes of address space, which breaks the
// tests of address-space limits, and both run the code several times slower, which the
// longest random-play checks scale down for.
#pragma once

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define DEJARIK_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define DEJARIK_SANITIZED 1
#endif
#endif

namespace dejarik::testing {

#if defined(DEJARIK_SANITIZED)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

// The size of a sample-based check: under a sanitizer a `divisor`th of it (at least one),
// which still walks the code the check covers for memory and undefined-behaviour faults,
// while the optimised build compares every value of the whole sample.
constexpr int sampleSize(int n, int divisor = 4) {
    return kSanitized ? (n / divisor > 0 ? n / divisor : 1) : n;
}

}  // namespace dejarik::testing
