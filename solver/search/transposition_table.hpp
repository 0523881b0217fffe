#pragma once
// A lock-free transposition table shared by all search threads.
//
// Each slot is two 64-bit words written with relaxed atomics:
//   word 0   key.free XOR word 1
//   word 1   the data, packed:
//              bits  0- 7  snail square (the rest of the key)
//              bits  8-15  lower bound on the score, biased by +128
//              bits 16-23  upper bound on the score, biased by +128
//              bits 24-31  best move square (255: none)
//              bits 32-37  work: log2 of the nodes the subtree took (replacement priority)
//              bit  38     value-only entry (scores are -1/0/+1, not remoteness scores)
//              bit  39     slot in use
// A reader accepts a slot only when word 0 XOR word 1 gives back the key's mask and the snail
// matches, so a slot torn by two concurrent writers reads as a miss, never as a wrong entry
// (Hyatt and Mann's lockless hashing). Slots are grouped four to a 64-byte bucket; a new entry
// replaces the bucket's least-worked slot.

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

#include "core/value.hpp"
#include "rastros/position.hpp"
#include "search/zeroed_memory.hpp"

namespace rastros {

struct TableEntry {
  Score lower = -kScoreMax - 1;
  Score upper = kScoreMax + 1;
  int best_move = -1;  // square in the key's frame, -1 when none
};

class TranspositionTable {
 public:
  static constexpr std::size_t kSlotBytes = 16;
  static constexpr int kSlotsPerBucket = 4;

  /// Uses at most `bytes` (rounded down to a power-of-two number of buckets, at least one).
  /// The memory is mapped zeroed and untouched pages cost nothing. With `shared`, the table
  /// lives there instead: at least `bytes`, zero-filled or another table of the same size's,
  /// 64-byte aligned, and outliving this object; tables given the same memory are one table
  /// (threads or processes searching together, cluster/node_shared_memory.hpp).
  explicit TranspositionTable(std::size_t bytes, void* shared = nullptr) {
    std::size_t buckets = 1;
    while (buckets * 2 * sizeof(Bucket) <= bytes) buckets *= 2;
    mask_ = buckets - 1;
    if (shared) {
      buckets_ = static_cast<Bucket*>(shared);
    } else {
      memory_ = ZeroedMemory(buckets * sizeof(Bucket));
      buckets_ = static_cast<Bucket*>(memory_.data());
    }
  }

  std::size_t slot_count() const { return (mask_ + 1) * kSlotsPerBucket; }
  std::size_t bytes() const { return (mask_ + 1) * sizeof(Bucket); }

  /// Starts loading the bucket of `key` into the cache.
  void prefetch(const PackedPosition& key) const { __builtin_prefetch(&buckets_[index_of(key)]); }

  bool probe(const PackedPosition& key, bool value_only, TableEntry& entry) const {
    const Bucket& bucket = buckets_[index_of(key)];
    for (const Slot& slot : bucket.slots) {
      const std::uint64_t data = slot.data.load(std::memory_order_relaxed);
      const std::uint64_t check = slot.check.load(std::memory_order_relaxed);
      if (!matches(data, check, key, value_only)) continue;
      entry.lower = static_cast<int>(data >> 8 & 0xff) - 128;
      entry.upper = static_cast<int>(data >> 16 & 0xff) - 128;
      const int move = static_cast<int>(data >> 24 & 0xff);
      entry.best_move = move == 255 ? -1 : move;
      return true;
    }
    return false;
  }

  /// Records bounds found by a search of `nodes` nodes, tightening any entry already there.
  void store(const PackedPosition& key, bool value_only, Score lower, Score upper, int best_move,
             std::uint64_t nodes) {
    Bucket& bucket = buckets_[index_of(key)];
    const std::uint64_t work = std::min<std::uint64_t>(63, std::bit_width(nodes));
    Slot* target = &bucket.slots[0];
    std::uint64_t target_work = 64;
    for (Slot& slot : bucket.slots) {
      const std::uint64_t data = slot.data.load(std::memory_order_relaxed);
      const std::uint64_t check = slot.check.load(std::memory_order_relaxed);
      if (matches(data, check, key, value_only)) {
        lower = std::max(lower, static_cast<int>(data >> 8 & 0xff) - 128);
        upper = std::min(upper, static_cast<int>(data >> 16 & 0xff) - 128);
        if (best_move < 0 && (data >> 24 & 0xff) != 255) best_move = data >> 24 & 0xff;
        target = &slot;
        break;
      }
      const std::uint64_t slot_work = data >> 39 & 1 ? data >> 32 & 63 : 0;
      if (slot_work < target_work) {
        target = &slot;
        target_work = slot_work;
      }
    }
    const std::uint64_t data = std::uint64_t{key.snail} | std::uint64_t(lower + 128) << 8 |
                               std::uint64_t(upper + 128) << 16 |
                               std::uint64_t(best_move < 0 ? 255 : best_move) << 24 | work << 32 |
                               std::uint64_t{value_only} << 38 | std::uint64_t{1} << 39;
    target->check.store(key.free ^ data, std::memory_order_relaxed);
    target->data.store(data, std::memory_order_relaxed);
  }

  /// Fraction of slots in use, estimated from the first buckets.
  double fill() const {
    const std::size_t sample = std::min<std::size_t>(mask_ + 1, 4096);
    std::size_t used = 0;
    for (std::size_t i = 0; i < sample; ++i) {
      for (const Slot& slot : buckets_[i].slots) {
        used += slot.data.load(std::memory_order_relaxed) >> 39 & 1;
      }
    }
    return static_cast<double>(used) / static_cast<double>(sample * kSlotsPerBucket);
  }

 private:
  struct Slot {
    std::atomic<std::uint64_t> check;
    std::atomic<std::uint64_t> data;
  };
  struct alignas(64) Bucket {
    Slot slots[kSlotsPerBucket];
  };

  static bool matches(std::uint64_t data, std::uint64_t check, const PackedPosition& key,
                      bool value_only) {
    return (data >> 39 & 1) && (data & 0xff) == key.snail && (check ^ data) == key.free &&
           (data >> 38 & 1) == std::uint64_t{value_only};
  }

  std::size_t index_of(const PackedPosition& key) const {
    return static_cast<std::size_t>(hash_of(key)) & mask_;
  }

  std::size_t mask_ = 0;
  ZeroedMemory memory_;
  Bucket* buckets_ = nullptr;
};

}  // namespace rastros
