#include "core/huge_pages.hpp"

#include <cstdint>
#include <cstdlib>
#include <string_view>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace rastros {

void request_huge_pages(void* data, std::size_t size) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = (begin + kHugePage - 1) & ~(kHugePage - 1);
  const std::uintptr_t last = (begin + size) & ~(kHugePage - 1);
  // A failure (an old kernel, a region madvise refuses) only leaves the small pages.
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#else
  (void)data;
  (void)size;
#endif
}

bool huge_pages_allowed() noexcept {
  const char* setting = std::getenv("RASTROS_HUGE_PAGES");
  return !setting || std::string_view(setting) != "0";
}

SmallPagesOnly::SmallPagesOnly(bool on) : on_(on) {
  if (!on_) return;
  if (const char* value = std::getenv("RASTROS_HUGE_PAGES")) earlier_ = value;
  setenv("RASTROS_HUGE_PAGES", "0", 1);
}

SmallPagesOnly::~SmallPagesOnly() {
  if (!on_) return;
  if (earlier_) {
    setenv("RASTROS_HUGE_PAGES", earlier_->c_str(), 1);
  } else {
    unsetenv("RASTROS_HUGE_PAGES");
  }
}

}  // namespace rastros
