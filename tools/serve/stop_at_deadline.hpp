#pragma once
// Stops a game's search at its request's deadline or when the server stops (the games'
// solvers have no deadline of their own): a thread that waits for either while the search
// runs, then calls `stop` (the solver's stop(), safe from any thread).

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace rastros::tools::serve {

class StopAtDeadline {
 public:
  StopAtDeadline(std::function<void()> stop, const std::atomic<bool>& stopped,
                 std::chrono::steady_clock::time_point deadline)
      : thread_([this, stop = std::move(stop), &stopped, deadline] {
          std::unique_lock lock(mutex_);
          while (!done_) {
            if (stopped.load() || std::chrono::steady_clock::now() >= deadline) {
              stop();
              return;
            }
            // Short waits: the server's stop flag is not signalled to this thread.
            wake_.wait_for(lock, std::chrono::milliseconds(20));
          }
        }) {}
  ~StopAtDeadline() {
    {
      const std::lock_guard lock(mutex_);
      done_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }
  StopAtDeadline(const StopAtDeadline&) = delete;
  StopAtDeadline& operator=(const StopAtDeadline&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;  // last: it starts once the members it uses exist
};

}  // namespace rastros::tools::serve
