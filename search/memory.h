// Large tables read at random (the transposition table, the evaluation cache): aligned to
// 2 MiB and offered to the kernel as transparent huge pages. With 4 KiB pages nearly every
// probe of such a table also misses the TLB.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>

namespace dejarik::search {

// At least `bytes` of memory from std::aligned_alloc, huge-page aligned from 2 MiB up;
// throws std::bad_alloc. Release with std::free.
[[nodiscard]] void* allocateLarge(std::size_t bytes);

struct FreeLarge {
    void operator()(void* memory) const { std::free(memory); }
};

// An array of value-initialised T in such memory. T must need no destructor.
template <class T>
using LargeArray = std::unique_ptr<T[], FreeLarge>;

template <class T>
[[nodiscard]] LargeArray<T> makeLargeArray(std::size_t count) {
    static_assert(std::is_trivially_destructible_v<T>);
    auto* memory = static_cast<T*>(allocateLarge(count * sizeof(T)));
    for (std::size_t i = 0; i < count; ++i)
        new (&memory[i]) T();
    return LargeArray<T>(memory);
}

}  // namespace dejarik::search
