// The main thread's stack, grown at start-up.
#pragma once

#include <cstddef>

namespace dejarik::protocol {

// The main thread's stack grows on demand, and growing takes address space: under an
// address-space limit (`ulimit -v`) whose headroom the hash or the mapped tables have taken,
// a deeper call than any before (a `Rules` value is 80 KiB) would fault instead of failing an
// allocation with an error line. Touching `bytes` of stack now keeps that much grown for the
// process's life (Linux never shrinks a stack mapping); within half the stack's own limit.
void reserveMainStack(std::size_t bytes);

// What the engine reserves: three times the deepest stack a DEI session was measured to use
// (332 KiB, `VmStk`, searches and tables in kelly and dalsian).
inline constexpr std::size_t kMainStackReserve = std::size_t{1} << 20;

}  // namespace dejarik::protocol
