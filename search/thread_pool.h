// Threads kept alive from search to search: starting a search hands each one a job instead
// of creating a thread, and their per-thread state (the search's workers) stays with them.
#pragma once

#include <functional>
#include <memory>
#include <vector>

namespace dejarik::search {

class ThreadPool {
  public:
    explicit ThreadPool(int size = 0);
    ~ThreadPool();  // waits for the jobs in hand, then joins every thread
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    // Adds or joins threads; those that stay keep running. Not while a job runs.
    void resize(int size);
    [[nodiscard]] int size() const { return static_cast<int>(threads_.size()); }

    // Non-blocking: thread i runs `job` once it has finished the job it has in hand.
    void launch(int i, std::function<void()> job);
    // Blocking: returns once thread i has no job in hand (its last job has returned).
    void wait(int i);

  private:
    class JobThread;
    std::vector<std::unique_ptr<JobThread>> threads_;
};

}  // namespace dejarik::search
