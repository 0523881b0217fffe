#pragma once
// Remembers which move won in positions that look alike around the snail: a move-ordering hint
// shared by the alpha-beta search's threads.
//
// Why: move order decides most of the search's cost. Measured with an oracle (a first run
// records the winning move of every won position, a second run tries that move first), the
// 7x7 value-only analysis drops from 4.33 M to 0.65 M nodes: seven nodes in eight are spent
// refuting moves that were tried before the winning one. The transposition table keeps the
// best move of each position, but a win/loss search settles a position on its first visit, so
// that move is never asked for again. The fitted order (move_ordering.hpp) sees only the
// squares next to each move, and a winning move often shows only further out.
//
// What: positions in neighbouring subtrees differ by a few squares of slime far from the snail,
// and the move that won in one often wins in the other. So a small hash table remembers, by
// the snail's surroundings, the last move that won where the fitted order guessed wrong:
//
//   surroundings = the side to move, the snail's square, the free squares within two king
//                  steps of it (the 5x5 box), and the region's size in eighths
//                  (so an opening position does not take the hint of an endgame one)
//
//      a b c d e f g
//   7  . . . . . . .
//   6  . . . . . . .
//   5 [. . . . .]. .     After d4-d3 c3 (x slime, S the snail), the box of S is a1..e5, in
//   4 [. . . x .]. .     brackets. Positions with the snail on c3, player 1 to move, the same
//   3 [. . S x .]. .     free squares in the box and a region of 40..47 squares share an
//   2 [. . . . .]. .     entry, whatever lies outside the box.
//   1 [. . . . .]. .
//
// Only surprises are written: when the first move tried won, the fitted order will guess it
// again, and the slot is left for a move it would not guess. Each slot is one 64-bit word (a
// 56-bit tag above the 8-bit move), read and written with relaxed atomics: threads share the
// table without locks and never see half an entry. A collision or a stale entry only puts a
// wrong move first, which costs nodes and never changes a result.
//
// Used by win/loss searches only (SolverOptions::remember_moves). Measured
// (bench/README.md), one thread: the 7x7 value-only analysis 3.50 M -> 2.08 M nodes, 1.51x
// faster (4.33 M -> 2.89 M before edge moves were put late in move_ordering.hpp); the 8x7
// value-only root 21.2 M -> 10.9 M nodes, 1.52x faster (before the edge rule). In the null-window
// tests of a remoteness search it saved a tenth of the nodes and cost more time than that, so
// there only the value pass that starts the search uses it.

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>

#include "rastros/board.hpp"
#include "rastros/position.hpp"
#include "search/zeroed_memory.hpp"

namespace rastros {

class MoveMemory {
 public:
  /// Slots of 8 bytes: 2^17 (1 MiB, small enough to stay in the cache next to a hot table) on
  /// boards of 42 squares or more; 2^14 on smaller ones, whose searches are small (the 6x6
  /// value-only analysis takes 45.8 K nodes with either) and whose solvers are built by the
  /// hundred (`rastros serve`, one per request).
  static int slot_bits_for(const Board& board) { return board.square_count() >= 42 ? 17 : 14; }

  explicit MoveMemory(const Board& board)
      : slot_mask_((std::size_t{1} << slot_bits_for(board)) - 1),
        memory_(
            ZeroedMemory::for_small_table((slot_mask_ + 1) * sizeof(std::atomic<std::uint64_t>))) {
    // Empty slots (0), constructed in place: the memory is zero already, this makes them atomics.
    std::uninitialized_value_construct_n(slots(), slot_mask_ + 1);
    for (Square square = 0; square < board.square_count(); ++square) {
      surroundings_[square] = board.dilate(board.dilate(bit(square)));
    }
  }

  /// The surroundings of a node (see above) as a 56-bit tag; never 0.
  std::uint64_t tag_of(const Position& node, int region_size) const {
    std::uint64_t hash = (node.free & surroundings_[node.snail]) * 0x9E3779B97F4A7C15ull ^
                         (static_cast<std::uint64_t>(node.snail) << 1 |
                          static_cast<std::uint64_t>(node.to_move == Player::two)) *
                             0xC2B2AE3D27D4EB4Full ^
                         static_cast<std::uint64_t>(region_size / 8 + 1) * 0xD6E8FEB86659FD93ull;
    hash ^= hash >> 29;
    return (hash >> 8) | (std::uint64_t{1} << 55);
  }

  /// The move remembered for these surroundings, or -1.
  int recall(std::uint64_t tag) const {
    const std::uint64_t word = slot(tag).load(std::memory_order_relaxed);
    return word >> 8 == tag ? static_cast<int>(word & 0xff) : -1;
  }

  /// Starts loading the slot of `tag` into the cache, for a recall() soon after.
  void prefetch(std::uint64_t tag) const { __builtin_prefetch(&slot(tag)); }

  /// Remembers `move` as the one that won in these surroundings.
  void remember(std::uint64_t tag, Square move) {
    slot(tag).store(tag << 8 | static_cast<std::uint64_t>(move), std::memory_order_relaxed);
  }

 private:
  std::atomic<std::uint64_t>* slots() const {
    return static_cast<std::atomic<std::uint64_t>*>(memory_.data());
  }
  std::atomic<std::uint64_t>& slot(std::uint64_t tag) const { return slots()[tag & slot_mask_]; }

  std::size_t slot_mask_;
  ZeroedMemory memory_;  // the slots; every one starts empty (0)
  std::array<SquareMask, kMaxSquares> surroundings_{};
};

}  // namespace rastros
