#pragma once
// Moves to try first, given position by position: an oracle for measuring the move order.
//
// Why: the value-only search's cost is mostly the refutations of moves tried before the
// winning one (search/move_memory.hpp). How much a better order could save, and where, is
// measured with an oracle: one search records, at every node it finds won, the move that won
// (SolverOptions::record_winning_moves); a second search of the same position tries that move
// first (SolverOptions::move_hints), only at nodes whose region size lies in a band. The ratio
// of the two node counts is what a perfect guess in that band would save (bench/bench_solver.cpp,
// docs/performance.md). Not for play: the hints of one search say nothing about
// another position's.
//
// A hint is a square in the key's frame (the canonical position, search/solver.cpp), like the
// transposition table's best move. Recording takes a lock: it is a measuring aid, not a hot
// path. Reading takes none, so a MoveHints must not be recorded into while a search reads it.

#include <cstdint>
#include <mutex>
#include <unordered_map>

#include "rastros/position.hpp"

namespace rastros {

class MoveHints {
 public:
  /// Hints are given only at nodes whose region has at least `min_region` squares and fewer
  /// than `end_region`.
  void set_band(int min_region, int end_region) {
    min_region_ = min_region;
    end_region_ = end_region;
  }

  /// Records `move` as the one that won at `key` (the last record of a key stays).
  void record(const PackedPosition& key, Square move) {
    const std::lock_guard lock(mutex_);
    moves_[key] = move;
  }

  /// The move recorded for `key` when `region_size` is in the band, else -1.
  int move_for(const PackedPosition& key, int region_size) const {
    if (region_size < min_region_ || region_size >= end_region_) return -1;
    const auto found = moves_.find(key);
    return found == moves_.end() ? -1 : found->second;
  }

  std::size_t size() const {
    const std::lock_guard lock(mutex_);
    return moves_.size();
  }

  /// Every recorded hint, for checking them.
  template <typename Visit>
  void for_each(Visit visit) const {
    const std::lock_guard lock(mutex_);
    for (const auto& [key, move] : moves_) visit(key, move);
  }

 private:
  struct KeyHash {
    std::size_t operator()(const PackedPosition& key) const {
      return static_cast<std::size_t>(hash_of(key));
    }
  };

  int min_region_ = 0;
  int end_region_ = kMaxSquares + 1;
  mutable std::mutex mutex_;
  std::unordered_map<PackedPosition, Square, KeyHash> moves_;
};

}  // namespace rastros
