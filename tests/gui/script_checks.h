// The checks of the GUI's scripted tests (browser, clients): a failed check throws, so that
// the failure unwinds to main and the server and the browser (ChildProcess) are ended on
// the way out instead of being left running; a passed one is printed.
#pragma once

#include <iostream>
#include <stdexcept>
#include <string>

namespace dejarik::testing {

struct Failure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

[[noreturn]] inline void fail(const std::string& what) {
    throw Failure(what);
}

inline void check(bool ok, const std::string& what) {
    if (!ok) fail(what);
    std::cout << "ok: " << what << "\n";
}

}  // namespace dejarik::testing
