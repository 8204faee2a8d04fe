// Independent tasks over an index range on a few threads: how the tables' generators solve
// the sets of one size at once.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace dejarik::tables {

// Calls task(i) once for every i in [first, last), on up to `threads` threads (the caller's
// among them). After a task throws no task starts; once every thread is done, the first
// exception is rethrown.
template <typename Task>
void forEachIndex(std::size_t first, std::size_t last, int threads, Task&& task) {
    std::atomic<std::size_t> next{first};
    std::mutex mutex;
    std::exception_ptr failure;
    const auto work = [&] {
        for (;;) {
            const std::size_t i = next.fetch_add(1);
            if (i >= last) return;
            {
                const std::lock_guard lock(mutex);
                if (failure) return;
            }
            try {
                task(i);
            } catch (...) {
                const std::lock_guard lock(mutex);
                if (!failure) failure = std::current_exception();
            }
        }
    };
    const std::size_t count = last > first ? last - first : 0;
    const int n = static_cast<int>(
        std::max<std::size_t>(1, std::min(static_cast<std::size_t>(std::max(threads, 1)), count)));
    std::vector<std::thread> pool;
    for (int t = 1; t < n; ++t)
        pool.emplace_back(work);
    work();
    for (std::thread& t : pool)
        t.join();
    if (failure) std::rethrow_exception(failure);
}

}  // namespace dejarik::tables
