#pragma once
// Orders the moves of a node, best guesses first (at most 8 moves: a king step has 8 directions).
//
// The order only changes how fast the search runs, never its result. First a child the table
// already knows wins, then the move the table remembers as best, then a hinted move when a
// measurement gives hints (move_hints.hpp), then the move that won in positions with the same
// surroundings (move_memory.hpp), then the rest by the priorities of move_ordering.hpp.
//
// Two phases: add() every move, change or drop() some while the table is probed for each
// child, then sort(); size() and [] read the order after that. A search that packs its children
// lazily sorts twice: once on the priorities alone, to pick the first move to pack and search,
// and again, without that move, once the others are packed.

#include <array>
#include <climits>
#include <cstdint>

#include "rastros/position.hpp"

namespace rastros {

class MoveSorter {
 public:
  struct Entry {
    Square move;
    PackedPosition child;  // the canonical key of the position after the move, once packed
    SquareMask free;       // the free squares after the move, when added before packing
    int priority;
  };

  /// Priorities before any MoveOrderer priority.
  static constexpr int kKnownWin = INT_MIN;
  static constexpr int kTableMove = INT_MIN + 1;
  static constexpr int kHintedMove = INT_MIN + 2;      // search/move_hints.hpp
  static constexpr int kRememberedMove = INT_MIN + 3;  // search/move_memory.hpp
  /// Marks a dropped move; no MoveOrderer priority comes near it.
  static constexpr int kDropped = INT_MAX;

  /// Adds a move with its priority (lower first) and the free squares after it
  /// (Canonicalizer::free_after_step); set_child() gives its key once it is packed. The moves are
  /// put in order by sort().
  void add(Square move, SquareMask free, int priority) {
    Entry& entry = entries_[added_++];
    entry.move = move;
    entry.free = free;
    entry.priority = priority;
  }
  /// The key of an added move (`index`: the order added). Written field by field, in place: a
  /// whole key built elsewhere and copied in was read back in 16-byte pieces from stores of
  /// other widths, and those reads waited for the stores (a tenth of the search's own time in
  /// the profile).
  void set_child(int index, const PackedPosition& child) {
    entries_[index].child.free = child.free;
    entries_[index].child.snail = child.snail;
  }

  /// The moves added so far, in the order added, before sort(): their priorities may change.
  int added() const { return added_; }
  Entry& added_entry(int i) { return entries_[i]; }
  /// Leaves an added move out of the order.
  void drop(int i) { entries_[i].priority = kDropped; }

  /// Orders the moves not dropped, lower priority first and, between equals, the first added
  /// first. Insertion sort of one-byte indices: the list is tiny, and moving indices instead of
  /// whole entries showed in the profile.
  void sort() {
    size_ = 0;
    for (int index = 0; index < added_; ++index) {
      const int priority = entries_[index].priority;
      if (priority == kDropped) continue;
      int i = size_;
      for (; i > 0 && entries_[order_[i - 1]].priority > priority; --i) order_[i] = order_[i - 1];
      order_[i] = static_cast<std::uint8_t>(index);
      ++size_;
    }
  }

  /// After sort(): the moves kept, best first.
  int size() const { return size_; }
  const Entry& operator[](int i) const { return entries_[order_[i]]; }
  /// The order added of the i-th move kept: for added_entry(), set_child() and drop().
  int added_index(int i) const { return order_[i]; }

 private:
  std::array<Entry, 8> entries_;       // in the order added; only the first added_ are set
  std::array<std::uint8_t, 8> order_;  // entries_ indices, best first; the first size_ are set
  int added_ = 0;
  int size_ = 0;
};

}  // namespace rastros
