#pragma once
// A file size limit for a test while it lives: writes beyond `bytes` fail with EFBIG (SIGXFSZ
// ignored, as the tools ignore it, so the process survives). A real failure in the middle of a
// write that works as root too, unlike a read-only directory.

#include <sys/resource.h>

#include <csignal>

namespace rastros {

class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) : handler_(std::signal(SIGXFSZ, SIG_IGN)) {
    ::getrlimit(RLIMIT_FSIZE, &earlier_);
    rlimit limited = earlier_;
    limited.rlim_cur = bytes;
    active_ = ::setrlimit(RLIMIT_FSIZE, &limited) == 0;
  }
  ~FileSizeLimit() { lift(); }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

  /// False when the limit could not be set (the test should then fail or skip).
  bool active() const { return active_; }
  /// The earlier limit and signal handling back, before the end of the scope.
  void lift() {
    if (lifted_) return;
    lifted_ = true;
    if (active_) ::setrlimit(RLIMIT_FSIZE, &earlier_);
    std::signal(SIGXFSZ, handler_);
  }

 private:
  void (*handler_)(int);
  rlimit earlier_{};
  bool active_ = false;
  bool lifted_ = false;
};

}  // namespace rastros
