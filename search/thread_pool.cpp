#include "thread_pool.h"

#include <condition_variable>
#include <mutex>
#include <thread>
#include <utility>

namespace dejarik::search {

// One thread that sleeps until it is handed a job, runs it, and sleeps again.
class ThreadPool::JobThread {
  public:
    JobThread() : thread_([this] { loop(); }) {}
    ~JobThread() {
        {
            std::unique_lock lock(mutex_);
            idle_.wait(lock, [this] { return !busy_; });
            quit_ = true;
        }
        wake_.notify_one();
        thread_.join();
    }
    JobThread(const JobThread&) = delete;
    JobThread& operator=(const JobThread&) = delete;

    void launch(std::function<void()> job) {
        {
            std::unique_lock lock(mutex_);
            idle_.wait(lock, [this] { return !busy_; });
            job_ = std::move(job);
            busy_ = true;
        }
        wake_.notify_one();
    }

    void wait() {
        std::unique_lock lock(mutex_);
        idle_.wait(lock, [this] { return !busy_; });
    }

  private:
    void loop() {
        std::unique_lock lock(mutex_);
        for (;;) {
            wake_.wait(lock, [this] { return busy_ || quit_; });
            if (!busy_) return;  // quit, with nothing left to do
            std::function<void()> job = std::exchange(job_, nullptr);
            lock.unlock();
            job();
            // What the job holds goes before anyone waiting hears it is done.
            job = nullptr;
            lock.lock();
            busy_ = false;
            idle_.notify_all();
        }
    }

    std::mutex mutex_;
    std::condition_variable wake_;  // busy_ or quit_ for the thread
    std::condition_variable idle_;  // the job in hand has returned
    std::function<void()> job_;     // handed over, not yet taken by the thread
    bool busy_ = false;             // from launch() until the job has returned
    bool quit_ = false;
    std::thread thread_;  // last: it starts running loop() on the members above
};

ThreadPool::ThreadPool(int size) {
    resize(size);
}

ThreadPool::~ThreadPool() = default;

void ThreadPool::resize(int size) {
    while (static_cast<int>(threads_.size()) > size)
        threads_.pop_back();
    while (static_cast<int>(threads_.size()) < size)
        threads_.push_back(std::make_unique<JobThread>());
}

void ThreadPool::launch(int i, std::function<void()> job) {
    threads_[static_cast<std::size_t>(i)]->launch(std::move(job));
}

void ThreadPool::wait(int i) {
    threads_[static_cast<std::size_t>(i)]->wait();
}

}  // namespace dejarik::search
