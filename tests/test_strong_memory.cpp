// The strong build's estimates (retro/strong_memory.hpp) against the measured counts and peaks
// given in its comments: an estimate under a measured figure would let a build start that runs
// out of memory; one far above would refuse boards that fit.

#include <gtest/gtest.h>

#include "retro/strong_memory.hpp"

namespace rastros {
namespace {

struct Measured {
  int width;
  int height;
  double positions;  // reachable from the start, stored in the strong database
};

// The counts of the strong databases built on these boards (king steps, standard rules).
constexpr Measured kMeasured[] = {
    {5, 4, 49e3}, {6, 4, 491e3}, {7, 4, 4.4e6}, {6, 5, 25.3e6}, {5, 5, 476e3},
};

TEST(StrongMemory, PositionEstimateBoundsTheMeasuredCounts) {
  for (const Measured& measured : kMeasured) {
    const Board board(measured.width, measured.height);
    const double estimate = estimated_strong_positions(board);
    EXPECT_GE(estimate, measured.positions) << board.name();
    // The fit stays within 1.7x of each count: not so loose that it refuses boards that fit.
    EXPECT_LE(estimate, 1.8 * measured.positions) << board.name();
  }
}

TEST(StrongMemory, ByteEstimateBoundsTheMeasuredPeaks) {
  constexpr double kMiB = 1024.0 * 1024;
  // 5x4's whole peak, 10 MB, is covered by the fixed part alone.
  EXPECT_GE(estimated_strong_bytes(Board(5, 4)), 10 * kMiB);
  // Peak resident memory per position measured on these boards, plus the 6 MB at rest.
  EXPECT_GE(estimated_strong_bytes(Board(5, 5)), 6 * kMiB + 85 * 476e3);
  EXPECT_GE(estimated_strong_bytes(Board(6, 4)), 6 * kMiB + 78 * 491e3);
  EXPECT_GE(estimated_strong_bytes(Board(7, 4)), 6 * kMiB + 78 * 4.4e6);
  EXPECT_GE(estimated_strong_bytes(Board(6, 5)), 6 * kMiB + 51 * 25.3e6);
  EXPECT_GE(estimated_strong_bytes(Board(4, 8)), 6 * kMiB + 44 * 41e6);
}

TEST(StrongMemory, LargerBoardsDoublePerSquare) {
  // The figures the comment quotes: 4x8 (measured 41M) estimated at 107M; 5x5 at 594k.
  EXPECT_NEAR(estimated_strong_positions(Board(4, 8)) / 1e6, 107, 1);
  EXPECT_NEAR(estimated_strong_positions(Board(5, 5)) / 1e3, 594, 1);
  EXPECT_DOUBLE_EQ(estimated_strong_positions(Board(9, 4)),
                   2 * estimated_strong_positions(Board(7, 5)));
}

}  // namespace
}  // namespace rastros
