#pragma once
// Transparent huge pages for large buffers.
//
// The solver's big buffers (a strong solve's layers and exchange buffers, the search's
// transposition table: hundreds of MB each) are touched page by page as they fill, and on a
// virtual machine every first touch of a 4 KiB page is an expensive fault: on the 2-core
// development machine, a fifth of a distributed 6x5 strong solve. A 2 MiB transparent huge
// page takes one fault for 512 small ones. Most distributions leave transparent huge pages at
// "madvise" (only regions that ask for them get them), so large regions ask.
//
// Measured on 6x5 (`rastros solve --db F --board 6x5 --threads 1`, the same build with and
// without the request): one process 37.8 s -> 32.8 s; two MPI ranks 25.2 s -> 18.7 s.

#include <cstddef>
#include <optional>
#include <string>

namespace rastros {

/// Regions at least this large ask for huge pages (smaller ones would waste most of one). The
/// exception: a search's small tables of 1 MiB and more, filled whole as soon as it starts, one
/// fault instead of hundreds (ZeroedMemory::for_small_table).
inline constexpr std::size_t kHugePageRequestBytes = std::size_t{4} << 20;

/// Asks the kernel to back the whole 2 MiB pages inside [data, data + size) with transparent
/// huge pages. Only a request: where the kernel does not offer them (transparent huge pages
/// "never", another system) nothing changes.
void request_huge_pages(void* data, std::size_t size) noexcept;

/// False when RASTROS_HUGE_PAGES=0 is in the environment (to compare, or where huge pages are
/// unwelcome): then nothing asks for them. Read anew at each call.
bool huge_pages_allowed() noexcept;

/// RASTROS_HUGE_PAGES=0 while it lives, when `on`, and the variable's earlier value after: the
/// small-pages baseline of the benchmarks and tests. Only what reads huge_pages_allowed() anew
/// sees it (the table's upgrade does; operator new read it once, at its first large block).
class SmallPagesOnly {
 public:
  explicit SmallPagesOnly(bool on = true);
  ~SmallPagesOnly();
  SmallPagesOnly(const SmallPagesOnly&) = delete;
  SmallPagesOnly& operator=(const SmallPagesOnly&) = delete;

 private:
  bool on_;
  std::optional<std::string> earlier_;
};

}  // namespace rastros
