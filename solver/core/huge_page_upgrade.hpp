#pragma once
// Moves a transposition table onto transparent huge pages: a large one once it is mostly in
// use, a small one at once.
//
// A table filled at random is much faster on 2 MiB pages than on 4 KiB ones: far fewer TLB
// misses (df-pn on 8x7 with a 1 GiB table: 41.8 s -> 28.0 s, bench/bench_proof_number_search).
// But asking for huge pages up front is a trap for a table much larger than its search: the
// first store into each 2 MiB range then touches all of it, so a 6x6 solve (10 K nodes) with a
// 4 GiB table took 13.4 s instead of 0.07 s, the kernel compacting memory and the virtual
// machine's host backing every page. So a large table starts on small pages, and a watcher thread
// looks at it every half second (mincore: which of its pages are in memory). Once half are, and
// the table has been in use for a while (2 s, plus 1 s per 256 MiB: rebuilding pages has a
// cost), the search will clearly touch all of it and go on long enough to win the cost back.
// The watcher then asks for huge pages (MADV_HUGEPAGE, for the pages still to come) and has the
// kernel rebuild the ones already there (MADV_COLLAPSE, Linux 6.1 and later; earlier kernels
// leave them small), 32 MiB at a time so that stopping stays prompt. It does so only for as
// much of the table as half the free huge pages in /proc/buddyinfo cover: beyond that, faults
// and collapses would wait for the kernel to compact memory.
//
// Tables of kHugePageRequestBytes to kEagerHugePageBytes (the default tables: 8 MiB
// value-only, 32 MiB with remoteness) skip the watch: a search of any length touches most of
// their pages, so they ask for huge pages at once and start no thread, when half the free huge
// pages cover them (otherwise they are watched like larger ones). Measured against small pages
// only (RASTROS_HUGE_PAGES=0, bench/bench_solver.cpp, same binary), 7x7 start, 2 threads:
// whole analysis 1.12-1.22x faster value-only (a 1 s search, which the watch never upgraded)
// and 1.18-1.33x with remoteness; `rastros solve --board 5x5` 0.04 s -> 0.02 s. Larger tables
// keep the watch (a 256 MiB table on huge pages from the start made the 7x7 start slower).
//
// Everything here is a request to the kernel about pages, never about their contents: the
// searching threads go on reading and writing the table while it happens. RASTROS_HUGE_PAGES=0
// in the environment turns it off.

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string_view>
#include <thread>

namespace rastros {

/// Tables up to this size go onto huge pages at once (see above).
inline constexpr std::size_t kEagerHugePageBytes = std::size_t{64} << 20;

class HugePageUpgrade {
 public:
  /// Watches [data, data + size); `data` must be 2 MiB aligned. Regions up to
  /// kEagerHugePageBytes are asked onto huge pages here instead, without a watcher, when half
  /// the free huge pages cover them. Does nothing for regions below kHugePageRequestBytes
  /// (core/huge_pages.hpp), unless `filled_at_once` (a small table that a search fills whole
  /// as soon as it starts: from one huge page up, asked at once when the free huge pages cover
  /// it and never watched), when huge pages are turned off, or when no thread can be started.
  HugePageUpgrade(void* data, std::size_t size, bool filled_at_once = false);
  /// Stops the watcher (within one 32 MiB collapse) and waits for it.
  ~HugePageUpgrade();
  HugePageUpgrade(const HugePageUpgrade&) = delete;
  HugePageUpgrade& operator=(const HugePageUpgrade&) = delete;

  /// True once (part of) the region was asked onto huge pages.
  bool upgraded() const;

 private:
  void watch();
  bool stopping_for(double seconds);

  unsigned char* data_;
  std::size_t size_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  bool upgraded_ = false;
  std::thread watcher_;
};

/// The fraction of the pages of [data, data + size) in memory (data page aligned), from
/// mincore(); 0 where it is unavailable.
double resident_fraction(const void* data, std::size_t size);

/// The bytes of free blocks of 2 MiB or more in /proc/buddyinfo's `text` (blocks of 2^order
/// pages of 4 KiB, zones summed): what huge pages can be taken without compaction.
std::size_t free_huge_page_bytes(std::string_view buddyinfo);

}  // namespace rastros
