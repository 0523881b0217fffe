#pragma once
// Ctrl-C and SIGTERM for long jobs: the first one asks the job to stop at its next safe point
// (after saving a checkpoint); a second one kills the process the usual way.

#include <atomic>
#include <functional>
#include <thread>

namespace rastros::tools {

/// Installs the handlers (once) and returns the flag they set.
const std::atomic<bool>& stop_requested();

/// The signal that set the flag (SIGINT or SIGTERM), 0 if none.
int stop_signal();

/// While it lives, calls `stop` (once) from a thread of its own as soon as Ctrl-C or SIGTERM
/// is received: how a long search is asked to stop at its next safe point.
class StopWatcher {
 public:
  explicit StopWatcher(std::function<void()> stop);
  ~StopWatcher();
  StopWatcher(const StopWatcher&) = delete;
  StopWatcher& operator=(const StopWatcher&) = delete;

 private:
  std::atomic<bool> done_{false};
  std::thread thread_;
};

/// The conventional exit status of a job stopped by `stop_signal()`: 128 + the signal number.
int stopped_exit_status();

}  // namespace rastros::tools
