#pragma once
// A directory of its own for a test, removed (with everything in it) when the test ends.

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace rastros {

class TemporaryDirectory {
 public:
  /// Whether the directory exists from the start, or is left for the code under test to create.
  enum class Create { yes, no };

  /// A fresh path under the system's temporary directory: `prefix`, the process id and a count,
  /// so concurrent test processes and several directories in one test never collide.
  explicit TemporaryDirectory(std::string_view prefix, Create create = Create::yes)
      : path_(std::filesystem::temp_directory_path() /
              (std::string(prefix) + "-" + std::to_string(::getpid()) + "-" +
               std::to_string(counter_++))) {
    std::filesystem::remove_all(path_);
    if (create == Create::yes) std::filesystem::create_directories(path_);
  }
  ~TemporaryDirectory() {
    std::error_code ignored;
    // A test may have taken write permission away to make writes fail.
    std::filesystem::permissions(path_, std::filesystem::perms::owner_all,
                                 std::filesystem::perm_options::add, ignored);
    std::filesystem::remove_all(path_, ignored);
  }
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;

  const std::filesystem::path& path() const { return path_; }

  /// The names of the entries in the directory, sorted.
  std::vector<std::string> listing() const {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(path_)) {
      names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  static inline std::atomic<int> counter_{0};
  std::filesystem::path path_;
};

}  // namespace rastros
