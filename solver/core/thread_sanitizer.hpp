#pragma once
// Happens-before hints for ThreadSanitizer across oneTBB task hand-offs.
//
// Debian's libtbb is not built with ThreadSanitizer, so TSan cannot see that spawning a task in
// one thread happens before the task runs in another: every read of data the spawner wrote
// looks like a race. These hooks tell it, and do nothing in other builds:
//   - `handed_off(f)` wraps a task body: constructing or copying the wrapper publishes it, and
//     running it first acquires what was published.
//   - `publish(&x)` at the end of a task, `acquire(&x)` after waiting for it, carry the task's
//     results back to the waiting thread.
// TBB's own inline code is then left to the suppressions in tests/thread_sanitizer.supp.

#include <concepts>
#include <utility>

#if defined(__SANITIZE_THREAD__)
#define RASTROS_THREAD_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RASTROS_THREAD_SANITIZER 1
#endif
#endif

#ifdef RASTROS_THREAD_SANITIZER
extern "C" void __tsan_acquire(void* address);
extern "C" void __tsan_release(void* address);
#endif

namespace rastros::thread_sanitizer {

inline void publish([[maybe_unused]] const void* address) {
#ifdef RASTROS_THREAD_SANITIZER
  __tsan_release(const_cast<void*>(address));
#endif
}

inline void acquire([[maybe_unused]] const void* address) {
#ifdef RASTROS_THREAD_SANITIZER
  __tsan_acquire(const_cast<void*>(address));
#endif
}

/// Publishes `token` when it goes out of scope: a task's results, on every way out of it.
class PublishOnExit {
 public:
  explicit PublishOnExit(const void* token) : token_(token) {}
  ~PublishOnExit() { publish(token_); }
  PublishOnExit(const PublishOnExit&) = delete;
  PublishOnExit& operator=(const PublishOnExit&) = delete;

 private:
  const void* token_;
};

template <class Function>
class HandedOff {
 public:
  explicit HandedOff(Function function) : function_(std::move(function)) { publish(this); }
  HandedOff(const HandedOff& other) : function_(other.function_) { publish(this); }
  HandedOff(HandedOff&& other) noexcept : function_(std::move(other.function_)) { publish(this); }

  template <class... Arguments>
  requires std::invocable<const Function&, Arguments...>
  void operator()(Arguments&&... arguments) const {
    acquire(this);
    function_(std::forward<Arguments>(arguments)...);
  }

 private:
  Function function_;
};

template <class Function>
HandedOff<Function> handed_off(Function function) {
  return HandedOff<Function>(std::move(function));
}

}  // namespace rastros::thread_sanitizer
