#pragma once
// Board symmetries that preserve Rastros values.
//
//   rotation by 180 degrees (any board): a1 <-> top-right, so the goals swap. A position with
//       player 2 to move has the value of its rotation with player 1 to move.
//   reflection in the a1 diagonal (square boards): (file, rank) -> (rank, file). Both goals stay.
//
// A permutation of squares is applied to a whole mask with eight table look-ups, one per byte.

#include <array>
#include <cstdint>

#include "rastros/board.hpp"

namespace rastros {

class SquarePermutation {
 public:
  /// `image(s)` gives the square that `s` goes to; it must be a permutation of the board.
  template <class Image>
  SquarePermutation(const Board& board, Image image) {
    for (Square square = 0; square < board.square_count(); ++square) {
      images_[square] = static_cast<std::uint8_t>(image(square));
    }
    for (int byte = 0; byte < 8; ++byte) {
      for (int value = 0; value < 256; ++value) {
        SquareMask mapped = 0;
        for (int b = 0; b < 8; ++b) {
          const int square = byte * 8 + b;
          if ((value >> b & 1) && square < board.square_count()) mapped |= bit(images_[square]);
        }
        tables_[byte][value] = mapped;
      }
    }
  }

  Square apply(Square square) const { return images_[square]; }
  SquareMask apply(SquareMask mask) const {
    SquareMask mapped = 0;
    for (int byte = 0; byte < 8 && mask; ++byte, mask >>= 8) mapped |= tables_[byte][mask & 0xff];
    return mapped;
  }

 private:
  std::array<std::uint8_t, kMaxSquares> images_{};
  std::array<std::array<SquareMask, 256>, 8> tables_{};
};

inline SquarePermutation rotation_180(const Board& board) {
  return SquarePermutation(board, [&](Square s) { return board.square_count() - 1 - s; });
}

/// Only meaningful on square boards.
inline SquarePermutation diagonal_reflection(const Board& board) {
  return SquarePermutation(
      board, [&](Square s) { return board.square_at(board.rank_of(s), board.file_of(s)); });
}

}  // namespace rastros
