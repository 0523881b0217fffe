#pragma once
// Progress lines on stderr for long searches: started with the work, stopped when it ends.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace rastros::tools {

/// Calls `line()` and prints it on stderr once a second, starting after the first second,
/// until destroyed. Does nothing when `enabled` is false.
class ProgressReporter {
 public:
  ProgressReporter(bool enabled, std::function<std::string(double seconds)> line);
  ~ProgressReporter();
  ProgressReporter(const ProgressReporter&) = delete;
  ProgressReporter& operator=(const ProgressReporter&) = delete;

 private:
  std::function<std::string(double)> line_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  bool printed_ = false;
  std::thread thread_;
};

/// "1.2 GiB" style sizes and "3.4 M" style counts for humans.
std::string human_count(double value);
/// The machine's physical memory in bytes (0 when the system does not say).
double physical_memory_bytes();
/// Parses "512M", "2G", "1.5GiB", "65536" into bytes; refuses more than the machine has (a
/// size to allocate). Throws InputError.
std::size_t parse_memory_size(const std::string& text);
/// The same, "0" accepted, whatever the machine has (a threshold, not an allocation).
std::size_t parse_size(const std::string& text);

}  // namespace rastros::tools
