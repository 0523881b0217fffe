#pragma once
// Orders the moves of a node, best guesses first (at most 8 moves: a king step has 8 directions).
//
// The order only changes how fast the search runs, never its result. The guess: the move the
// table remembers as best, then moves that leave the opponent the fewest replies (a snail with
// few ways out is close to being stuck or cut off), then moves nearer the mover's own goal.

#include <array>
#include <cstdint>

#include "rastros/board.hpp"

namespace rastros {

class MoveSorter {
 public:
  /// Adds a move with its priority (lower first). Insertion sort: the list is tiny.
  void add(Square move, int priority) {
    int i = size_;
    for (; i > 0 && priorities_[i - 1] > priority; --i) {
      moves_[i] = moves_[i - 1];
      priorities_[i] = priorities_[i - 1];
    }
    moves_[i] = static_cast<std::int8_t>(move);
    priorities_[i] = priority;
    ++size_;
  }

  int size() const { return size_; }
  Square operator[](int i) const { return moves_[i]; }

 private:
  std::array<std::int8_t, 8> moves_{};
  std::array<int, 8> priorities_{};
  int size_ = 0;
};

}  // namespace rastros
