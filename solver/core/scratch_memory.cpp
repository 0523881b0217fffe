#include "core/scratch_memory.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

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

// A new file of `bytes` in `directory`, already unlinked: its descriptor, or -1.
int unlinked_file(const std::filesystem::path& directory, std::size_t bytes) {
  std::string name = (directory / "rastros-scratch.XXXXXX").string();
  const int fd = ::mkstemp(name.data());
  if (fd < 0) return -1;
  ::unlink(name.c_str());
  if (::ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// `bytes` mapped from a new file in `directory` (zero-filled, as a new file reads), or nullptr.
void* map_file(const std::filesystem::path& directory, std::size_t bytes) {
  const int fd = unlinked_file(directory, bytes);
  if (fd < 0) return nullptr;
  // The file's blocks are allocated now, so that a full file system is an allocation failure
  // here rather than a SIGBUS at the first touch of a page it could not hold.
  if (::posix_fallocate(fd, 0, static_cast<off_t>(bytes)) != 0) {
    ::close(fd);
    return nullptr;
  }
  void* block = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);  // the mapping keeps the file
  return block == MAP_FAILED ? nullptr : block;
}

}  // namespace

void set_scratch_directory(const std::filesystem::path& directory, std::size_t min_bytes) {
  if (!directory.empty()) {
    std::error_code error;
    if (!std::filesystem::is_directory(directory, error)) {
      throw InputError("--scratch " + directory.string() + ": not a directory");
    }
    const int fd = unlinked_file(directory, 0);
    if (fd < 0) {
      throw InputError("--scratch " + directory.string() + ": cannot create a file there (" +
                       std::strerror(errno) + ")");
    }
    ::close(fd);
  }
  const std::lock_guard lock(scratch().mutex);
  scratch().directory = directory;
  scratch().min_bytes = min_bytes;
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
      if (!block) throw std::bad_alloc();
      state.mapped.insert(block);
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
