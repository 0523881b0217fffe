#pragma once
// Canonical packing of positions (the three steps are described in position.hpp).

#include <optional>

#include "rastros/pockets.hpp"
#include "rastros/position.hpp"
#include "rastros/rastros.hpp"
#include "rastros/region.hpp"
#include "rastros/symmetry.hpp"

namespace rastros {

class Canonicalizer {
 public:
  struct Options {
    bool prune_region = true;
    bool use_symmetry = true;
    /// Pockets replaced by their value (pockets.hpp): keys for win/loss under the standard
    /// rules only. Needs prune_region.
    bool simplify_pockets = false;
  };

  Canonicalizer(const Board& board, Options options)
      : board_(board), options_(options), rotation_(rotation_180(board)) {
    options_.simplify_pockets = options.simplify_pockets && options.prune_region;
    if (options.use_symmetry && board.is_square()) reflection_.emplace(diagonal_reflection(board));
  }
  explicit Canonicalizer(const Board& board) : Canonicalizer(board, Options{}) {}

  /// The key of a position that has not ended.
  PackedPosition pack(const Position& position) const {
    return pack_pruned({region(position), position.snail, position.to_move});
  }

  /// The key after the snail of `parent` steps to `move` (an empty non-goal square), where
  /// `parent` is unpack(key) of a key of this canonicalizer: its free squares are then already
  /// its region, and the child's region follows from it without a flood fill most of the time.
  PackedPosition pack_after_step(const Position& parent, Square move) const {
    return pack_after_step(parent, move, free_after_step(parent, move));
  }

  /// The same in two halves, for a search that orders its moves on the first and packs only
  /// the moves it gets to: the free squares that matter after `move` from `parent`, in the
  /// parent's frame, before pockets are simplified; ...
  SquareMask free_after_step(const Position& parent, Square move) const {
    return options_.prune_region ? region_after_step(board_, parent.snail, parent.free, move)
                                 : parent.free & ~bit(move);
  }
  /// ... and the key from them.
  PackedPosition pack_after_step(const Position& parent, Square move, SquareMask child_free) const {
    if (options_.simplify_pockets) {
      child_free = simplify_pockets_after_step(board_, parent.snail, parent.free, move, child_free);
    }
    return pack_pruned({child_free, move, opponent(parent.to_move)});
  }

  /// Steps 1 and 3 of the packing (position.hpp) on a position already pruned to its region:
  /// also the key of a position whose free squares are already its region (a key's position
  /// with its region changed, such as goal pockets replaced), without looking for pockets again.
  PackedPosition pack_pruned(const Position& position) const {
    SquareMask free = position.free;
    Square snail = position.snail;
    if (!options_.use_symmetry) {
      // No symmetry at all (a baseline): the side to move is kept in the snail byte's top bit.
      const int side_bit = position.to_move == Player::two ? kSideTwoBit : 0;
      return {free, static_cast<std::uint8_t>(snail | side_bit)};
    }
    if (position.to_move == Player::two) {
      free = rotation_.apply(free);
      snail = rotation_.apply(snail);
    }
    PackedPosition key{free, static_cast<std::uint8_t>(snail)};
    if (reflection_) {
      const PackedPosition mirrored{reflection_->apply(free),
                                    static_cast<std::uint8_t>(reflection_->apply(snail))};
      if (mirrored < key) key = mirrored;
    }
    return key;
  }
  /// Maps a square of `pack(position)`'s frame (e.g. a stored best move) back to `position`'s
  /// own frame by undoing the same rotation and reflection pack() applied. Both maps are
  /// involutions, so undoing is applying them again in reverse order. When the reflected key
  /// ties the unreflected one the position is symmetric and either image is an equivalent move.
  Square from_key_frame(const Position& position, Square key_square) const {
    if (!options_.use_symmetry) return key_square;
    SquareMask free = region(position);
    Square snail = position.snail;
    const bool rotated = position.to_move == Player::two;
    if (rotated) {
      free = rotation_.apply(free);
      snail = rotation_.apply(snail);
    }
    Square square = key_square;
    if (reflection_) {
      const PackedPosition plain{free, static_cast<std::uint8_t>(snail)};
      const PackedPosition mirrored{reflection_->apply(free),
                                    static_cast<std::uint8_t>(reflection_->apply(snail))};
      if (mirrored < plain) square = reflection_->apply(square);
    }
    return rotated ? rotation_.apply(square) : square;
  }

  /// A position that has the given key (player 1 to move unless symmetry is off).
  static Position unpack(const PackedPosition& key) {
    return {key.free, static_cast<Square>(key.snail & ~kSideTwoBit),
            key.snail & kSideTwoBit ? Player::two : Player::one};
  }

  const Board& board() const { return board_; }

 private:
  static constexpr int kSideTwoBit = 0x80;

  /// Step 2 of the packing: the free squares that matter (with pockets simplified if asked).
  SquareMask region(const Position& position) const {
    if (!options_.prune_region) return position.free;
    const SquareMask free = region_of(board_, position.snail, position.free);
    return options_.simplify_pockets ? simplify_all_pockets(board_, position.snail, free) : free;
  }

  Board board_;
  Options options_;
  SquarePermutation rotation_;
  std::optional<SquarePermutation> reflection_;  // square boards only
};

}  // namespace rastros
