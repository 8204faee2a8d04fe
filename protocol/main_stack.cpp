#include "main_stack.h"

#include <sys/resource.h>

#include <algorithm>

namespace dejarik::protocol {

namespace {

// Not inlined, so the block lies below the caller's frame and goes when this returns; the
// mapping it grew stays. Pages are touched from the top down, as a growing stack is.
[[gnu::noinline]] void touchBelow(std::size_t bytes) {
    constexpr std::size_t kPage = 4096;
    auto* block = static_cast<volatile char*>(__builtin_alloca(bytes));
    for (std::size_t at = bytes; at >= kPage; at -= kPage)
        block[at - kPage] = 0;
}

}  // namespace

void reserveMainStack(std::size_t bytes) {
    rlimit limit{};
    if (getrlimit(RLIMIT_STACK, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
        bytes = std::min<std::size_t>(bytes, limit.rlim_cur / 2);
    touchBelow(bytes);
}

}  // namespace dejarik::protocol
