// Board geometry: sizes, squares, neighbours, dilation, goals, start, region and symmetries.
// Every expectation is checked against an independent computation on (file, rank) coordinates,
// never against the shift tables the library uses.

#include <gtest/gtest.h>

#include <deque>
#include <random>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "rastros/board.hpp"
#include "rastros/region.hpp"
#include "rastros/symmetry.hpp"

namespace rastros {
namespace {

// Sizes chosen to hit every edge case of the shifts: square and not, 2-wide, 26 files, exactly
// 64 squares (where the mask has no spare high bit).
const std::vector<std::pair<int, int>> kSizes = {
    {2, 2}, {3, 3}, {4, 4},  {5, 3},  {3, 5},  {2, 7},  {7, 2},  {7, 7},
    {8, 8}, {9, 7}, {26, 2}, {2, 32}, {4, 16}, {16, 4}, {6, 10}, {21, 3},
};

std::vector<Board> all_boards() {
  std::vector<Board> boards;
  for (const auto& [w, h] : kSizes) {
    boards.emplace_back(w, h, StepSet::king);
    boards.emplace_back(w, h, StepSet::orthogonal);
  }
  return boards;
}

std::string describe(const Board& board) {
  return board.name() + (board.steps() == StepSet::king ? " king" : " orthogonal");
}

// The step directions, written out rather than taken from the library.
std::vector<std::pair<int, int>> directions(StepSet steps) {
  if (steps == StepSet::orthogonal) return {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  return {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
}

// Neighbours of (file, rank) as a mask, from coordinates alone.
SquareMask expected_neighbours(int width, int height, StepSet steps, int file, int rank) {
  SquareMask mask = 0;
  for (const auto& [df, dr] : directions(steps)) {
    const int f = file + df;
    const int r = rank + dr;
    if (f >= 0 && f < width && r >= 0 && r < height) mask |= SquareMask{1} << (r * width + f);
  }
  return mask;
}

SquareMask random_mask(std::mt19937_64& random, const Board& board, int density_percent) {
  SquareMask mask = 0;
  for (int s = 0; s < board.square_count(); ++s) {
    if (static_cast<int>(random() % 100) < density_percent) mask |= SquareMask{1} << s;
  }
  return mask;
}

TEST(Board, ValidSizes) {
  for (const auto& [w, h] : kSizes) {
    const Board board(w, h);
    EXPECT_EQ(board.width(), w);
    EXPECT_EQ(board.height(), h);
    EXPECT_EQ(board.square_count(), w * h);
    EXPECT_EQ(board.is_square(), w == h);
    EXPECT_EQ(board.name(), std::to_string(w) + "x" + std::to_string(h));
    EXPECT_EQ(board.steps(), StepSet::king);  // the default
    EXPECT_EQ(count(board.all_squares()), w * h);
    // all_squares is exactly the low W*H bits.
    for (int s = 0; s < 64; ++s) EXPECT_EQ((board.all_squares() >> s & 1) != 0, s < w * h);
  }
  EXPECT_EQ(Board(8, 8).all_squares(), ~SquareMask{0});
}

TEST(Board, InvalidSizesThrowInputError) {
  // Too small on either side, more than 64 squares, more than 26 files (a..z).
  const std::vector<std::pair<int, int>> bad = {{1, 5},  {5, 1},  {1, 1}, {0, 0},  {0, 7},
                                                {-2, 4}, {9, 8},  {8, 9}, {65, 1}, {11, 6},
                                                {32, 2}, {27, 2}, {30, 2}};
  for (const auto& [w, h] : bad) {
    EXPECT_THROW(Board(w, h), InputError) << w << "x" << h;
    EXPECT_THROW(Board(w, h, StepSet::orthogonal), InputError) << w << "x" << h;
  }
}

TEST(Board, ErrorMessagesNameTheProblem) {
  auto message = [](int w, int h) -> std::string {
    try {
      Board board(w, h);
    } catch (const InputError& error) {
      return error.what();
    }
    return "(no error)";
  };
  EXPECT_NE(message(1, 5).find("1x5"), std::string::npos) << message(1, 5);
  EXPECT_NE(message(1, 5).find("small"), std::string::npos) << message(1, 5);
  EXPECT_NE(message(9, 8).find("64"), std::string::npos) << message(9, 8);
  EXPECT_NE(message(32, 2).find("26"), std::string::npos) << message(32, 2);
}

TEST(Board, SquareNumbering) {
  const Board board(7, 7);
  EXPECT_EQ(board.square_at(0, 0), 0);   // a1
  EXPECT_EQ(board.square_at(6, 0), 6);   // g1
  EXPECT_EQ(board.square_at(0, 6), 42);  // a7
  EXPECT_EQ(board.square_at(6, 6), 48);  // g7
  EXPECT_EQ(board.square_at(3, 3), 24);  // d4
  for (const Board& b : all_boards()) {
    for (int r = 0; r < b.height(); ++r) {
      for (int f = 0; f < b.width(); ++f) {
        const Square s = b.square_at(f, r);
        EXPECT_EQ(s, r * b.width() + f);
        EXPECT_EQ(b.file_of(s), f);
        EXPECT_EQ(b.rank_of(s), r);
        EXPECT_TRUE(b.on_board(f, r));
      }
    }
    EXPECT_FALSE(b.on_board(-1, 0));
    EXPECT_FALSE(b.on_board(0, -1));
    EXPECT_FALSE(b.on_board(b.width(), 0));
    EXPECT_FALSE(b.on_board(0, b.height()));
  }
}

TEST(Board, CornerAndEdgeNeighbourCounts) {
  const Board king(7, 7, StepSet::king);
  const Board orth(7, 7, StepSet::orthogonal);
  for (Square corner : {0, 6, 42, 48}) {
    EXPECT_EQ(count(king.neighbours(corner)), 3) << corner;
    EXPECT_EQ(count(orth.neighbours(corner)), 2) << corner;
  }
  for (Square edge : {3, 21, 27, 45}) {  // d1, a4, g4, d7
    EXPECT_EQ(count(king.neighbours(edge)), 5) << edge;
    EXPECT_EQ(count(orth.neighbours(edge)), 3) << edge;
  }
  EXPECT_EQ(count(king.neighbours(24)), 8);
  EXPECT_EQ(count(orth.neighbours(24)), 4);
  // a1 on 7x7: b1, a2 and (king only) b2.
  EXPECT_EQ(king.neighbours(0), bit(1) | bit(7) | bit(8));
  EXPECT_EQ(orth.neighbours(0), bit(1) | bit(7));
  // g7: f7, g6, f6. No wrapping to a8-like squares or the next rank's a-file.
  EXPECT_EQ(king.neighbours(48), bit(47) | bit(41) | bit(40));
  // g4 (27) must not see a5 (28) or a4 (21) through wrap-round.
  EXPECT_EQ(king.neighbours(27), bit(26) | bit(19) | bit(20) | bit(33) | bit(34));
}

TEST(Board, NeighboursMatchCoordinates) {
  for (const Board& board : all_boards()) {
    for (Square s = 0; s < board.square_count(); ++s) {
      const int f = s % board.width();
      const int r = s / board.width();
      EXPECT_EQ(board.neighbours(s),
                expected_neighbours(board.width(), board.height(), board.steps(), f, r))
          << describe(board) << " square " << s;
      EXPECT_EQ(board.neighbours(s) & bit(s), 0u);
      EXPECT_EQ(board.neighbours(s) & ~board.all_squares(), 0u);
    }
  }
}

TEST(Board, NeighbourRelationIsSymmetric) {
  for (const Board& board : all_boards()) {
    for (Square a = 0; a < board.square_count(); ++a) {
      for (Square b = 0; b < board.square_count(); ++b) {
        EXPECT_EQ((board.neighbours(a) & bit(b)) != 0, (board.neighbours(b) & bit(a)) != 0)
            << describe(board) << " " << a << " " << b;
      }
    }
  }
}

TEST(Board, DilateIsMaskPlusNeighbourUnion) {
  std::mt19937_64 random(12345);
  for (const Board& board : all_boards()) {
    for (int trial = 0; trial < 300; ++trial) {
      const int density = static_cast<int>(random() % 40);  // sparse masks show single squares
      const SquareMask mask = random_mask(random, board, density);
      SquareMask expected = mask;
      for (Square s = 0; s < board.square_count(); ++s) {
        if (mask >> s & 1) {
          expected |= expected_neighbours(board.width(), board.height(), board.steps(),
                                          s % board.width(), s / board.width());
        }
      }
      EXPECT_EQ(board.dilate(mask), expected) << describe(board) << " mask " << mask;
    }
    EXPECT_EQ(board.dilate(0), 0u);
    EXPECT_EQ(board.dilate(board.all_squares()), board.all_squares());
    for (Square s = 0; s < board.square_count(); ++s) {
      EXPECT_EQ(board.dilate(bit(s)), bit(s) | board.neighbours(s)) << describe(board) << " " << s;
    }
  }
}

TEST(Board, Goals) {
  for (const Board& board : all_boards()) {
    const Square top_right = board.square_at(board.width() - 1, board.height() - 1);
    EXPECT_EQ(board.goal_of(Player::one), 0);
    EXPECT_EQ(board.goal_of(Player::two), top_right);
    EXPECT_EQ(board.goals(), bit(0) | bit(top_right));
    for (Square s = 0; s < board.square_count(); ++s) {
      EXPECT_EQ(board.is_goal(s), s == 0 || s == top_right) << describe(board) << " " << s;
    }
  }
  EXPECT_EQ(Board(7, 7).goal_of(Player::two), 48);  // g7
  EXPECT_EQ(Board(5, 3).goal_of(Player::two), 14);  // e3
}

TEST(Board, DefaultStart) {
  EXPECT_EQ(Board(7, 7).default_start(), 24);                           // d4
  EXPECT_EQ(Board(8, 8).default_start(), Board(8, 8).square_at(4, 4));  // e5
  EXPECT_EQ(Board(8, 8).default_start(), 36);
  for (const Board& board : all_boards()) {
    // File floor(W/2) (0-based), rank floor(H/2)+1 (1-based), i.e. rank index floor(H/2).
    EXPECT_EQ(board.file_of(board.default_start()), board.width() / 2) << describe(board);
    EXPECT_EQ(board.rank_of(board.default_start()), board.height() / 2) << describe(board);
  }
  // On 2x2 the rule lands on the top-right goal; the Board reports it and Rastros refuses it.
  EXPECT_TRUE(Board(2, 2).is_goal(Board(2, 2).default_start()));
}

TEST(Board, Equality) {
  EXPECT_EQ(Board(7, 7), Board(7, 7));
  EXPECT_FALSE(Board(7, 7) == Board(7, 7, StepSet::orthogonal));
  EXPECT_FALSE(Board(5, 3) == Board(3, 5));
}

// The region written as a breadth-first search over coordinates: walk through empty non-goal
// squares from the snail; an empty goal next to a visited square is reached but not walked
// through (entering it ends the game).
SquareMask bfs_region(const Board& board, Square snail, SquareMask free) {
  const int w = board.width();
  const int h = board.height();
  std::vector<std::vector<bool>> seen(w, std::vector<bool>(h, false));
  auto is_free = [&](int f, int r) { return (free >> (r * w + f) & 1) != 0; };
  auto is_goal = [&](int f, int r) { return (f == 0 && r == 0) || (f == w - 1 && r == h - 1); };
  std::deque<std::pair<int, int>> queue = {{snail % w, snail / w}};
  seen[snail % w][snail / w] = true;
  SquareMask region = 0;
  while (!queue.empty()) {
    const auto [f, r] = queue.front();
    queue.pop_front();
    for (const auto& [df, dr] : directions(board.steps())) {
      const int nf = f + df;
      const int nr = r + dr;
      if (nf < 0 || nf >= w || nr < 0 || nr >= h || seen[nf][nr] || !is_free(nf, nr)) continue;
      seen[nf][nr] = true;
      region |= SquareMask{1} << (nr * w + nf);
      if (!is_goal(nf, nr)) queue.emplace_back(nf, nr);
    }
  }
  return region;
}

TEST(Region, MatchesBreadthFirstSearchOnRandomMasks) {
  std::mt19937_64 random(777);
  for (const Board& board : all_boards()) {
    for (int trial = 0; trial < 400; ++trial) {
      Square snail = 0;
      do {
        snail = static_cast<Square>(random() % board.square_count());
      } while (board.is_goal(snail));
      const int density = 20 + static_cast<int>(random() % 70);
      const SquareMask free = random_mask(random, board, density) & ~bit(snail);
      EXPECT_EQ(region_of(board, snail, free), bfs_region(board, snail, free))
          << describe(board) << " snail " << snail << " free " << free;
    }
  }
}

// The child's region computed from the parent's (region_after_step) against a breadth-first
// search of the child from scratch, on positions reached by random walks (so that `region` is
// a real region), on every board shape and both step sets. The walks also count how often the
// local test took the shortcut, so a test that never exercises it fails.
TEST(Region, AfterStepMatchesBreadthFirstSearchAlongRandomWalks) {
  std::mt19937_64 random(4242);
  int shortcuts = 0;
  int flood_fills = 0;
  for (const Board& board : all_boards()) {
    for (int walk = 0; walk < 60; ++walk) {
      Square snail = 0;
      do {
        snail = static_cast<Square>(random() % board.square_count());
      } while (board.is_goal(snail));
      // A random slimed pattern first, then the walk from there.
      SquareMask free = random_mask(random, board, 60 + static_cast<int>(random() % 40));
      SquareMask region = bfs_region(board, snail, free & ~bit(snail));
      while (true) {
        const SquareMask steps = board.neighbours(snail) & region & ~board.goals();
        if (!steps) break;
        Square to = lowest_square(steps);
        for (int skip = static_cast<int>(random() % 8); skip > 0; --skip) {
          const SquareMask rest = steps & ~(bit(to) | (bit(to) - 1));
          to = rest ? lowest_square(rest) : lowest_square(steps);
        }
        const SquareMask expected = bfs_region(board, to, region & ~bit(to));
        ASSERT_EQ(region_after_step(board, snail, region, to), expected)
            << describe(board) << " from " << snail << " to " << to << " region " << region;
        ++(board.box_joins_neighbours(snail, region & ~board.goals()) ? shortcuts : flood_fills);
        snail = to;
        region = expected;
      }
    }
  }
  EXPECT_GT(shortcuts, 1000);
  EXPECT_GT(flood_fills, 100);
}

// box_joins_neighbours is a sufficient test: whenever it says yes, removing the square really
// leaves the rest connected (checked by breadth-first search from one of its neighbours).
TEST(Region, BoxTestNeverJoinsWhatIsCutApart) {
  std::mt19937_64 random(99);
  for (const Board& board : all_boards()) {
    for (int trial = 0; trial < 2000; ++trial) {
      const Square square = static_cast<Square>(random() % board.square_count());
      const SquareMask passable =
          random_mask(random, board, 30 + static_cast<int>(random() % 60)) & ~bit(square);
      const SquareMask neighbours = board.neighbours(square) & passable;
      if (!neighbours || !board.box_joins_neighbours(square, passable)) continue;
      // From one neighbour, without the square: every other neighbour must be reachable.
      const Square start = lowest_square(neighbours);
      SquareMask reached = bit(start);
      for (SquareMask grown = reached;; reached = grown) {
        grown = (board.dilate(reached) & passable) | reached;
        if (grown == reached) break;
      }
      EXPECT_EQ(neighbours & ~reached, 0u)
          << describe(board) << " square " << square << " passable " << passable;
    }
  }
}

TEST(Region, GoalsAreReachedButNotPassedThrough) {
  // 3x2 orthogonal: a1=0 b1=1 c1=2 / a2=3 b2=4 c2=5; goals a1 and c2.
  const Board small(3, 2, StepSet::orthogonal);
  // Snail a2, free a1 and b1: b1 touches only a1 (a goal), b2 and c1 (slimed), so it is cut off.
  EXPECT_EQ(region_of(small, 3, bit(0) | bit(1)), bit(0));
  // With b2 free too, b1 is reached through b2.
  EXPECT_EQ(region_of(small, 3, bit(0) | bit(1) | bit(4)), bit(0) | bit(1) | bit(4));
  // A goal next to a reached (not adjacent to the snail) square is in the region: snail a2,
  // free b2 and c2: c2 is next to b2.
  EXPECT_EQ(region_of(small, 3, bit(4) | bit(5)), bit(4) | bit(5));
  // 2x4 king: a1=0 b1=1 / a2=2 b2=3 / a3=4 b3=5 / a4=6 b4=7; goals a1 and b4.
  const Board strip(2, 4);
  // Snail a3, free b4 and b1: b4 is a diagonal step away; b1 has no empty path.
  EXPECT_EQ(region_of(strip, 4, bit(7) | bit(1)), bit(7));
  // Nothing free: empty region.
  EXPECT_EQ(region_of(strip, 4, 0), 0u);
}

TEST(Symmetry, RotationIsAnInvolutionSwappingTheGoals) {
  std::mt19937_64 random(99);
  for (const Board& board : all_boards()) {
    const SquarePermutation rotation = rotation_180(board);
    const Square top_right = board.square_count() - 1;
    EXPECT_EQ(rotation.apply(Square{0}), top_right) << describe(board);
    EXPECT_EQ(rotation.apply(top_right), 0) << describe(board);
    SquareMask image = 0;
    for (Square s = 0; s < board.square_count(); ++s) {
      const Square r = rotation.apply(s);
      ASSERT_GE(r, 0);
      ASSERT_LT(r, board.square_count());
      image |= bit(r);
      EXPECT_EQ(rotation.apply(r), s);
      // (f, r) -> (W-1-f, H-1-r)
      EXPECT_EQ(board.file_of(r), board.width() - 1 - board.file_of(s));
      EXPECT_EQ(board.rank_of(r), board.height() - 1 - board.rank_of(s));
      // Steps map to steps.
      EXPECT_EQ(rotation.apply(board.neighbours(s)), board.neighbours(r));
    }
    EXPECT_EQ(image, board.all_squares()) << describe(board);
    EXPECT_EQ(rotation.apply(board.goals()), board.goals());
    for (int trial = 0; trial < 100; ++trial) {
      const SquareMask mask = random_mask(random, board, 50);
      SquareMask expected = 0;
      for (Square s = 0; s < board.square_count(); ++s) {
        if (mask >> s & 1) expected |= bit(rotation.apply(s));
      }
      EXPECT_EQ(rotation.apply(mask), expected);
      EXPECT_EQ(rotation.apply(rotation.apply(mask)), mask);
    }
  }
}

TEST(Symmetry, DiagonalReflectionFixesBothGoals) {
  std::mt19937_64 random(4242);
  for (int n = 2; n <= 8; ++n) {
    for (StepSet steps : {StepSet::king, StepSet::orthogonal}) {
      const Board board(n, n, steps);
      const SquarePermutation reflection = diagonal_reflection(board);
      EXPECT_EQ(reflection.apply(Square{0}), 0);
      EXPECT_EQ(reflection.apply(Square{n * n - 1}), n * n - 1);
      EXPECT_EQ(reflection.apply(board.goals()), board.goals());
      for (Square s = 0; s < board.square_count(); ++s) {
        const Square m = reflection.apply(s);
        EXPECT_EQ(board.file_of(m), board.rank_of(s));
        EXPECT_EQ(board.rank_of(m), board.file_of(s));
        EXPECT_EQ(reflection.apply(m), s);
        EXPECT_EQ(reflection.apply(board.neighbours(s)), board.neighbours(m));
      }
      for (int trial = 0; trial < 100; ++trial) {
        const SquareMask mask = random_mask(random, board, 50);
        EXPECT_EQ(reflection.apply(reflection.apply(mask)), mask);
        EXPECT_EQ(count(reflection.apply(mask)), count(mask));
      }
    }
  }
}

}  // namespace
}  // namespace rastros
