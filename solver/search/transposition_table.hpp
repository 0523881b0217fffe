#pragma once
// A lock-free transposition table shared by all search threads.
//
// Two layouts of the same 64-byte buckets, chosen when the table is made.
//
// Wide (any search): each slot is two 64-bit words written with relaxed atomics:
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
// (Hyatt and Mann's lockless hashing). Four slots to a bucket.
//
// Compact (win/loss searches of boards of up to 58 squares): each slot is one word, so it is
// written whole and never torn, and a bucket holds eight. The key's K = squares + 6 bits
// (free squares, then the snail) are scrambled by a bijection of K-bit numbers (code_of: odd
// multipliers and xor-shifts, each invertible); the low bits of the code pick the bucket and
// the rest are stored, so bucket and stored bits together give back the whole key: a match is
// never a different position, as in the wide layout. Example, 7x7 (K = 55) in 8 MiB (2^17
// buckets): the bucket takes 17 bits of the code, the slot keeps the other 38.
//              bits  0- 3  work: log2 of the nodes, at most 15 (0: the slot is empty)
//              bits  4- 5  lower bound + 1 (scores -1, 0, +1)
//              bits  6- 7  upper bound + 1
//              bits  8-14  best move square (127: none)
//              bits 15-63  the code's bits above the bucket's (49 at most)
// Half the bytes per entry: the same entries in half the memory, which stays in cache more
// (7x7 value-only analysis: docs/performance.md).
//
// In both, a new entry replaces the bucket's least-worked slot.

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
  static constexpr int kCompactSlotsPerBucket = 8;
  static constexpr int kCompactKeyBitsStored = 49;

  /// Uses at most `bytes` (rounded down to a power-of-two number of buckets, at least one).
  /// The memory is mapped zeroed and untouched pages cost nothing. With `shared`, the table
  /// lives there instead: at least `bytes`, zero-filled or another table of the same size's
  /// and layout, 64-byte aligned, and outliving this object; tables given the same memory are
  /// one table (threads or processes searching together, cluster/node_shared_memory.hpp).
  /// `compact_squares`: when nonzero, the board's square count, and every entry stored is
  /// value-only: the compact layout is used when the keys fit it (compact_fits).
  explicit TranspositionTable(std::size_t bytes, void* shared = nullptr, int compact_squares = 0) {
    std::size_t buckets = 1;
    while (buckets * 2 * sizeof(Bucket) <= bytes) buckets *= 2;
    mask_ = buckets - 1;
    if (compact_squares > 0 && compact_fits(compact_squares, buckets)) {
      key_bits_ = compact_squares + 6;
      key_mask_ = key_bits_ == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << key_bits_) - 1;
      index_bits_ = std::countr_zero(buckets);
    }
    if (shared) {
      buckets_ = static_cast<Bucket*>(shared);
    } else {
      memory_ = ZeroedMemory(buckets * sizeof(Bucket));
      buckets_ = static_cast<Bucket*>(memory_.data());
    }
  }

  /// True when keys of a board of `squares` squares, with `buckets` buckets, can be stored in
  /// the compact layout: at most 58 squares, and no more than kCompactKeyBitsStored bits of the
  /// code left after the bucket's.
  static bool compact_fits(int squares, std::size_t buckets) {
    const int key_bits = squares + 6;
    return key_bits <= 64 && key_bits - std::countr_zero(buckets) <= kCompactKeyBitsStored;
  }

  bool compact() const { return key_bits_ != 0; }
  std::size_t slot_count() const {
    return (mask_ + 1) * (compact() ? kCompactSlotsPerBucket : kSlotsPerBucket);
  }
  std::size_t bytes() const { return (mask_ + 1) * sizeof(Bucket); }

  /// Starts loading the bucket of `key` into the cache.
  void prefetch(const PackedPosition& key) const { __builtin_prefetch(&buckets_[index_of(key)]); }

  /// A compact table holds value-only entries only: asked for another kind, it has none.
  bool probe(const PackedPosition& key, bool value_only, TableEntry& entry) const {
    if (compact()) return value_only && probe_compact(key, entry);
    const Bucket& bucket = buckets_[index_of(key)];
    for (int i = 0; i < kSlotsPerBucket; ++i) {
      const std::uint64_t data = bucket.words[2 * i + 1].load(std::memory_order_relaxed);
      const std::uint64_t check = bucket.words[2 * i].load(std::memory_order_relaxed);
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
  /// In a compact table, `value_only` must be true and the bounds are scores -1, 0, +1 or
  /// beyond (a bound beyond says nothing and is kept as the nearest score).
  void store(const PackedPosition& key, bool value_only, Score lower, Score upper, int best_move,
             std::uint64_t nodes) {
    if (compact()) {
      store_compact(key, lower, upper, best_move, nodes);
      return;
    }
    Bucket& bucket = buckets_[index_of(key)];
    const std::uint64_t work = std::min<std::uint64_t>(63, std::bit_width(nodes));
    int target = 0;
    std::uint64_t target_work = 64;
    for (int i = 0; i < kSlotsPerBucket; ++i) {
      const std::uint64_t data = bucket.words[2 * i + 1].load(std::memory_order_relaxed);
      const std::uint64_t check = bucket.words[2 * i].load(std::memory_order_relaxed);
      if (matches(data, check, key, value_only)) {
        lower = std::max(lower, static_cast<int>(data >> 8 & 0xff) - 128);
        upper = std::min(upper, static_cast<int>(data >> 16 & 0xff) - 128);
        if (best_move < 0 && (data >> 24 & 0xff) != 255) best_move = data >> 24 & 0xff;
        target = i;
        break;
      }
      const std::uint64_t slot_work = data >> 39 & 1 ? data >> 32 & 63 : 0;
      if (slot_work < target_work) {
        target = i;
        target_work = slot_work;
      }
    }
    const std::uint64_t data = std::uint64_t{key.snail} | std::uint64_t(lower + 128) << 8 |
                               std::uint64_t(upper + 128) << 16 |
                               std::uint64_t(best_move < 0 ? 255 : best_move) << 24 | work << 32 |
                               std::uint64_t{value_only} << 38 | std::uint64_t{1} << 39;
    bucket.words[2 * target].store(key.free ^ data, std::memory_order_relaxed);
    bucket.words[2 * target + 1].store(data, std::memory_order_relaxed);
  }

  /// Fraction of slots in use, estimated from the first buckets.
  double fill() const {
    const std::size_t sample = std::min<std::size_t>(mask_ + 1, 4096);
    std::size_t used = 0;
    for (std::size_t i = 0; i < sample; ++i) {
      if (compact()) {
        for (const auto& word : buckets_[i].words) {
          used += (word.load(std::memory_order_relaxed) & kCompactWorkMask) != 0;
        }
      } else {
        for (int slot = 0; slot < kSlotsPerBucket; ++slot) {
          used += buckets_[i].words[2 * slot + 1].load(std::memory_order_relaxed) >> 39 & 1;
        }
      }
    }
    const int slots_per_bucket = compact() ? kCompactSlotsPerBucket : kSlotsPerBucket;
    return static_cast<double>(used) / static_cast<double>(sample * slots_per_bucket);
  }

 private:
  /// Eight words: four wide slots (check word, then data word) or eight compact ones.
  struct alignas(64) Bucket {
    std::atomic<std::uint64_t> words[8];
  };

  static bool matches(std::uint64_t data, std::uint64_t check, const PackedPosition& key,
                      bool value_only) {
    return (data >> 39 & 1) && (data & 0xff) == key.snail && (check ^ data) == key.free &&
           (data >> 38 & 1) == std::uint64_t{value_only};
  }

  /// The compact layout's code of a key: a bijection of key_bits_-bit numbers. Multiplying by
  /// an odd number modulo 2^K and x ^= x >> s are each invertible; the shifts bring the high
  /// bits, which the products mix best, down to the bucket's bits.
  std::uint64_t code_of(const PackedPosition& key) const {
    std::uint64_t x = key.free | std::uint64_t{key.snail} << (key_bits_ - 6);
    x = x * 0x9E3779B97F4A7C15ull & key_mask_;
    x ^= x >> (key_bits_ / 2);
    x = x * 0xC2B2AE3D27D4EB4Full & key_mask_;
    x ^= x >> (key_bits_ / 2 + 1);
    return x;
  }

  /// The bits a compact slot of `code` holds above its data.
  std::uint64_t stored_bits(std::uint64_t code) const {
    return code >> index_bits_ << kCompactDataBits;
  }
  /// A compact slot in use holding the key whose stored bits are `stored`.
  static bool holds(std::uint64_t slot, std::uint64_t stored) {
    return (slot & ~kCompactDataMask) == stored && (slot & kCompactWorkMask);
  }
  static TableEntry compact_entry(std::uint64_t slot) {
    const int move = static_cast<int>(slot >> 8 & 127);
    return {static_cast<int>(slot >> 4 & 3) - 1, static_cast<int>(slot >> 6 & 3) - 1,
            move == 127 ? -1 : move};
  }

  bool probe_compact(const PackedPosition& key, TableEntry& entry) const {
    const std::uint64_t code = code_of(key);
    const std::uint64_t stored = stored_bits(code);
    for (const auto& word : buckets_[code & mask_].words) {
      const std::uint64_t slot = word.load(std::memory_order_relaxed);
      if (!holds(slot, stored)) continue;
      entry = compact_entry(slot);
      return true;
    }
    return false;
  }

  void store_compact(const PackedPosition& key, Score lower, Score upper, int best_move,
                     std::uint64_t nodes) {
    const std::uint64_t code = code_of(key);
    Bucket& bucket = buckets_[code & mask_];
    const std::uint64_t stored = stored_bits(code);
    lower = std::max(lower, -1);
    upper = std::min(upper, 1);
    std::atomic<std::uint64_t>* target = &bucket.words[0];
    std::uint64_t target_work = kCompactWorkMask + 1;
    for (auto& word : bucket.words) {
      const std::uint64_t slot = word.load(std::memory_order_relaxed);
      if (holds(slot, stored)) {
        const TableEntry known = compact_entry(slot);
        lower = std::max(lower, known.lower);
        upper = std::min(upper, known.upper);
        if (best_move < 0) best_move = known.best_move;
        target = &word;
        break;
      }
      if ((slot & kCompactWorkMask) < target_work) {
        target = &word;
        target_work = slot & kCompactWorkMask;
      }
    }
    const std::uint64_t work = std::min<std::uint64_t>(kCompactWorkMask, std::bit_width(nodes | 1));
    target->store(stored | std::uint64_t(best_move < 0 ? 127 : best_move) << 8 |
                      std::uint64_t(upper + 1) << 6 | std::uint64_t(lower + 1) << 4 | work,
                  std::memory_order_relaxed);
  }

  std::size_t index_of(const PackedPosition& key) const {
    if (compact()) return static_cast<std::size_t>(code_of(key) & mask_);
    return static_cast<std::size_t>(hash_of(key)) & mask_;
  }

  static constexpr int kCompactDataBits = 15;
  static constexpr std::uint64_t kCompactDataMask = (std::uint64_t{1} << kCompactDataBits) - 1;
  static constexpr std::uint64_t kCompactWorkMask = 15;  // bits 0-3; 0 marks an empty slot

  std::size_t mask_ = 0;
  int key_bits_ = 0;  // the compact layout's K; 0 in the wide layout
  std::uint64_t key_mask_ = 0;
  int index_bits_ = 0;  // the compact layout's bucket bits
  ZeroedMemory memory_;
  Bucket* buckets_ = nullptr;
};

}  // namespace rastros
