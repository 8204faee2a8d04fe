#include "memory.h"

#include <algorithm>

#if __has_include(<sys/mman.h>)
#include <sys/mman.h>
#endif

namespace dejarik::search {

void* allocateLarge(std::size_t bytes) {
    constexpr std::size_t kHugePage = std::size_t{2} << 20;
    const std::size_t alignment = bytes >= kHugePage ? kHugePage : 64;
    const std::size_t size =
        (std::max<std::size_t>(bytes, 1) + alignment - 1) / alignment * alignment;
    void* memory = std::aligned_alloc(alignment, size);
    if (!memory) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    if (alignment == kHugePage) madvise(memory, size, MADV_HUGEPAGE);  // a hint: may be refused
#endif
    return memory;
}

}  // namespace dejarik::search
