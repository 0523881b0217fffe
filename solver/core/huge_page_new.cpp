// The program's operator new: malloc, and for large blocks a request for transparent huge pages
// (core/huge_pages.hpp), so that every large vector of the solver gets them without its own
// allocator type. Linked into the rastros program and the benchmarks (an object library, not
// part of rastros_solver: replacing operator new is the program's choice, not a library's).
//
// Left out of sanitizer builds: ASan, TSan and MSan bring their own operator new, which their
// checks depend on.

// GCC names the sanitizers with macros; Clang (before version 22) only through __has_feature.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define RASTROS_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define RASTROS_SANITIZED 1
#endif

#ifndef RASTROS_SANITIZED

#include <cstdlib>
#include <new>

#include "core/huge_pages.hpp"

namespace {

/// huge_pages_allowed(), read once: this runs on every large allocation.
bool requests_huge_pages() {
  static const bool requested = rastros::huge_pages_allowed();
  return requested;
}

void* allocate(std::size_t size) {
  for (;;) {
    if (void* data = std::malloc(size ? size : 1)) {
      if (size >= rastros::kHugePageRequestBytes && requests_huge_pages()) {
        rastros::request_huge_pages(data, size);
      }
      return data;
    }
    const std::new_handler handler = std::get_new_handler();
    if (!handler) throw std::bad_alloc();
    handler();
  }
}

}  // namespace

void* operator new(std::size_t size) {
  return allocate(size);
}
void* operator new[](std::size_t size) {
  return allocate(size);
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return allocate(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return allocate(size);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* data) noexcept {
  std::free(data);
}
void operator delete[](void* data) noexcept {
  std::free(data);
}
void operator delete(void* data, std::size_t) noexcept {
  std::free(data);
}
void operator delete[](void* data, std::size_t) noexcept {
  std::free(data);
}
void operator delete(void* data, const std::nothrow_t&) noexcept {
  std::free(data);
}
void operator delete[](void* data, const std::nothrow_t&) noexcept {
  std::free(data);
}

#endif
