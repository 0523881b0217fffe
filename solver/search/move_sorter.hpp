#pragma once
// Orders the moves of a node, best guesses first (at most 8 moves: a king step has 8 directions).
//
// The order only changes how fast the search runs, never its result. The guess: the move the
// table remembers as best, then moves that leave the opponent the fewest replies (a snail with
// few ways out is close to being stuck or cut off), then moves nearer the mover's own goal.

#include <array>
#include <cstdint>

#include "rastros/position.hpp"

namespace rastros {

class MoveSorter {
 public:
  struct Entry {
    Square move;
    PackedPosition child;  // the canonical key of the position after the move
    int priority;
  };

  /// Adds a move with its priority (lower first). Insertion sort: the list is tiny.
  void add(Square move, const PackedPosition& child, int priority) {
    int i = size_;
    for (; i > 0 && entries_[i - 1].priority > priority; --i) entries_[i] = entries_[i - 1];
    entries_[i] = {move, child, priority};
    ++size_;
  }

  int size() const { return size_; }
  const Entry& operator[](int i) const { return entries_[i]; }

 private:
  std::array<Entry, 8> entries_;  // only the first size_ are set
  int size_ = 0;
};

}  // namespace rastros
