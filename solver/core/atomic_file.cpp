#include "core/atomic_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <system_error>

#include "core/errors.hpp"

namespace rastros {

std::filesystem::path replaceable_file(const std::filesystem::path& path, std::string_view what) {
  std::error_code error;
  // What the name leads to, links followed by the kernel (/dev/stdout to a pipe, say).
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    const char* kind = std::filesystem::is_directory(status) ? "a directory" : "not a regular file";
    throw InputError(std::string(what) + " " + path.string() + " is " + kind +
                     ": give the name of a file to write");
  }
  // The name to replace: links followed by hand, since a link to a file not written yet leads
  // to where it will be.
  std::filesystem::path target = path;
  for (int links = 0; std::filesystem::is_symlink(std::filesystem::symlink_status(target, error));
       ++links) {
    const std::filesystem::path next = std::filesystem::read_symlink(target, error);
    if (error || links == 40) {
      throw InputError(std::string(what) + " " + path.string() +
                       ": cannot follow the symbolic link" +
                       (error ? ": " + error.message() : std::string(" (a loop?)")));
    }
    target = next.is_absolute() ? next : target.parent_path() / next;
    // /dev/stdout and the like lead through /proc to whatever a descriptor has open (a file
    // appended to, a deleted file): replacing that is never what was meant.
    if (target.string().starts_with("/proc/")) {
      throw InputError(std::string(what) + " " + path.string() +
                       " is an open descriptor's name, not a file's: give the name of a file "
                       "to write");
    }
  }
  return target;
}

namespace {

// The process id of a temporary file's name "NAME.tmp.PID.N" written for `name`, 0 when the
// file name is not of that shape.
pid_t temporary_owner(const std::string& file, const std::string& name) {
  const std::string prefix = name + ".tmp.";
  if (!file.starts_with(prefix)) return 0;
  const std::string rest = file.substr(prefix.size());
  const std::size_t dot = rest.find('.');
  const auto digits = [](std::string_view text) {
    return !text.empty() && text.size() <= 10 &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (dot == std::string::npos || !digits(std::string_view(rest).substr(0, dot)) ||
      !digits(std::string_view(rest).substr(dot + 1))) {
    return 0;
  }
  const long pid = std::stol(rest.substr(0, dot));
  return pid > 0 && pid <= INT32_MAX ? static_cast<pid_t>(pid) : 0;
}

bool process_is_gone(pid_t pid) {
  return ::kill(pid, 0) != 0 && errno == ESRCH;
}

}  // namespace

void remove_stale_temporaries(const std::filesystem::path& path) {
  const std::filesystem::path directory =
      path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  const std::string name = path.filename().string();
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    const pid_t owner = temporary_owner(entry.path().filename().string(), name);
    // Only regular files of writers that are gone: a live writer's file (this process's among
    // them) is its own, and a link or anything else under such a name is not ours to remove.
    if (owner == 0 || owner == ::getpid() || !process_is_gone(owner)) continue;
    if (entry.is_symlink(error) || !entry.is_regular_file(error)) continue;
    std::filesystem::remove(entry.path(), error);
  }
}

AtomicFileWriter::AtomicFileWriter(const std::filesystem::path& path, std::string_view what)
    : path_(replaceable_file(path, what)), what_(what) {
  // A killed run leaves its temporary file behind; the next write of the same file clears it.
  remove_stale_temporaries(path_);
  // A unique name in the target directory, so the rename is atomic (same file system) and two
  // writers never share a temporary file; O_EXCL never opens a file or link already there.
  std::random_device entropy;
  for (int attempt = 0; fd_ < 0; ++attempt) {
    temporary_ = path_;
    temporary_ += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(entropy());
    // Readable and writable as the umask allows, like any file a program creates.
    fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ < 0 && (errno != EEXIST || attempt > 100)) {
      fail("cannot create " + temporary_.string(), errno);
    }
  }
}

AtomicFileWriter::~AtomicFileWriter() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temporary_.empty()) ::unlink(temporary_.c_str());
}

void AtomicFileWriter::fail(const std::string& step, int error) const {
  throw std::system_error(error, std::generic_category(),
                          "writing " + what_ + " " + path_.string() + ": " + step);
}

void AtomicFileWriter::discard_and_fail(const std::string& step, int error) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temporary_.empty()) ::unlink(temporary_.c_str());
  temporary_.clear();
  fail(step, error);
}

void AtomicFileWriter::write(std::span<const unsigned char> bytes) {
  if (fd_ < 0) fail("written to after it was committed or given up", EBADF);
  // The crash-safety test (tests/crash_safety_test.sh) widens the window in which a kill lands
  // inside the write: with RASTROS_TEST_WRITE_PAUSE_US set, the file is written in 4 KiB
  // pieces with that pause between them. Unset (always, outside that test), one write.
  static const long pause_us = [] {
    const char* text = std::getenv("RASTROS_TEST_WRITE_PAUSE_US");
    return text ? std::max(0L, std::atol(text)) : 0L;
  }();
  const std::size_t piece = pause_us > 0 ? std::size_t{1} << 12 : bytes.size();
  std::size_t written = 0;
  while (written < bytes.size()) {
    if (pause_us > 0 && written > 0) ::usleep(static_cast<useconds_t>(pause_us));
    const ssize_t n = ::write(fd_, bytes.data() + written, std::min(piece, bytes.size() - written));
    if (n < 0 && errno == EINTR) continue;
    // Given up at once: what was written can never be committed as if it were whole.
    if (n <= 0) discard_and_fail("write failed", n < 0 ? errno : EIO);
    written += static_cast<std::size_t>(n);
  }
}

void AtomicFileWriter::commit() {
  if (fd_ < 0) fail("committed after it was committed or given up", EBADF);
  // A failed step leaves the final name as it was and removes the temporary file at once.
  // The data must be on disk before the rename makes it visible under the final name;
  // otherwise a crash could leave a complete-looking name over incomplete contents.
  if (::fsync(fd_) != 0) discard_and_fail("fsync failed", errno);
  const int closed = ::close(fd_);
  fd_ = -1;
  if (closed != 0) discard_and_fail("close failed", errno);
  if (::rename(temporary_.c_str(), path_.c_str()) != 0) discard_and_fail("rename failed", errno);
  committed_ = true;
  // Make the rename itself durable. Failure here leaves a complete file in place, so it is
  // not worth an exception on file systems that refuse to fsync a directory.
  const std::filesystem::path directory =
      path_.has_parent_path() ? path_.parent_path() : std::filesystem::path(".");
  const int directory_fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (directory_fd >= 0) {
    ::fsync(directory_fd);
    ::close(directory_fd);
  }
}

void write_file_atomically(const std::filesystem::path& path, std::span<const unsigned char> bytes,
                           std::string_view what) {
  AtomicFileWriter file(path, what);
  file.write(bytes);
  file.commit();
}

}  // namespace rastros
