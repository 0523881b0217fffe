#include "core/scratch_memory.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_set>

#include "core/errors.hpp"

namespace rastros {

namespace {

struct Scratch {
  std::mutex mutex;
  std::filesystem::path directory;
  std::size_t min_bytes = kScratchMinBytes;
  std::unordered_set<const void*> mapped;
  std::uint64_t mapped_ever = 0;
};

Scratch& scratch() {
  static Scratch state;
  return state;
}

// A new file of `bytes` in `directory`, already unlinked: its descriptor, or -1 with errno.
int unlinked_file(const std::filesystem::path& directory, std::size_t bytes) {
  std::string name = (directory / "rastros-scratch.XXXXXX").string();
  const int fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0) return -1;
  ::unlink(name.c_str());
  if (::ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
    const int error = errno;
    ::close(fd);
    errno = error;
    return -1;
  }
  return fd;
}

// `bytes` mapped from a new file in `directory` (zero-filled, as a new file reads). Throws
// FileError naming the directory and the cause: a full file system, no right to write there.
void* map_file(const std::filesystem::path& directory, std::size_t bytes) {
  const auto fail = [&](int error) {
    return FileError("--scratch " + quote_input(directory.string()) + ": cannot hold " +
                     std::to_string(bytes) + " more bytes (" + std::strerror(error) + ")");
  };
  const int fd = unlinked_file(directory, bytes);
  if (fd < 0) throw fail(errno);
  // The file's blocks are allocated now, so that a full file system is this error rather
  // than a SIGBUS at the first touch of a page it could not hold.
  if (const int error = ::posix_fallocate(fd, 0, static_cast<off_t>(bytes)); error != 0) {
    ::close(fd);
    throw fail(error);
  }
  void* block = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  const int error = errno;
  ::close(fd);  // the mapping keeps the file
  if (block == MAP_FAILED) throw fail(error);
  return block;
}

}  // namespace

void set_scratch_directory(const std::filesystem::path& directory, std::size_t min_bytes) {
  if (!directory.empty()) {
    std::error_code error;
    if (!std::filesystem::is_directory(directory, error)) {
      throw InputError("--scratch " + quote_input(directory.string()) + ": not a directory");
    }
    const int fd = unlinked_file(directory, 0);
    if (fd < 0) {
      throw InputError("--scratch " + quote_input(directory.string()) +
                       ": cannot create a file there (" + std::strerror(errno) + ")");
    }
    ::close(fd);
  }
  const std::lock_guard lock(scratch().mutex);
  scratch().directory = directory;
  scratch().min_bytes = min_bytes;
}

std::size_t scratch_min_bytes() {
  const char* text = std::getenv("RASTROS_TEST_SCRATCH_MIN_BYTES");
  const long long value = text ? std::atoll(text) : 0;
  return value > 0 ? static_cast<std::size_t>(value) : kScratchMinBytes;
}

std::uint64_t scratch_blocks_mapped() {
  const std::lock_guard lock(scratch().mutex);
  return scratch().mapped_ever;
}

std::filesystem::path scratch_directory() {
  const std::lock_guard lock(scratch().mutex);
  return scratch().directory;
}

void* scratch_allocate(std::size_t bytes) {
  {
    Scratch& state = scratch();
    const std::lock_guard lock(state.mutex);
    if (!state.directory.empty() && bytes >= state.min_bytes && bytes > 0) {
      void* block = map_file(state.directory, bytes);
      try {
        state.mapped.insert(block);
      } catch (...) {
        ::munmap(block, bytes);
        throw;
      }
      ++state.mapped_ever;
      return block;
    }
  }
  return ::operator new(bytes == 0 ? 1 : bytes);
}

void scratch_free(void* block, std::size_t bytes) noexcept {
  if (!block) return;
  {
    // Whatever the settings now: they may have changed since the block was made.
    Scratch& state = scratch();
    const std::lock_guard lock(state.mutex);
    if (state.mapped.erase(block) != 0) {
      ::munmap(block, bytes);
      return;
    }
  }
  ::operator delete(block);
}

bool scratch_is_mapped(const void* block) {
  const std::lock_guard lock(scratch().mutex);
  return scratch().mapped.count(block) != 0;
}

}  // namespace rastros
