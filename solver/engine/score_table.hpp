#pragma once
// The score engine's transposition table: lock-free, shared by every search thread.
//
// Each slot is two 64-bit words written with relaxed atomics (Hyatt and Mann's lockless
// hashing): word 0 holds key XOR word 1, word 1 the data:
//   bits  0-15  lower bound on the score, biased by +32768
//   bits 16-31  upper bound, biased by +32768
//   bits 32-39  best move (255: none)
//   bits 40-45  work: log2 of the nodes the subtree took, plus one (replacement priority)
//   bit  46     slot in use
// A reader accepts a slot only when word 0 XOR word 1 gives back the whole key, and keys are
// exact (ScoreGame::key), so a slot torn by two writers reads as a miss, never as another
// position's bounds. Four slots to a 64-byte bucket; a new entry replaces the bucket's
// least-worked slot, and bounds stored for the same key are intersected.

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "search/zeroed_memory.hpp"

namespace rastros::engine {

struct ScoreBounds {
  int lower = -32768;
  int upper = 32767;
  int best_move = -1;  // -1 when none
};

class ScoreTable {
 public:
  static constexpr int kSlotsPerBucket = 4;

  /// Uses at most `bytes` (a power-of-two number of 64-byte buckets, at least one).
  explicit ScoreTable(std::size_t bytes) {
    std::size_t buckets = 1;
    while (buckets * 2 * sizeof(Bucket) <= bytes) buckets *= 2;
    mask_ = buckets - 1;
    memory_ = ZeroedMemory(buckets * sizeof(Bucket));
    buckets_ = static_cast<Bucket*>(memory_.data());
  }

  std::size_t bytes() const { return (mask_ + 1) * sizeof(Bucket); }

  void prefetch(std::uint64_t key) const { __builtin_prefetch(&buckets_[index_of(key)]); }

  bool probe(std::uint64_t key, ScoreBounds& bounds) const {
    const Bucket& bucket = buckets_[index_of(key)];
    for (int i = 0; i < kSlotsPerBucket; ++i) {
      const std::uint64_t data = bucket.words[2 * i + 1].load(std::memory_order_relaxed);
      const std::uint64_t check = bucket.words[2 * i].load(std::memory_order_relaxed);
      if (!(data & kUsed) || (check ^ data) != key) continue;
      unpack(data, bounds);
      return true;
    }
    return false;
  }

  /// Stores bounds on `key`'s score (lower <= upper; -32768/32767 for none) found by a search
  /// of `nodes` nodes.
  void store(std::uint64_t key, int lower, int upper, int best_move, std::uint64_t nodes) {
    Bucket& bucket = buckets_[index_of(key)];
    int victim = 0;
    std::uint64_t victim_work = ~std::uint64_t{0};
    const std::uint64_t work = std::min<std::uint64_t>(std::bit_width(nodes) + 1, 63);
    for (int i = 0; i < kSlotsPerBucket; ++i) {
      const std::uint64_t data = bucket.words[2 * i + 1].load(std::memory_order_relaxed);
      const std::uint64_t check = bucket.words[2 * i].load(std::memory_order_relaxed);
      if ((data & kUsed) && (check ^ data) == key) {
        // Both are true bounds on the same score: keep the tighter of each.
        ScoreBounds old;
        unpack(data, old);
        if (old.lower > lower) lower = old.lower;
        if (old.upper < upper) upper = old.upper;
        if (lower > upper) lower = upper;  // only after a torn read; keep the newer upper
        if (best_move < 0) best_move = old.best_move;
        victim = i;
        break;
      }
      const std::uint64_t slot_work = (data & kUsed) ? (data >> 40 & 63) : 0;
      if (slot_work < victim_work) {
        victim_work = slot_work;
        victim = i;
      }
    }
    const std::uint64_t data = static_cast<std::uint64_t>(lower + 32768) |
                               static_cast<std::uint64_t>(upper + 32768) << 16 |
                               static_cast<std::uint64_t>(best_move < 0 ? 255 : best_move) << 32 |
                               work << 40 | kUsed;
    bucket.words[2 * victim].store(key ^ data, std::memory_order_relaxed);
    bucket.words[2 * victim + 1].store(data, std::memory_order_relaxed);
  }

 private:
  static constexpr std::uint64_t kUsed = std::uint64_t{1} << 46;

  struct alignas(64) Bucket {
    std::atomic<std::uint64_t> words[2 * kSlotsPerBucket];
  };

  static void unpack(std::uint64_t data, ScoreBounds& bounds) {
    bounds.lower = static_cast<int>(data & 0xffff) - 32768;
    bounds.upper = static_cast<int>(data >> 16 & 0xffff) - 32768;
    const int move = static_cast<int>(data >> 32 & 0xff);
    bounds.best_move = move == 255 ? -1 : move;
  }

  std::size_t index_of(std::uint64_t key) const {
    // The keys are dense ranks: mix them so that neighbours spread over the table.
    std::uint64_t x = key;
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ULL;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dULL;
    x ^= x >> 33;
    return x & mask_;
  }

  ZeroedMemory memory_;
  Bucket* buckets_ = nullptr;
  std::size_t mask_ = 0;
};

}  // namespace rastros::engine
