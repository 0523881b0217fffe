#pragma once
// A parallel loop over index ranges that ThreadSanitizer understands (core/thread_sanitizer.hpp:
// Debian's TBB is not instrumented, so without the hand-off hints every read of what the caller
// wrote before the loop, or of what the tasks wrote after it, looks like a race).

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>

#include <cstddef>

#include "core/thread_sanitizer.hpp"

namespace rastros {

/// body(first, last) on sub-ranges covering [begin, end), in parallel, each at least `grain`
/// long where the range allows; what the caller wrote before is visible to the tasks and what the
/// tasks wrote is visible after.
template <class Body>
void parallel_for_ranges(std::size_t begin, std::size_t end, const Body& body,
                         std::size_t grain = 1) {
  int finished = 0;  // only its address matters: the tasks' results are published there
  oneapi::tbb::parallel_for(
      oneapi::tbb::blocked_range<std::size_t>(begin, end, grain),
      thread_sanitizer::handed_off([&](const oneapi::tbb::blocked_range<std::size_t>& range) {
        body(range.begin(), range.end());
        thread_sanitizer::publish(&finished);
      }));
  thread_sanitizer::acquire(&finished);
}

}  // namespace rastros
