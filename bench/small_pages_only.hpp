#pragma once
// The benchmarks' baseline without huge pages: RASTROS_HUGE_PAGES=0 for one benchmark.

#include <cstdlib>
#include <optional>
#include <string>

namespace rastros {

/// RASTROS_HUGE_PAGES=0 while it lives, when `on`; the variable's earlier value after.
class SmallPagesOnly {
 public:
  explicit SmallPagesOnly(bool on) : on_(on) {
    if (!on_) return;
    if (const char* value = std::getenv("RASTROS_HUGE_PAGES")) earlier_ = value;
    setenv("RASTROS_HUGE_PAGES", "0", 1);
  }
  ~SmallPagesOnly() {
    if (!on_) return;
    if (earlier_) {
      setenv("RASTROS_HUGE_PAGES", earlier_->c_str(), 1);
    } else {
      unsetenv("RASTROS_HUGE_PAGES");
    }
  }
  SmallPagesOnly(const SmallPagesOnly&) = delete;
  SmallPagesOnly& operator=(const SmallPagesOnly&) = delete;

 private:
  bool on_;
  std::optional<std::string> earlier_;
};

}  // namespace rastros
