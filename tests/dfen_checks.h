// DFEN helpers shared by the rules core's tests: a position that must parse, and the error
// of one that must not.
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "position.h"
#include "rules.h"

namespace dejarik::test {

// The rules must outlive the position.
inline Position at(const std::string& dfen, const Rules& rules) {
    std::string error;
    const auto pos = Position::fromDfen(dfen, rules, &error);
    REQUIRE_MESSAGE(pos, dfen << ": " << error);
    return *pos;
}

inline std::string dfenError(const std::string& dfen, const Rules& rules) {
    std::string error;
    CHECK_FALSE(Position::fromDfen(dfen, rules, &error));
    return error;
}

}  // namespace dejarik::test
