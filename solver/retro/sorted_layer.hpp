#pragma once
// The layers of a strong solve: a region size's keys with their records, gathered as sorted
// duplicate-free runs while the larger layers are expanded, then merged into one sorted array
// that answers look-ups by binary search. Shared by the one-process solver
// (retro/strong_solver.cpp) and the MPI one (cluster/distributed_strong_solver.cpp).

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_sort.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "core/parallel_ranges.hpp"
#include "rastros/position.hpp"
#include "retro/layer_checkpoint.hpp"
#include "retro/strong_solver.hpp"

namespace rastros {

/// TBB's parallel sort; a serial sort under ThreadSanitizer, which cannot be told about the
/// hand-offs inside TBB's sort (core/thread_sanitizer.hpp) and would report them as races.
template <class Iterator, class Less>
void parallel_sort(Iterator first, Iterator last, Less less) {
#ifdef RASTROS_THREAD_SANITIZER
  std::sort(first, last, less);
#else
  oneapi::tbb::parallel_sort(first, last, less);
#endif
}

/// Keys are expanded this many at a time, so that the children waiting to be sorted (at most
/// 8 per key) stay a bounded amount of memory however large a layer grows.
constexpr std::size_t kExpansionChunk = std::size_t{1} << 19;

/// A key and its record in 16 bytes: the record sits where PackedPosition has padding, so the
/// layers cost no more memory than their keys while they are enumerated and valued.
struct LayerEntry {
  SquareMask free = 0;
  std::uint8_t snail = 0;
  StrongRecord record;

  PackedPosition key() const { return {free, snail}; }
  static LayerEntry of(const PackedPosition& key) { return {key.free, key.snail, {}}; }
};
static_assert(sizeof(LayerEntry) == 16);

/// The same order as PackedPosition's: free mask first, then snail. Function objects rather
/// than functions, so that the sorts and searches inline them instead of calling through a
/// pointer.
inline constexpr struct {
  bool operator()(const LayerEntry& a, const LayerEntry& b) const {
    return a.free < b.free || (a.free == b.free && a.snail < b.snail);
  }
} key_less;
inline constexpr struct {
  bool operator()(const LayerEntry& a, const LayerEntry& b) const {
    return a.free == b.free && a.snail == b.snail;
  }
} same_key;

/// Keys of one region size, gathered as sorted duplicate-free runs. A run is merged with the
/// run before it once it is at least half its size, so every key takes part in O(log n) merges
/// however many chunks the parent layers are expanded in.
class SortedLayer {
 public:
  std::vector<LayerEntry>& entries() { return entries_; }
  const std::vector<LayerEntry>& entries() const { return entries_; }

  /// Sorts the entries appended since `from` into a new run and merges runs as needed.
  void close_run(std::size_t from) {
    sort_unique_tail(from);
    if (entries_.size() == from) return;
    run_starts_.push_back(from);
    while (run_starts_.size() >= 2 &&
           2 * (entries_.size() - run_starts_.back()) >=
               run_starts_.back() - run_starts_[run_starts_.size() - 2]) {
      merge_last_two_runs();
    }
  }

  /// Leaves one sorted duplicate-free run: the layer is complete and ready for look-ups.
  void finish() {
    while (run_starts_.size() >= 2) merge_last_two_runs();
    run_starts_.clear();
    entries_.shrink_to_fit();
    build_fence();
  }

  /// Frees the layer's memory (its entries and fence): the solve is done with it.
  void release() {
    std::vector<LayerEntry>().swap(entries_);
    std::vector<std::size_t>().swap(run_starts_);
    std::vector<LayerEntry>().swap(fence_);
    fenced_size_ = 0;
  }

  /// The CRC-32 of the layer's keys, which names the layer in a checkpoint
  /// (retro/layer_checkpoint.hpp).
  std::uint32_t keys_checksum() const {
    std::vector<PackedPosition> keys(entries_.size());
    for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = entries_[i].key();
    return rastros::keys_checksum(keys);
  }

  /// The records in key order, as a checkpoint saves them, and back.
  std::vector<StrongRecord> records() const {
    std::vector<StrongRecord> records(entries_.size());
    for (std::size_t i = 0; i < records.size(); ++i) records[i] = entries_[i].record;
    return records;
  }
  void set_records(const std::vector<StrongRecord>& records) {
    for (std::size_t i = 0; i < records.size() && i < entries_.size(); ++i) {
      entries_[i].record = records[i];
    }
  }

  /// The record of a key of the layer. The backward pass's time goes mostly here, waiting for
  /// the memory of a binary search over millions of entries: the fence (every
  /// kFenceStride-th key, 1/64 of the layer: 470 KB for 6x5's largest, so its upper levels
  /// stay in cache) narrows the search to one block of kFenceStride entries, a few adjacent
  /// cache lines.
  const StrongRecord& record_of(const PackedPosition& key) const {
    const LayerEntry probe = LayerEntry::of(key);
    auto first = entries_.begin();
    auto last = entries_.end();
    if (fenced_size_ == entries_.size() && !fence_.empty()) {
      // Block b holds entries [b * stride, (b + 1) * stride) and starts with fence_[b].
      const auto after = std::upper_bound(fence_.begin(), fence_.end(), probe, key_less);
      const auto block = static_cast<std::size_t>(after - fence_.begin());
      if (block == 0) throw_missing();
      first += static_cast<std::ptrdiff_t>((block - 1) * kFenceStride);
      last = first + static_cast<std::ptrdiff_t>(
                         std::min(kFenceStride, entries_.size() - (block - 1) * kFenceStride));
    }
    const auto found = std::lower_bound(first, last, probe, key_less);
    if (found == last || !same_key(*found, probe)) throw_missing();
    return found->record;
  }

 private:
  static constexpr std::size_t kFenceStride = 64;

  [[noreturn]] static void throw_missing() {
    throw std::logic_error("strong solver: a child position was never enumerated");
  }

  void build_fence() {
    fence_.clear();
    for (std::size_t i = 0; i < entries_.size(); i += kFenceStride) fence_.push_back(entries_[i]);
    fenced_size_ = entries_.size();
  }

  void sort_unique_tail(std::size_t from) {
    parallel_sort(entries_.begin() + static_cast<std::ptrdiff_t>(from), entries_.end(), key_less);
    entries_.erase(
        std::unique(entries_.begin() + static_cast<std::ptrdiff_t>(from), entries_.end(), same_key),
        entries_.end());
  }

  void merge_last_two_runs() {
    const auto first = entries_.begin() + static_cast<std::ptrdiff_t>(run_starts_.end()[-2]);
    const auto middle = entries_.begin() + static_cast<std::ptrdiff_t>(run_starts_.back());
    std::inplace_merge(first, middle, entries_.end(), key_less);
    entries_.erase(std::unique(first, entries_.end(), same_key), entries_.end());
    run_starts_.pop_back();
  }

  std::vector<LayerEntry> entries_;
  std::vector<std::size_t> run_starts_;
  // Every kFenceStride-th entry once the layer is finished (records unused), and the entry
  // count it was built for: a layer changed since is searched whole.
  std::vector<LayerEntry> fence_;
  std::size_t fenced_size_ = 0;
};

/// Calls `visit(entry)` for every entry of `runs` in key order. Each run is sorted and no key is
/// in two runs (a key's region size fixes its layer): a merge of a few dozen runs, one pass
/// over the entries, instead of sorting them all again.
template <class Visit>
void merge_sorted_runs(const std::vector<std::span<const LayerEntry>>& runs, Visit&& visit) {
  std::vector<std::span<const LayerEntry>> heads;  // the unvisited rest of each run
  for (const auto& run : runs) {
    if (!run.empty()) heads.push_back(run);
  }
  // A min-heap of the runs by their first entry.
  const auto later = [](const std::span<const LayerEntry>& a,
                        const std::span<const LayerEntry>& b) {
    return key_less(b.front(), a.front());
  };
  std::make_heap(heads.begin(), heads.end(), later);
  while (!heads.empty()) {
    std::pop_heap(heads.begin(), heads.end(), later);
    std::span<const LayerEntry>& run = heads.back();
    visit(run.front());
    run = run.subspan(1);
    if (run.empty()) {
      heads.pop_back();
    } else {
      std::push_heap(heads.begin(), heads.end(), later);
    }
  }
}

}  // namespace rastros
