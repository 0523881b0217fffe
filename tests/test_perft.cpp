// Perft checked against a brute-force enumerator written here with its own representation: a
// 2D grid of bools and (x, y) coordinates, sharing nothing with Board or Rastros move generation.

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "analysis/perft.hpp"
#include "rastros/notation.hpp"
#include "rastros/rastros.hpp"

namespace rastros {
namespace {

// The rules restated: the snail steps onto an unused square; entering a corner or having no
// step ends the game; an ended game has no moves.
class BruteForce {
 public:
  BruteForce(int width, int height, bool king) : width_(width), height_(height), king_(king) {
    used_.assign(width, std::vector<bool>(height, false));
  }

  void mark(int x, int y) { used_[x][y] = true; }

  std::uint64_t count(int x, int y, int depth) {
    if (depth == 0) return 1;
    if ((x == 0 && y == 0) || (x == width_ - 1 && y == height_ - 1)) return 0;
    std::uint64_t total = 0;
    for (int dx = -1; dx <= 1; ++dx) {
      for (int dy = -1; dy <= 1; ++dy) {
        if (dx == 0 && dy == 0) continue;
        if (!king_ && dx != 0 && dy != 0) continue;
        const int nx = x + dx;
        const int ny = y + dy;
        if (nx < 0 || nx >= width_ || ny < 0 || ny >= height_ || used_[nx][ny]) continue;
        used_[nx][ny] = true;
        total += count(nx, ny, depth - 1);
        used_[nx][ny] = false;
      }
    }
    return total;
  }

 private:
  int width_;
  int height_;
  bool king_;
  std::vector<std::vector<bool>> used_;
};

// Brute-force perft after a path of (x, y) squares, the first being the start.
std::uint64_t brute_perft(int width, int height, bool king,
                          const std::vector<std::pair<int, int>>& path, int depth) {
  BruteForce brute(width, height, king);
  for (const auto& [x, y] : path) brute.mark(x, y);
  return brute.count(path.back().first, path.back().second, depth);
}

void check_from_start(int width, int height, StepSet steps, int max_depth) {
  const Board board(width, height, steps);
  const bool king = steps == StepSet::king;
  const std::pair<int, int> start{width / 2, height / 2};  // d4 on 7x7
  for (StuckRule rule : {StuckRule::loses, StuckRule::draws}) {
    const Rastros game(board, std::nullopt, rule);
    for (int depth = 0; depth <= max_depth; ++depth) {
      EXPECT_EQ(perft(game, game.start_position(), depth),
                brute_perft(width, height, king, {start}, depth))
          << board.name() << (king ? " king" : " orthogonal") << " depth " << depth;
    }
  }
}

TEST(Perft, Board3x3) {
  check_from_start(3, 3, StepSet::king, 10);
}
TEST(Perft, Board4x4) {
  check_from_start(4, 4, StepSet::king, 16);
}
TEST(Perft, Board5x3) {
  check_from_start(5, 3, StepSet::king, 15);
}
TEST(Perft, Board3x5) {
  check_from_start(3, 5, StepSet::king, 15);
}
TEST(Perft, Board4x4Orthogonal) {
  check_from_start(4, 4, StepSet::orthogonal, 16);
}
TEST(Perft, Board2x7AndItsTranspose) {
  check_from_start(2, 7, StepSet::king, 14);
  check_from_start(7, 2, StepSet::king, 14);
  check_from_start(2, 7, StepSet::orthogonal, 14);
}
TEST(Perft, Board7x7) {
  check_from_start(7, 7, StepSet::king, 6);
}
TEST(Perft, Board7x7Orthogonal) {
  check_from_start(7, 7, StepSet::orthogonal, 9);
}
TEST(Perft, Board8x8) {
  check_from_start(8, 8, StepSet::king, 5);
}

TEST(Perft, KnownSmallCounts) {
  // 3x3 from b2, by hand: 8 first moves; after a corner the game is over, so depth 2 counts
  // only the 6 non-corner first moves' replies.
  const Rastros game(Board(3, 3));
  EXPECT_EQ(perft(game, game.start_position(), 0), 1u);
  EXPECT_EQ(perft(game, game.start_position(), 1), 8u);
  EXPECT_EQ(perft(game, game.start_position(), 2), 20u);
  const Rastros standard(Board(7, 7));
  EXPECT_EQ(perft(standard, standard.start_position(), 1), 8u);
  EXPECT_EQ(perft(standard, standard.start_position(), 2), 56u);  // 8 x 7, no goal near d4
}

TEST(Perft, EndedPositionsHaveNoMoves) {
  const Rastros game(Board(3, 3));
  const Position ended = game.play(game.start_position(), 0);  // player 1 enters a1
  EXPECT_EQ(perft(game, ended, 0), 1u);
  EXPECT_EQ(perft(game, ended, 1), 0u);
  EXPECT_TRUE(perft_divide(game, ended, 1).empty());
  EXPECT_TRUE(perft_divide(game, game.start_position(), 0).empty());
}

// Random mid-game positions on random boards and starts, both step sets.
TEST(Perft, RandomPositionsMatchBruteForce) {
  std::mt19937_64 random(8086);
  int checked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    int w = 0;
    int h = 0;
    do {
      w = 2 + static_cast<int>(random() % 10);
      h = 2 + static_cast<int>(random() % 10);
    } while (w * h > 64);
    const bool king = random() % 2 == 0;
    const Board board(w, h, king ? StepSet::king : StepSet::orthogonal);
    Square start = 0;
    do {
      start = static_cast<Square>(random() % board.square_count());
    } while (board.is_goal(start));
    const Rastros game(board, start);
    Position position = game.start_position();
    std::vector<std::pair<int, int>> path = {{start % w, start / w}};
    const int prefix = static_cast<int>(random() % 12);
    for (int ply = 0; ply < prefix && !game.has_ended(position); ++ply) {
      std::vector<Square> legal;
      for (Square s : game.legal_moves(position)) legal.push_back(s);
      const Square move = legal[random() % legal.size()];
      position = game.play(position, move);
      path.emplace_back(move % w, move / w);
    }
    const int depth = static_cast<int>(random() % 6);
    EXPECT_EQ(perft(game, position, depth), brute_perft(w, h, king, path, depth))
        << board.name() << (king ? " king " : " orthogonal ") << position_string(board, position)
        << " depth " << depth;
    ++checked;
  }
  EXPECT_EQ(checked, 300);
}

TEST(Perft, DivideSumsToPerft) {
  std::mt19937_64 random(99);
  for (const auto& [w, h] : std::vector<std::pair<int, int>>{{7, 7}, {4, 4}, {5, 3}, {8, 8}}) {
    for (StepSet steps : {StepSet::king, StepSet::orthogonal}) {
      const Board board(w, h, steps);
      const Rastros game(board);
      Position position = game.start_position();
      for (int ply = 0; ply < 4 && !game.has_ended(position); ++ply) {
        for (int depth = 1; depth <= 5; ++depth) {
          const auto parts = perft_divide(game, position, depth);
          std::uint64_t sum = 0;
          std::vector<Square> first_moves;
          for (const auto& [move, nodes] : parts) {
            sum += nodes;
            first_moves.push_back(move);
            EXPECT_EQ(nodes, perft(game, game.play(position, move), depth - 1));
          }
          EXPECT_EQ(sum, perft(game, position, depth)) << board.name() << " depth " << depth;
          // One entry per legal move, in move order.
          std::vector<Square> legal;
          for (Square s : game.legal_moves(position)) legal.push_back(s);
          EXPECT_EQ(first_moves, legal);
        }
        std::vector<Square> legal;
        for (Square s : game.legal_moves(position)) legal.push_back(s);
        position = game.play(position, legal[random() % legal.size()]);
      }
    }
  }
}

}  // namespace
}  // namespace rastros
