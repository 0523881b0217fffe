// The move ordering (search/move_ordering.hpp): its features on hand-drawn positions, counted
// here by hand, and the rule that an ordering changes how fast the solver runs, never what it
// answers.

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <initializer_list>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rastros/notation.hpp"
#include "rastros/rastros.hpp"
#include "rastros/region.hpp"
#include "search/move_ordering.hpp"
#include "search/solver.hpp"

namespace rastros {
namespace {

SquareMask squares(const Board& board, std::initializer_list<std::string_view> names) {
  SquareMask mask = 0;
  for (std::string_view name : names) mask |= bit(parse_square(board, name));
  return mask;
}

/// A position whose free squares are its region, as the solver's nodes are.
Position node_at(const Board& board, std::string_view snail, SquareMask slimed) {
  const Square square = parse_square(board, snail);
  const SquareMask free = ((SquareMask{1} << board.square_count()) - 1) & ~slimed & ~bit(square);
  return {region_of(board, square, free), square, Player::one};
}

MoveFeatures features_of(const Board& board, const Position& node, std::string_view move) {
  const MoveOrderer orderer(board, MoveOrdering::tuned);
  const Square to = parse_square(board, move);
  return orderer.move_features(node, to, board.goal_zone(Player::one, node.free),
                               board.goal_zone(Player::two, node.free),
                               region_after_step(board, node.snail, node.free, to));
}

TEST(MoveOrdering, FeaturesOfAMoveBesideTheMoversGoal) {
  // 5x5, the start (snail on c3), player 1 steps to b2, next to a1.
  const Board board(5, 5);
  const Position node = node_at(board, "c3", 0);
  const MoveFeatures features = features_of(board, node, "b2");
  // Player 2's replies from b2: a1, a2 and b1 step into or next to a1 (player 1 would win), so
  // the safe ones are a3, b3, c1 and c2.
  EXPECT_EQ(features.safe_replies, 4);
  // Player 1's moves after each, leaving out b2, c3 and the squares next to e5 (d4, d5, e4):
  //   a3: a2 a4 b3 b4 (4)   b3: a2 a3 a4 b4 c2 c4 (6)   c1: b1 c2 d1 d2 (4)
  //   c2: b1 b3 c1 d1 d2 d3 (6)
  EXPECT_EQ(features.fewest_next_moves, 4);
  EXPECT_EQ(features.most_next_moves, 6);
  EXPECT_EQ(features.total_next_moves, 20);
  EXPECT_EQ(features.my_goal_distance, 1);
  EXPECT_EQ(features.their_goal_distance, 3);
  EXPECT_EQ(features.squares_cut_off, 0);
  EXPECT_EQ(features.blocked_neighbours, 1);  // c3, just slimed
  EXPECT_TRUE(features.keeps_my_goal);
  EXPECT_TRUE(features.keeps_their_goal);
}

TEST(MoveOrdering, FeaturesOfAMoveThatCutsOffTheMoversGoal) {
  // 5x5, a wall of slime on b2-b5, snail on b1: the a-file hangs on b1. Stepping to c1 leaves
  // a1-a5 behind for good.
  const Board board(5, 5);
  const Position node = node_at(board, "b1", squares(board, {"b2", "b3", "b4", "b5"}));
  EXPECT_EQ(count(node.free), 20);
  const MoveFeatures features = features_of(board, node, "c1");
  EXPECT_EQ(features.squares_cut_off, 5);  // a1 to a5
  EXPECT_FALSE(features.keeps_my_goal);
  EXPECT_TRUE(features.keeps_their_goal);
  EXPECT_EQ(features.blocked_neighbours, 2);  // b1 (the snail's square) and b2
  // c2, d1 and d2: none is next to a1.
  EXPECT_EQ(features.safe_replies, 3);
  EXPECT_EQ(features.my_goal_distance, 2);
  EXPECT_EQ(features.their_goal_distance, 4);
}

TEST(MoveOrdering, MobilityOrderIsSafeRepliesThenDistance) {
  const Board board(5, 5);
  const MoveOrderer mobility(board, MoveOrdering::mobility);
  MoveFeatures features;
  features.safe_replies = 3;
  features.my_goal_distance = 2;
  features.total_next_moves = 40;  // ignored by this order
  EXPECT_EQ(mobility.priority(features, 24), 3 * 16 + 2);
  features.safe_replies = 2;
  features.my_goal_distance = 6;
  EXPECT_LT(mobility.priority(features, 24), 3 * 16 + 2);
}

TEST(MoveOrdering, TunedOrderPrefersCuttingTheOpponentsGoalOffInTheOpening) {
  const Board board(7, 7);
  const MoveOrderer tuned(board, MoveOrdering::tuned);
  MoveFeatures keeps;
  keeps.safe_replies = 3;
  keeps.keeps_my_goal = keeps.keeps_their_goal = true;
  MoveFeatures cuts = keeps;
  cuts.keeps_their_goal = false;
  EXPECT_LT(tuned.priority(cuts, 40), tuned.priority(keeps, 40));
  // Fewer safe replies comes first, other things equal, in the opening and the endgame.
  MoveFeatures fewer = keeps;
  fewer.safe_replies = 2;
  EXPECT_LT(tuned.priority(fewer, 40), tuned.priority(keeps, 40));
  EXPECT_LT(tuned.priority(fewer, 10), tuned.priority(keeps, 10));
}

/// Solves `position` with both orderings (and the table of `options`) and expects one answer.
void expect_same_answers(const Rastros& game, const Position& position, SolverOptions options) {
  tbb::task_arena arena(1);
  options.move_ordering = MoveOrdering::tuned;
  Solver tuned(game, options);
  options.move_ordering = MoveOrdering::mobility;
  Solver mobility(game, options);
  Analysis tuned_answer, mobility_answer;
  arena.execute([&] {
    tuned_answer = tuned.analyse(position);
    mobility_answer = mobility.analyse(position);
  });
  const std::string where = position_string(game.board(), position);
  EXPECT_EQ(tuned_answer.outcome, mobility_answer.outcome) << where;
  EXPECT_EQ(tuned_answer.best_moves, mobility_answer.best_moves) << where;
  ASSERT_EQ(tuned_answer.children.size(), mobility_answer.children.size()) << where;
  for (std::size_t i = 0; i < tuned_answer.children.size(); ++i) {
    EXPECT_EQ(tuned_answer.children[i].move, mobility_answer.children[i].move) << where;
    EXPECT_EQ(tuned_answer.children[i].outcome, mobility_answer.children[i].outcome) << where;
  }
}

TEST(MoveOrdering, OrderingsGiveTheSameAnswersAlongRandomGames) {
  std::mt19937 random(20261201);
  for (const auto& [width, height] : {std::pair{6, 6}, std::pair{6, 5}, std::pair{5, 7}}) {
    const Rastros game{Board(width, height)};
    for (bool value_only : {true, false}) {
      SolverOptions options;
      options.value_only = value_only;
      options.table_bytes = std::size_t{4} << 20;
      for (int games = 0; games < 4; ++games) {
        Position position = game.start_position();
        while (!game.has_ended(position)) {
          expect_same_answers(game, position, options);
          std::vector<Square> list;
          for (Square move : game.legal_moves(position)) list.push_back(move);
          position = game.play(position, list[random() % list.size()]);
        }
      }
    }
  }
}

}  // namespace
}  // namespace rastros
