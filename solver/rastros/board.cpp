#include "rastros/board.hpp"

#include "core/errors.hpp"

namespace rastros {

Board::Board(int width, int height, StepSet steps) : width_(width), height_(height), steps_(steps) {
  if (width < 2 || height < 2) {
    throw InputError("board " + name() + " is too small: both sides must be at least 2");
  }
  if (width * height > kMaxSquares) {
    throw InputError("board " + name() + " has " + std::to_string(width * height) +
                     " squares; at most 64 are supported");
  }
  if (width > kMaxFiles) {
    throw InputError("board " + name() + " has more than 26 files (files are named a..z)");
  }
  all_squares_ = square_count() == 64 ? ~SquareMask{0} : bit(square_count()) - 1;
  SquareMask first_file = 0;
  for (int rank = 0; rank < height; ++rank) first_file |= bit(square_at(0, rank));
  not_first_file_ = all_squares_ & ~first_file;
  not_last_file_ = all_squares_ & ~(first_file << (width - 1));

  for (Square square = 0; square < square_count(); ++square) {
    SquareMask around = 0;
    for (int df = -1; df <= 1; ++df) {
      for (int dr = -1; dr <= 1; ++dr) {
        if (df == 0 && dr == 0) continue;
        if (steps == StepSet::orthogonal && df != 0 && dr != 0) continue;
        const int file = file_of(square) + df;
        const int rank = rank_of(square) + dr;
        if (on_board(file, rank)) around |= bit(square_at(file, rank));
      }
    }
    neighbours_[square] = around;
  }
}

std::string Board::name() const {
  return std::to_string(width_) + "x" + std::to_string(height_);
}

SquareMask Board::dilate(SquareMask mask) const {
  const SquareMask east = (mask << 1) & not_first_file_;
  const SquareMask west = (mask >> 1) & not_last_file_;
  if (steps_ == StepSet::orthogonal) {
    return mask | east | west | ((mask << width_) & all_squares_) | (mask >> width_);
  }
  const SquareMask row = mask | east | west;
  return row | ((row << width_) & all_squares_) | (row >> width_);
}

}  // namespace rastros
