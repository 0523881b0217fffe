#pragma once
// A file open for reading at any offset (pread: safe from several threads), checked on opening
// to be a regular file (a pipe or a device would block or never end) and no larger than a
// limit. Errors are FileError "WHAT PATH: PROBLEM" ("PATH: PROBLEM" when `what` is empty).

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

namespace rastros {

class RegularFile {
 public:
  /// `too_large`: the problem named when the file is over `limit` bytes.
  RegularFile(const std::filesystem::path& path, std::uint64_t limit, std::string what = "",
              const std::string& too_large = "larger than any such file");
  ~RegularFile();
  RegularFile(const RegularFile&) = delete;
  RegularFile& operator=(const RegularFile&) = delete;

  std::uint64_t size() const { return size_; }
  const std::filesystem::path& path() const { return path_; }

  /// The first `length` bytes (at most the file's size).
  std::string read(std::uint64_t length) const { return read_at(0, length); }
  /// `length` bytes from `offset` (at most to the file's end).
  std::string read_at(std::uint64_t offset, std::uint64_t length) const;
  /// Fills `out` from `offset`; fails when the file ends first.
  void read_into(std::uint64_t offset, std::span<unsigned char> out) const;

  /// The error "WHAT PATH: PROBLEM" about this file.
  [[noreturn]] void fail(const std::string& problem) const;

 private:
  std::filesystem::path path_;
  std::string what_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

}  // namespace rastros
