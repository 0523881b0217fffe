// The move memory (search/move_memory.hpp): which surroundings share an entry, and the rule that
// a remembered move changes how fast the solver runs, never what it answers.

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <initializer_list>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rastros/notation.hpp"
#include "rastros/rastros.hpp"
#include "search/move_memory.hpp"
#include "search/solver.hpp"

namespace rastros {
namespace {

SquareMask squares(const Board& board, std::initializer_list<std::string_view> names) {
  SquareMask mask = 0;
  for (std::string_view name : names) mask |= bit(parse_square(board, name));
  return mask;
}

/// Player 1 to move with the snail on `snail` and every other square free but `slimed`.
Position node_at(const Board& board, std::string_view snail, SquareMask slimed) {
  const Square square = parse_square(board, snail);
  const SquareMask all = (SquareMask{1} << board.square_count()) - 1;
  return {all & ~slimed & ~bit(square), square, Player::one};
}

TEST(MoveMemory, RecallsTheLastMoveRememberedForTheSameSurroundings) {
  const Board board(7, 7);
  MoveMemory memory(board);
  const Position node = node_at(board, "c3", squares(board, {"d4", "d3"}));
  const std::uint64_t tag = memory.tag_of(node, 40);
  EXPECT_NE(tag, 0u);
  EXPECT_EQ(memory.recall(tag), -1) << "a new memory remembers nothing";
  memory.remember(tag, parse_square(board, "b3"));
  EXPECT_EQ(memory.recall(tag), parse_square(board, "b3"));
  memory.remember(tag, parse_square(board, "c2"));
  EXPECT_EQ(memory.recall(tag), parse_square(board, "c2")) << "the last move wins";
}

TEST(MoveMemory, SurroundingsAreTheBoxOfTwoStepsTheSideAndTheRegionsSize) {
  const Board board(7, 7);
  const MoveMemory memory(board);
  const SquareMask trail = squares(board, {"d4", "d3"});
  const Position node = node_at(board, "c3", trail);
  const std::uint64_t tag = memory.tag_of(node, 40);
  // Slime three steps away or more (f3, c6, g6) is outside the box a1..e5: the same entry.
  for (std::string_view far : {"f3", "c6", "g6"}) {
    EXPECT_EQ(memory.tag_of(node_at(board, "c3", trail | squares(board, {far})), 40), tag) << far;
  }
  // Slime inside the box, at one step or two, makes other surroundings.
  for (std::string_view near : {"b2", "a2", "e5", "c5", "a3"}) {
    EXPECT_NE(memory.tag_of(node_at(board, "c3", trail | squares(board, {near})), 40), tag) << near;
  }
  // The same box with the snail elsewhere, or the other side to move: other surroundings.
  EXPECT_NE(memory.tag_of(node_at(board, "c2", trail), 40), tag);
  Position other_side = node;
  other_side.to_move = Player::two;
  EXPECT_NE(memory.tag_of(other_side, 40), tag);
  // Regions are told apart in eighths: 40..47 share an entry, 39 and 48 do not.
  EXPECT_EQ(memory.tag_of(node, 47), tag);
  EXPECT_NE(memory.tag_of(node, 39), tag);
  EXPECT_NE(memory.tag_of(node, 48), tag);
}

/// Solves `position` with and without the memory (one thread, so that each run is one fixed
/// search) and expects one answer; returns the two node counts.
std::pair<std::uint64_t, std::uint64_t> expect_same_answers(const Rastros& game,
                                                            const Position& position,
                                                            SolverOptions options) {
  tbb::task_arena arena(1);
  options.remember_moves = true;
  Solver with_memory(game, options);
  options.remember_moves = false;
  Solver without_memory(game, options);
  Analysis with, without;
  arena.execute([&] {
    with = with_memory.analyse(position);
    without = without_memory.analyse(position);
  });
  const std::string where = position_string(game.board(), position);
  EXPECT_EQ(with.outcome, without.outcome) << where;
  EXPECT_EQ(with.best_moves, without.best_moves) << where;
  EXPECT_EQ(with.children.size(), without.children.size()) << where;
  for (std::size_t i = 0; i < std::min(with.children.size(), without.children.size()); ++i) {
    EXPECT_EQ(with.children[i].move, without.children[i].move) << where;
    EXPECT_EQ(with.children[i].outcome, without.children[i].outcome) << where;
  }
  return {with.nodes, without.nodes};
}

TEST(MoveMemory, NeverChangesAnAnswerAlongRandomGames) {
  std::mt19937 random(20261202);
  int searches_that_differ = 0;
  for (const auto& [width, height] : {std::pair{6, 6}, std::pair{6, 5}, std::pair{5, 7}}) {
    const Rastros game{Board(width, height)};
    for (bool value_only : {true, false}) {
      SolverOptions options;
      options.value_only = value_only;
      options.table_bytes = std::size_t{4} << 20;
      for (int games = 0; games < 3; ++games) {
        Position position = game.start_position();
        while (!game.has_ended(position)) {
          const auto [with, without] = expect_same_answers(game, position, options);
          searches_that_differ += with != without;
          std::vector<Square> list;
          for (Square move : game.legal_moves(position)) list.push_back(move);
          position = game.play(position, list[random() % list.size()]);
        }
      }
    }
  }
  // The memory is consulted: searches that take the same path with and without it compare
  // nothing.
  EXPECT_GT(searches_that_differ, 10);
}

}  // namespace
}  // namespace rastros
