#pragma once
// Large zero-filled memory blocks for tables: mapped lazily, so untouched pages cost nothing,
// and put on huge pages, small blocks at once and large ones once they are mostly in use
// (core/huge_page_upgrade.hpp).

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
  ZeroedMemory() = default;
  explicit ZeroedMemory(std::size_t bytes) {
    constexpr std::size_t kHugePage = std::size_t{2} << 20;
    mapped_bytes_ = bytes + kHugePage;
    void* mapped = mmap(nullptr, mapped_bytes_, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mapped == MAP_FAILED) throw std::bad_alloc();
    mapped_ = mapped;
    const auto address = reinterpret_cast<std::uintptr_t>(mapped);
    data_ = reinterpret_cast<void*>((address + kHugePage - 1) & ~(kHugePage - 1));
    upgrade_ = std::make_unique<HugePageUpgrade>(data_, bytes);
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
    return *this;
  }

  void* data() const { return data_; }

 private:
  void* mapped_ = nullptr;
  std::size_t mapped_bytes_ = 0;
  void* data_ = nullptr;
  std::unique_ptr<HugePageUpgrade> upgrade_;
};

}  // namespace rastros
