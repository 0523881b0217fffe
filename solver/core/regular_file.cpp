#include "core/regular_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/errors.hpp"

namespace rastros {

RegularFile::RegularFile(const std::filesystem::path& path, std::uint64_t limit, std::string what,
                         const std::string& too_large)
    : path_(path), what_(std::move(what)) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd_ < 0) {
    if (errno == ENOENT) fail("missing");
    fail(std::string("cannot open: ") + std::strerror(errno));
  }
  struct stat status {};
  if (::fstat(fd_, &status) != 0) fail(std::string("cannot stat: ") + std::strerror(errno));
  if (!S_ISREG(status.st_mode)) fail("not a regular file");
  size_ = static_cast<std::uint64_t>(status.st_size);
  if (size_ > limit) fail(too_large);
}

RegularFile::~RegularFile() {
  if (fd_ >= 0) ::close(fd_);
}

void RegularFile::fail(const std::string& problem) const {
  throw FileError((what_.empty() ? "" : what_ + " ") + path_.string() + ": " + problem);
}

std::string RegularFile::read_at(std::uint64_t offset, std::uint64_t length) const {
  std::string bytes(std::min(length, size_ - std::min(offset, size_)), '\0');
  read_into(offset, {reinterpret_cast<unsigned char*>(bytes.data()), bytes.size()});
  return bytes;
}

void RegularFile::read_into(std::uint64_t offset, std::span<unsigned char> out) const {
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t got =
        ::pread(fd_, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) fail(std::string("cannot read: ") + std::strerror(errno));
    if (got == 0) fail("truncated while reading");
    done += static_cast<std::size_t>(got);
  }
}

}  // namespace rastros
