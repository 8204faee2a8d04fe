// VERIFY(cond): REQUIRE for checks that run millions of times. doctest is called only when
// one fails, so that its bookkeeping does not dominate the run time (and the assertion
// count); a failure reports as REQUIRE does.
#pragma once

#include <doctest/doctest.h>

#define VERIFY(...)               \
    do {                          \
        if (!(__VA_ARGS__)) {     \
            REQUIRE(__VA_ARGS__); \
        }                         \
    } while (false)
