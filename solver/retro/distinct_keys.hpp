#pragma once
// The distinct keys met in a stream of keys, each numbered in the order first met: a small
// open-addressing hash map from key to number, with the keys kept as the words they travel in.
//
// The backward pass of a strong solve lists the children of consecutive keys, and neighbours in
// key order share many children: two parents of a child differ only by where the snail stood
// before its last step, a few bits of the mask apart. On 5x5 and 6x5 about half of the children
// a block of 16K keys lists repeat an earlier one, so the distributed solver
// (cluster/distributed_strong_solver.cpp) asks another rank for each distinct key once: half
// the keys sent, the owner's look-ups and the records sent back. (Looking each of its own
// children up once too, through a second map, saved nothing measurable: the map's probes cost
// about what the repeated binary searches did.)

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "rastros/position.hpp"

namespace rastros {

class DistinctKeys {
 public:
  /// Forgets every key, keeping the memory.
  void clear() {
    words_.clear();
    if (!slots_.empty()) std::fill(slots_.begin(), slots_.end(), 0);
  }

  /// The number of `key`: k for the k-th distinct key met (from 0), counting it in when new.
  std::size_t index_of(const PackedPosition& key) {
    if (2 * (size() + 1) > slots_.size()) grow();
    for (std::size_t slot = slot_of(key);; slot = (slot + 1) & (slots_.size() - 1)) {
      const std::uint32_t stored = slots_[slot];
      if (stored == 0) {
        const std::size_t index = size();
        slots_[slot] = static_cast<std::uint32_t>(index + 1);
        words_.push_back(key.free);
        words_.push_back(key.snail);
        return index;
      }
      if (key_at(stored - 1) == key) return stored - 1;
    }
  }

  /// The distinct keys in the order first met, two words each (free mask, snail): the message
  /// that asks another rank for their records.
  const std::vector<std::uint64_t>& words() const { return words_; }
  std::size_t size() const { return words_.size() / 2; }

 private:
  PackedPosition key_at(std::size_t index) const {
    return {words_[2 * index], static_cast<std::uint8_t>(words_[2 * index + 1])};
  }

  std::size_t slot_of(const PackedPosition& key) const {
    std::uint64_t hash = (key.free ^ (std::uint64_t{key.snail} << 57)) * 0x9E3779B97F4A7C15ull;
    hash ^= hash >> 31;
    return static_cast<std::size_t>(hash) & (slots_.size() - 1);
  }

  /// Doubles the slots (at least 4096) and re-enters every key: at most half are ever full.
  void grow() {
    slots_.assign(std::max<std::size_t>(4096, 2 * slots_.size()), 0);
    for (std::size_t index = 0; index < size(); ++index) {
      std::size_t slot = slot_of(key_at(index));
      while (slots_[slot] != 0) slot = (slot + 1) & (slots_.size() - 1);
      slots_[slot] = static_cast<std::uint32_t>(index + 1);
    }
  }

  std::vector<std::uint64_t> words_;
  std::vector<std::uint32_t> slots_;  // 0: empty; otherwise the key's index + 1
};

}  // namespace rastros
