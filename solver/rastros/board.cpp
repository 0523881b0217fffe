#include "rastros/board.hpp"

#include <cstdlib>

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
    SquareMask box = 0;
    for (int df = -1; df <= 1; ++df) {
      for (int dr = -1; dr <= 1; ++dr) {
        const int file = file_of(square) + df;
        const int rank = rank_of(square) + dr;
        if ((df || dr) && on_board(file, rank)) box |= bit(square_at(file, rank));
      }
    }
    box_[square] = box;
  }

  // For each pattern of the 3x3 box (centre excluded): flood from one of the centre's step
  // neighbours through the pattern's cells; joined when every step neighbour is reached.
  const auto adjacent = [steps](int a, int b) {
    const int df = std::abs(a % 3 - b % 3);
    const int dr = std::abs(a / 3 - b / 3);
    if (df > 1 || dr > 1 || (df == 0 && dr == 0)) return false;
    return steps == StepSet::king || df + dr == 1;
  };
  // True when the centre's step neighbours among `cells` are joined to each other through them.
  const auto joined = [&](unsigned cells) {
    unsigned targets = 0;
    for (int cell = 0; cell < 9; ++cell) {
      if ((cells >> cell & 1) && adjacent(cell, 4)) targets |= 1u << cell;
    }
    unsigned reached = targets & (~targets + 1);  // the lowest target
    for (bool grew = true; grew;) {
      grew = false;
      for (int cell = 0; cell < 9; ++cell) {
        if (!(cells >> cell & 1) || (reached >> cell & 1)) continue;
        for (int other = 0; other < 9; ++other) {
          if ((reached >> other & 1) && adjacent(cell, other)) {
            reached |= 1u << cell;
            grew = true;
            break;
          }
        }
      }
    }
    return (targets & ~reached) == 0;
  };
  for (unsigned pattern = 0; pattern < 512; ++pattern) {
    const unsigned cells = pattern & ~(1u << 4);
    if (!joined(cells)) continue;
    box_pattern_joined_[pattern >> 6] |= std::uint64_t{1} << (pattern & 63);
    for (int cell = 0; cell < 9; ++cell) {
      if ((cells >> cell & 1) && !joined(cells & ~(1u << cell))) {
        box_cut_cells_[pattern] |= static_cast<std::uint16_t>(1u << cell);
      }
    }
  }
}

std::string Board::name() const {
  return std::to_string(width_) + "x" + std::to_string(height_);
}

}  // namespace rastros
