// The matching endgame: Edmonds' blossom algorithm against exhaustive search.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "rastros/board.hpp"
#include "rastros/matching_endgame.hpp"

namespace rastros {
namespace {

// The size of a maximum matching by exhaustive recursion: the lowest vertex is either left
// unmatched or matched to one of its neighbours.
int brute_force_matching(const Board& board, SquareMask vertices,
                         std::unordered_map<SquareMask, int>& memo) {
  if (vertices == 0) return 0;
  if (const auto found = memo.find(vertices); found != memo.end()) return found->second;
  const Square v = lowest_square(vertices);
  const SquareMask rest = vertices & ~bit(v);
  int best = brute_force_matching(board, rest, memo);
  for (SquareMask next = board.neighbours(v) & rest; next != 0; next &= next - 1) {
    const Square u = lowest_square(next);
    best = std::max(best, 1 + brute_force_matching(board, rest & ~bit(u), memo));
  }
  memo.emplace(vertices, best);
  return best;
}

int brute_force_matching(const Board& board, SquareMask vertices) {
  std::unordered_map<SquareMask, int> memo;
  return brute_force_matching(board, vertices, memo);
}

// Plain undirected vertex geography: move the token to an unvisited neighbour in `unvisited`;
// a player with no move loses. True iff the player to move wins. The memo key is `unvisited`
// with the token's square in the top six bits, so boards must have at most 58 squares.
bool brute_force_geography(const Board& board, Square token, SquareMask unvisited,
                           std::unordered_map<SquareMask, bool>& memo) {
  const SquareMask key = unvisited | (static_cast<SquareMask>(token) << 58);
  if (const auto found = memo.find(key); found != memo.end()) return found->second;
  bool wins = false;
  for (SquareMask next = board.neighbours(token) & unvisited; next != 0 && !wins;
       next &= next - 1) {
    const Square to = lowest_square(next);
    wins = !brute_force_geography(board, to, unvisited & ~bit(to), memo);
  }
  memo.emplace(key, wins);
  return wins;
}

bool brute_force_geography(const Board& board, Square token, SquareMask region) {
  std::unordered_map<SquareMask, bool> memo;
  return brute_force_geography(board, token, region & ~bit(token), memo);
}

// A random subset of the board's squares with about `size` squares.
SquareMask random_subset(const Board& board, int size, std::mt19937_64& rng) {
  std::vector<Square> squares(board.square_count());
  for (Square s = 0; s < board.square_count(); ++s) squares[s] = s;
  std::shuffle(squares.begin(), squares.end(), rng);
  SquareMask mask = 0;
  for (int i = 0; i < size && i < board.square_count(); ++i) mask |= bit(squares[i]);
  return mask;
}

// A random non-goal square and a random connected region of non-goal squares grown from it,
// `size` squares besides the snail (fewer if the board runs out). The snail is not in it.
struct Endgame {
  Square snail;
  SquareMask region;
};

Endgame random_endgame(const Board& board, int size, std::mt19937_64& rng) {
  const SquareMask allowed = board.all_squares() & ~board.goals();
  std::uniform_int_distribution<int> pick_square(0, board.square_count() - 1);
  Square snail = pick_square(rng);
  while (board.is_goal(snail)) snail = pick_square(rng);
  SquareMask region = 0;
  for (int added = 0; added < size; ++added) {
    const SquareMask frontier = board.dilate(region | bit(snail)) & allowed & ~region & ~bit(snail);
    if (frontier == 0) break;
    std::uniform_int_distribution<int> pick(0, count(frontier) - 1);
    SquareMask rest = frontier;
    for (int skip = pick(rng); skip > 0; --skip) rest &= rest - 1;
    region |= bit(lowest_square(rest));
  }
  return {snail, region};
}

std::string describe(const Board& board, SquareMask mask) {
  std::string text;
  for (int rank = board.height() - 1; rank >= 0; --rank) {
    for (int file = 0; file < board.width(); ++file) {
      text += (mask & bit(board.square_at(file, rank))) != 0 ? '#' : '.';
    }
    text += '\n';
  }
  return text;
}

struct BoardShape {
  int width;
  int height;
};

std::vector<Board> boards_of(const std::vector<BoardShape>& shapes) {
  std::vector<Board> boards;
  for (const BoardShape shape : shapes) {
    boards.emplace_back(shape.width, shape.height, StepSet::king);
    boards.emplace_back(shape.width, shape.height, StepSet::orthogonal);
  }
  return boards;
}

TEST(MaximumMatching, SmallGraphs) {
  const Board king(3, 3, StepSet::king);
  EXPECT_EQ(maximum_matching_size(king, 0), 0);
  EXPECT_EQ(maximum_matching_size(king, bit(4)), 0);
  EXPECT_EQ(maximum_matching_size(king, bit(0) | bit(8)), 0);  // not adjacent
  EXPECT_EQ(maximum_matching_size(king, bit(0) | bit(4)), 1);
  EXPECT_EQ(maximum_matching_size(king, bit(0) | bit(1) | bit(3)), 1);  // a triangle
  EXPECT_EQ(maximum_matching_size(king, king.all_squares()), 4);
  // A star: the centre with the four corners, which touch only the centre.
  EXPECT_EQ(maximum_matching_size(king, bit(4) | bit(0) | bit(2) | bit(6) | bit(8)), 1);
}

TEST(MaximumMatching, FullBoards) {
  for (int width = 2; width <= 8; ++width) {
    for (int height = 2; height <= 8; ++height) {
      for (const StepSet steps : {StepSet::king, StepSet::orthogonal}) {
        const Board board(width, height, steps);
        EXPECT_EQ(maximum_matching_size(board, board.all_squares()), width * height / 2)
            << board.name();
      }
    }
  }
}

TEST(MaximumMatching, MatchesBruteForceOnEverySubsetOfSmallBoards) {
  // Every vertex subset of a few boards of at most 16 squares; king graphs are full of triangles,
  // so augmenting paths through blossoms are common. One memo serves a whole board.
  int cases = 0;
  for (const Board& board : boards_of({{4, 4}, {3, 5}, {2, 8}})) {
    std::unordered_map<SquareMask, int> memo;
    for (SquareMask vertices = 0; vertices <= board.all_squares(); ++vertices) {
      ASSERT_EQ(maximum_matching_size(board, vertices), brute_force_matching(board, vertices, memo))
          << board.name() << (board.steps() == StepSet::king ? " king\n" : " orthogonal\n")
          << describe(board, vertices);
      ++cases;
    }
  }
  EXPECT_EQ(cases, 2 * (65536 + 32768 + 65536));
}

TEST(MaximumMatching, MatchesBruteForceOnRandomSubsets) {
  const std::vector<Board> boards = boards_of({{3, 3}, {4, 4}, {5, 4}, {4, 5}, {5, 5}});
  std::mt19937_64 rng(20240611);
  int cases = 0;
  for (const Board& board : boards) {
    const int largest = std::min(board.square_count(), 16);
    for (int size = 0; size <= largest; ++size) {
      for (int repeat = 0; repeat < 40; ++repeat) {
        const SquareMask vertices = random_subset(board, size, rng);
        ASSERT_EQ(maximum_matching_size(board, vertices), brute_force_matching(board, vertices))
            << board.name() << (board.steps() == StepSet::king ? " king\n" : " orthogonal\n")
            << describe(board, vertices);
        ++cases;
      }
    }
  }
  EXPECT_GT(cases, 3000);
}

TEST(MaximumMatching, MatchesBruteForceOnLargeRandomSubsets) {
  // The exhaustive recursion removes the lowest square first, so on a board its memo only ever
  // holds a prefix of removed squares plus a profile of about one rank: cheap even on 8x8.
  const std::vector<Board> boards = boards_of({{6, 6}, {7, 7}, {8, 7}, {8, 8}});
  std::mt19937_64 rng(31337);
  int cases = 0;
  for (const Board& board : boards) {
    std::unordered_map<SquareMask, int> memo;
    std::uniform_int_distribution<int> pick_size(board.square_count() / 3, board.square_count());
    for (int repeat = 0; repeat < 150; ++repeat) {
      const SquareMask vertices = random_subset(board, pick_size(rng), rng);
      ASSERT_EQ(maximum_matching_size(board, vertices), brute_force_matching(board, vertices, memo))
          << board.name() << (board.steps() == StepSet::king ? " king\n" : " orthogonal\n")
          << describe(board, vertices);
      ++cases;
    }
  }
  EXPECT_EQ(cases, 1200);
}

TEST(MaximumMatching, MatchesBruteForceOnRandomConnectedSets) {
  const std::vector<Board> boards = boards_of({{4, 4}, {5, 5}, {6, 6}, {7, 7}});
  std::mt19937_64 rng(7);
  for (const Board& board : boards) {
    for (int repeat = 0; repeat < 300; ++repeat) {
      const Endgame endgame = random_endgame(board, 1 + repeat % 18, rng);
      const SquareMask vertices = endgame.region | bit(endgame.snail);
      ASSERT_EQ(maximum_matching_size(board, vertices), brute_force_matching(board, vertices))
          << board.name() << (board.steps() == StepSet::king ? " king\n" : " orthogonal\n")
          << describe(board, vertices);
    }
  }
}

TEST(Geography, SmallCases) {
  const Board board(4, 4, StepSet::king);
  const Square b2 = board.square_at(1, 1);
  const Square c2 = board.square_at(2, 1);
  const Square c3 = board.square_at(2, 2);
  EXPECT_FALSE(geography_mover_wins(board, b2, 0));                  // stuck
  EXPECT_FALSE(geography_mover_wins(board, b2, bit(15)));            // not adjacent
  EXPECT_TRUE(geography_mover_wins(board, b2, bit(c2)));             // one move, then stuck
  EXPECT_FALSE(geography_mover_wins(board, b2, bit(c2) | bit(c3)));  // a triangle: 2 moves
}

TEST(Geography, MatchesGameTreeSearchOnEveryRegionOf4x4) {
  // Every snail square and every region of non-goal squares of 4x4 (connected or not).
  int cases = 0;
  for (const Board& board : boards_of({{4, 4}})) {
    std::unordered_map<SquareMask, bool> memo;
    const SquareMask allowed = board.all_squares() & ~board.goals();
    for (Square snail = 1; snail < board.square_count() - 1; ++snail) {
      const SquareMask others = allowed & ~bit(snail);
      // Every subset of `others`, by the carry-rippling subset enumeration.
      SquareMask region = 0;
      do {
        ASSERT_EQ(geography_mover_wins(board, snail, region),
                  brute_force_geography(board, snail, region, memo))
            << board.name() << (board.steps() == StepSet::king ? " king" : " orthogonal")
            << ", snail on " << snail << "\n"
            << describe(board, region);
        ++cases;
        region = (region - others) & others;
      } while (region != 0);
    }
  }
  EXPECT_EQ(cases, 2 * 14 * 8192);
}

TEST(Geography, MatchesGameTreeSearch) {
  const std::vector<Board> boards = boards_of({{4, 4}, {5, 5}, {6, 6}});
  std::mt19937_64 rng(1993);
  int cases = 0;
  int wins = 0;
  for (const Board& board : boards) {
    for (int repeat = 0; repeat < 400; ++repeat) {
      const int size = 1 + repeat % 14;
      const Endgame endgame = random_endgame(board, size, rng);
      const bool expected = brute_force_geography(board, endgame.snail, endgame.region);
      ASSERT_EQ(geography_mover_wins(board, endgame.snail, endgame.region), expected)
          << board.name() << (board.steps() == StepSet::king ? " king" : " orthogonal")
          << ", snail on " << endgame.snail << "\n"
          << describe(board, endgame.region);
      ++cases;
      wins += expected ? 1 : 0;
    }
  }
  EXPECT_EQ(cases, 2400);
  // Both outcomes must be well represented for the comparison to mean anything.
  EXPECT_GT(wins, cases / 5);
  EXPECT_LT(wins, cases * 4 / 5);
}

TEST(Geography, AgreesWithMatchingSizes) {
  // The definition in the header, on regions too large for the game-tree search.
  const std::vector<Board> boards = boards_of({{7, 7}, {8, 8}});
  std::mt19937_64 rng(42);
  for (const Board& board : boards) {
    for (int repeat = 0; repeat < 500; ++repeat) {
      const Endgame endgame = random_endgame(board, 20 + repeat % 40, rng);
      const bool by_sizes = maximum_matching_size(board, endgame.region | bit(endgame.snail)) >
                            maximum_matching_size(board, endgame.region);
      ASSERT_EQ(geography_mover_wins(board, endgame.snail, endgame.region), by_sizes)
          << board.name() << ", snail on " << endgame.snail << "\n"
          << describe(board, endgame.region);
    }
  }
}

}  // namespace
}  // namespace rastros
