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
