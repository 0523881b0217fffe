#pragma once
// The Reversi solver's transposition table: lock-free, shared by every search thread, keyed by
// both disc masks (the 3^64 positions of 8×8 have no exact 64-bit key).
//
// A slot is three 64-bit words written with relaxed atomics: mine ^ data, theirs ^ data, data
// (Hyatt and Mann's lockless hashing extended to a 128-bit key). A reader accepts a slot only
// when both masks come back from the data word, so a slot torn by two writers reads as a miss
// unless a mix of their words happens to rebuild a third position's masks exactly.
// data: bits 0-7 lower bound + 128, 8-15 upper bound + 128, 16-23 best move (255: none),
// 24-29 work (log2 of the subtree's nodes + 1: the replacement priority), bit 30 in use.
// Two slots a bucket; a new entry replaces the bucket's same position or its less-worked slot.

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "games/reversi/reversi_bits.hpp"
#include "search/zeroed_memory.hpp"

namespace rastros::reversi {

struct TableEntry {
  int lower = -128;
  int upper = 128;
  int best_move = -1;
};

class ReversiTable {
 public:
  explicit ReversiTable(std::size_t bytes) {
    std::size_t buckets = 1;
    while (buckets * 2 * sizeof(Bucket) <= bytes) buckets *= 2;
    mask_ = buckets - 1;
    memory_ = ZeroedMemory(buckets * sizeof(Bucket));
    buckets_ = static_cast<Bucket*>(memory_.data());
  }

  bool probe(Bits mine, Bits theirs, TableEntry& entry) const {
    const Bucket& bucket = buckets_[index_of(mine, theirs)];
    for (const Slot& slot : bucket.slots) {
      const std::uint64_t data = slot.data.load(std::memory_order_relaxed);
      if (!(data & kUsed)) continue;
      if ((slot.mine.load(std::memory_order_relaxed) ^ data) != mine) continue;
      if ((slot.theirs.load(std::memory_order_relaxed) ^ data) != theirs) continue;
      entry.lower = static_cast<int>(data & 0xff) - 128;
      entry.upper = static_cast<int>(data >> 8 & 0xff) - 128;
      const int move = static_cast<int>(data >> 16 & 0xff);
      entry.best_move = move == 255 ? -1 : move;
      return true;
    }
    return false;
  }

  void store(Bits mine, Bits theirs, int lower, int upper, int best_move, std::uint64_t nodes) {
    Bucket& bucket = buckets_[index_of(mine, theirs)];
    const std::uint64_t work = std::min<std::uint64_t>(std::bit_width(nodes) + 1, 63);
    int victim = 0;
    std::uint64_t victim_work = ~std::uint64_t{0};
    for (int i = 0; i < 2; ++i) {
      Slot& slot = bucket.slots[i];
      const std::uint64_t data = slot.data.load(std::memory_order_relaxed);
      if ((data & kUsed) && (slot.mine.load(std::memory_order_relaxed) ^ data) == mine &&
          (slot.theirs.load(std::memory_order_relaxed) ^ data) == theirs) {
        // Two true bounds on one score: keep the tighter of each.
        lower = std::max(lower, static_cast<int>(data & 0xff) - 128);
        upper = std::min(upper, static_cast<int>(data >> 8 & 0xff) - 128);
        if (lower > upper) lower = upper;  // only after a torn read
        if (best_move < 0) {
          const int old = static_cast<int>(data >> 16 & 0xff);
          best_move = old == 255 ? -1 : old;
        }
        victim = i;
        break;
      }
      const std::uint64_t slot_work = (data & kUsed) ? (data >> 24 & 63) : 0;
      if (slot_work < victim_work) {
        victim_work = slot_work;
        victim = i;
      }
    }
    const std::uint64_t data = static_cast<std::uint64_t>(lower + 128) |
                               static_cast<std::uint64_t>(upper + 128) << 8 |
                               static_cast<std::uint64_t>(best_move < 0 ? 255 : best_move) << 16 |
                               work << 24 | kUsed;
    Slot& slot = bucket.slots[victim];
    slot.mine.store(mine ^ data, std::memory_order_relaxed);
    slot.theirs.store(theirs ^ data, std::memory_order_relaxed);
    slot.data.store(data, std::memory_order_relaxed);
  }

 private:
  static constexpr std::uint64_t kUsed = std::uint64_t{1} << 30;

  struct Slot {
    std::atomic<std::uint64_t> mine;
    std::atomic<std::uint64_t> theirs;
    std::atomic<std::uint64_t> data;
  };
  struct alignas(64) Bucket {
    Slot slots[2];
  };

  std::size_t index_of(Bits mine, Bits theirs) const {
    std::uint64_t x = mine * 0x9e3779b97f4a7c15ULL ^ std::rotl(theirs * 0xc2b2ae3d27d4eb4fULL, 31);
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 32;
    return x & mask_;
  }

  ZeroedMemory memory_;
  Bucket* buckets_ = nullptr;
  std::size_t mask_ = 0;
};

}  // namespace rastros::reversi
