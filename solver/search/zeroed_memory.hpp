#pragma once
// Zero-filled memory blocks for tables: mapped lazily, so untouched pages cost nothing, and put
// on huge pages, small blocks at once and large ones once they are mostly in use
// (core/huge_page_upgrade.hpp); the search's small tables below 1 MiB from the heap
// (for_small_table).

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <utility>

#include "core/huge_page_upgrade.hpp"

namespace rastros {

class ZeroedMemory {
 public:
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;

  ZeroedMemory() = default;
  /// `filled_at_once`: see HugePageUpgrade.
  explicit ZeroedMemory(std::size_t bytes, bool filled_at_once = false) {
    mapped_bytes_ = bytes + kHugePage;
    void* mapped = mmap(nullptr, mapped_bytes_, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mapped == MAP_FAILED) throw std::bad_alloc();
    mapped_ = mapped;
    const auto address = reinterpret_cast<std::uintptr_t>(mapped);
    data_ = reinterpret_cast<void*>((address + kHugePage - 1) & ~(kHugePage - 1));
    upgrade_ = std::make_unique<HugePageUpgrade>(data_, bytes, filled_at_once);
  }
  ~ZeroedMemory() {
    upgrade_.reset();  // the watcher stops before its pages go
    if (mapped_) munmap(mapped_, mapped_bytes_);
  }
  ZeroedMemory(ZeroedMemory&& other) noexcept { *this = std::move(other); }
  ZeroedMemory& operator=(ZeroedMemory&& other) noexcept {
    std::swap(mapped_, other.mapped_);
    std::swap(mapped_bytes_, other.mapped_bytes_);
    std::swap(data_, other.data_);
    std::swap(upgrade_, other.upgrade_);
    std::swap(heap_, other.heap_);
    return *this;
  }

  void* data() const { return data_; }

  /// Zeroed memory for a search's small hash tables (the move memory, the goal pocket values),
  /// which the search fills whole as soon as it starts. Below 1 MiB, from the heap: solvers
  /// built one after another (`rastros serve`, one per request) reuse memory already mapped.
  /// From 1 MiB up, mapped here and rounded up to whole 2 MiB pages asked onto huge pages at
  /// once: filling a 1 MiB table page by page took 256 faults of about 10 us each on the
  /// development machine's virtual machine, 2.7 ms per table, 5 ms of a 0.23 s
  /// `rastros solve --value-only` for the two (one fault each on a huge page).
  static ZeroedMemory for_small_table(std::size_t bytes) {
    ZeroedMemory memory;
    if (bytes < kHugePage / 2) {
      memory.heap_ = std::make_unique<std::uint64_t[]>((bytes + 7) / 8);
      memory.data_ = memory.heap_.get();
    } else {
      memory = ZeroedMemory((bytes + kHugePage - 1) & ~(kHugePage - 1), true);
    }
    return memory;
  }

 private:
  void* mapped_ = nullptr;
  std::size_t mapped_bytes_ = 0;
  void* data_ = nullptr;
  std::unique_ptr<HugePageUpgrade> upgrade_;
  std::unique_ptr<std::uint64_t[]> heap_;  // for_small_table below 1 MiB
};

}  // namespace rastros
