#include "retro/strong_memory.hpp"

#include <algorithm>
#include <cmath>

namespace rastros {

double estimated_strong_positions(const Board& board) {
  const int squares = board.square_count();
  const double log2_count = 15.68 + 0.9 * (std::min(squares, 30) - 20) + std::max(squares - 30, 0);
  const double positions = std::exp2(log2_count);
  return board.is_square() ? positions / 2 : positions;
}

double estimated_strong_bytes(const Board& board) {
  return kStrongFixedBytes + estimated_strong_positions(board) * kStrongPeakBytesPerPosition;
}

}  // namespace rastros
