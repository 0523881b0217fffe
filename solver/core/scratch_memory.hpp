#pragma once
// Large working arrays kept in files instead of anonymous memory, so that a computation whose
// arrays outgrow the machine's memory still runs: the kernel writes their pages out to the
// files under memory pressure and reads them back when they are touched, where anonymous
// memory (with no swap) would get the process killed. Where the arrays fit, the pages stay in
// memory and the cost is the kernel's background writeback; where they do not, every page not
// held is a disk read, so it is a way to finish, not a fast one.
//
// Off by default. `solve --game oware --db ... --scratch DIR` turns it on for the endgame
// database's level solves (their per-board arrays and the attractors' frontiers). Each block
// is a file created in DIR and unlinked at once: nothing is left behind, even by a killed run.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <new>

namespace rastros {

/// Blocks smaller than this stay in ordinary memory: a file each would cost more than it saves.
inline constexpr std::size_t kScratchMinBytes = std::size_t{1} << 20;

/// Puts later scratch_allocate() blocks of `min_bytes` or more in files in `directory` (empty:
/// ordinary memory again). Process-wide. Throws InputError when `directory` is not a directory
/// in which a file can be created.
void set_scratch_directory(const std::filesystem::path& directory,
                           std::size_t min_bytes = kScratchMinBytes);
std::filesystem::path scratch_directory();
/// How many blocks have been mapped from files since the process began (for the tests).
std::uint64_t scratch_blocks_mapped();

/// kScratchMinBytes, or RASTROS_TEST_SCRATCH_MIN_BYTES when set: the tests' command-line
/// builds are small, and map their blocks only with a smaller threshold.
std::size_t scratch_min_bytes();

/// `bytes` of memory, uninitialised: a mapped file in the scratch directory when one is set and
/// the block is large enough, else operator new. Throws FileError naming the directory when
/// the file cannot be had (the file system full, for one), std::bad_alloc as operator new.
void* scratch_allocate(std::size_t bytes);
/// Gives back a block of scratch_allocate(bytes).
void scratch_free(void* block, std::size_t bytes) noexcept;
/// Whether `block` is a mapped file (for the tests).
bool scratch_is_mapped(const void* block);

/// A standard allocator over scratch_allocate, for the std::vector of a large working array.
template <class T>
struct ScratchAllocator {
  using value_type = T;
  ScratchAllocator() = default;
  template <class U>
  ScratchAllocator(const ScratchAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_array_new_length();
    return static_cast<T*>(scratch_allocate(n * sizeof(T)));
  }
  void deallocate(T* block, std::size_t n) noexcept { scratch_free(block, n * sizeof(T)); }
  template <class U>
  bool operator==(const ScratchAllocator<U>&) const noexcept {
    return true;
  }
};

}  // namespace rastros
