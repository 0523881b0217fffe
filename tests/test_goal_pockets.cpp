// Goal pockets (rastros/goal_pockets.hpp): what find_goal_pocket returns is a goal pocket by
// the definition, checked by a plain breadth-first search; a stand-in keeps the position's
// win/loss value under the plain minimax of reference_minimax.hpp, with the pocket's worth
// found by that minimax too; and the solver, which values pockets by its own search, agrees
// with the minimax and with itself without goal pockets.

#include <gtest/gtest.h>

#include <random>
#include <tuple>
#include <vector>

#include "rastros/goal_pockets.hpp"
#include "rastros/notation.hpp"
#include "rastros/rastros.hpp"
#include "rastros/region.hpp"
#include "reference_minimax.hpp"
#include "search/solver.hpp"
#include "slimed_positions.hpp"
#include "sample_scale.hpp"

namespace rastros {
namespace {

using rastros_reference::ReferenceMinimax;
using rastros_reference::RefRules;
using rastros_reference::RefValue;

/// The part of `passable` joined to `start`, by plain breadth-first search.
SquareMask part_joined_to(const Board& board, Square start, SquareMask passable) {
  std::vector<Square> queue{start};
  SquareMask seen = bit(start);
  for (std::size_t i = 0; i < queue.size(); ++i) {
    for (Square next : SquareSet(board.neighbours(queue[i]) & passable & ~seen)) {
      seen |= bit(next);
      queue.push_back(next);
    }
  }
  return seen;
}

/// What stepping from the gateway into `pocket` is worth to each player, by plain minimax of
/// the positions just inside it.
GoalPocketValue minimax_value(const Board& board, const RefRules& rules, const GoalPocket& pocket) {
  bool wins[2] = {false, false};
  for (const Player entering : {Player::one, Player::two}) {
    for (Square square : SquareSet(board.neighbours(pocket.gateway) & pocket.part)) {
      if (square == board.goal_of(entering)) wins[entering == Player::two] = true;
      if (board.is_goal(square)) continue;
      ReferenceMinimax reference(rules);
      const RefValue inside =
          reference
              .solve(
                  reference_position(board, square, pocket.part & ~bit(square), opponent(entering)))
              .value;
      if (inside == RefValue::loss) wins[entering == Player::two] = true;
    }
  }
  return {wins[0], wins[1]};
}

// The header's example: {f6, f7, g6, g7} behind e5; player 2 wins whoever steps in, so the
// stand-in is the path f6-g7.
TEST(GoalPockets, HeaderExample) {
  const Board board(7, 7);
  const Position position = parse_position(board, "4x2/4x2/5xx/1o5/7/7/7 1");
  const SquareMask region = region_of(board, position.snail, position.free);
  const auto pocket =
      find_goal_pocket(board, position.snail, region, parse_square(board, "g7"), 16);
  ASSERT_TRUE(pocket);
  EXPECT_EQ(pocket.gateway, parse_square(board, "e5"));
  EXPECT_EQ(pocket.part, squares(board, {"f6", "f7", "g6", "g7"}));
  const RefRules rules{7, 7, true, false};
  const GoalPocketValue value = minimax_value(board, rules, pocket);
  EXPECT_FALSE(value.player_one_wins_entering);
  EXPECT_TRUE(value.player_two_wins_entering);
  const auto stand_in = with_goal_pocket_stand_in(board, position.snail, region, pocket, value);
  ASSERT_TRUE(stand_in);
  EXPECT_EQ(*stand_in, region & ~squares(board, {"f7", "g6"}));
  // Too small a limit: no pocket.
  EXPECT_FALSE(find_goal_pocket(board, position.snail, region, parse_square(board, "g7"), 3));
  // a1 is in the snail's part of the board: no pocket.
  EXPECT_FALSE(find_goal_pocket(board, position.snail, region, parse_square(board, "a1"), 64));
}

const std::vector<std::tuple<int, int, StepSet>> kSmallBoards{{5, 5, StepSet::king},
                                                              {6, 5, StepSet::king},
                                                              {4, 6, StepSet::king},
                                                              {5, 5, StepSet::orthogonal},
                                                              {6, 5, StepSet::orthogonal}};

// Whatever find_goal_pocket returns is a goal pocket: the goal's part of the region without the
// gateway, none of it next to the snail, at most max_part squares.
TEST(GoalPockets, FoundPocketsAreGoalPockets) {
  std::mt19937 rng(31);
  for (const auto& [width, height, steps] : kSmallBoards) {
    const Board board(width, height, steps);
    int found = 0;
    for (const Position& position : random_positions(board, 2000, rng, 0.1)) {
      const SquareMask region = region_of(board, position.snail, position.free);
      for (Square goal : SquareSet(region & board.goals())) {
        for (int max_part : {4, 8, 64}) {
          const auto pocket = find_goal_pocket(board, position.snail, region, goal, max_part);
          if (!pocket) continue;
          ++found;
          ASSERT_TRUE(region & bit(pocket.gateway));
          ASSERT_FALSE(pocket.part & bit(pocket.gateway));
          ASSERT_EQ(part_joined_to(board, goal, region & ~bit(pocket.gateway)), pocket.part)
              << board.name() << " " << position_string(board, position);
          ASSERT_FALSE(pocket.part & board.neighbours(position.snail));
          ASSERT_LE(count(pocket.part), max_part);
        }
      }
    }
    EXPECT_GT(found, 200) << board.name();
  }
}

// The heart of it: with the pocket's worth from minimax, the stand-in gives the position the
// same winner under minimax, and each kind of stand-in is met.
TEST(GoalPockets, StandInsKeepTheValue) {
  std::mt19937 rng(20261203);
  int removed = 0;
  int one_square = 0;
  int paths = 0;
  for (const auto& [width, height, steps] : kSmallBoards) {
    const Board board(width, height, steps);
    const RefRules rules{width, height, steps == StepSet::king, false};
    for (const Position& position : random_positions(board, 500, rng, 0.15)) {
      const SquareMask region = region_of(board, position.snail, position.free);
      for (Square goal : SquareSet(region & board.goals())) {
        const auto pocket = find_goal_pocket(board, position.snail, region, goal, 64);
        if (!pocket) continue;
        const GoalPocketValue value = minimax_value(board, rules, pocket);
        const auto stand_in =
            with_goal_pocket_stand_in(board, position.snail, region, pocket, value);
        if (!stand_in || *stand_in == region) continue;
        // The stand-in touches the rest of the region only through the gateway.
        const SquareMask added = *stand_in & ~(region & ~pocket.part);
        const SquareMask rest = region & ~pocket.part & ~bit(pocket.gateway);
        ASSERT_FALSE(board.dilate(added) & rest) << board.name();
        if (!added) {
          ++removed;
        } else if (count(added) == 1 && !(added & board.goals())) {
          ++one_square;
        } else {
          ++paths;
        }
        ReferenceMinimax reference(rules);
        const RefValue before =
            reference.solve(reference_position(board, position.snail, region, position.to_move))
                .value;
        const RefValue after =
            reference.solve(reference_position(board, position.snail, *stand_in, position.to_move))
                .value;
        ASSERT_EQ(before, after) << board.name() << " " << position_string(board, position)
                                 << " goal " << square_name(board, goal);
      }
    }
  }
  EXPECT_GT(removed, 10);
  EXPECT_GT(one_square, 10);
  EXPECT_GT(paths, 50);
}

// The solver values pockets by its own search and replaces them in its keys: values agree with
// plain minimax, with every pocket size allowed and with the default limit.
TEST(GoalPockets, SolverAgreesWithMinimax) {
  std::mt19937 rng(909);
  for (const Board& board : minimax_boards()) {
    const Rastros game(board);
    SolverOptions options;
    options.value_only = true;
    options.table_bytes = std::size_t{1} << 20;
    Solver default_limit(game, options);
    options.goal_pocket_max_squares = 64;
    Solver no_limit(game, options);
    int checked = 0;
    const int samples = rastros::testing_scale::samples(1500);  // sample_scale.hpp
    for (const Position& position : random_positions(board, samples, rng, 0.2)) {
      // Big regions take the minimax too long; small ones hold no pockets worth a test.
      const int region_size = count(region_of(board, position.snail, position.free));
      if (game.has_ended(position) || region_size > 18 || region_size < 12) continue;
      ++checked;
      const bool expected = minimax_mover_wins(board, position);
      EXPECT_EQ(default_limit.solve(position).value == Value::win, expected)
          << board.name() << " " << position_string(board, position);
      EXPECT_EQ(no_limit.solve(position).value == Value::win, expected)
          << board.name() << " " << position_string(board, position);
    }
    EXPECT_GT(checked, rastros::testing_scale::samples(100)) << board.name();
  }
}

// Along random games of 7x6 and 6x7 (too big for the minimax), every position and move has
// the same value with and without goal pockets; with them the search
// takes fewer nodes, so the replacements happened.
TEST(GoalPockets, SameAnswersWithAndWithout) {
  std::mt19937 rng(5);
  for (const Board& board : {Board(7, 6), Board(6, 7)}) {
    const Rastros game(board);
    SolverOptions with;
    with.value_only = true;
    with.table_bytes = std::size_t{4} << 20;
    SolverOptions without = with;
    without.summarize_goal_pockets = false;
    Solver with_solver(game, with);
    Solver without_solver(game, without);
    Position position = game.start_position();
    while (!game.has_ended(position)) {
      const Analysis a = with_solver.analyse(position);
      const Analysis b = without_solver.analyse(position);
      ASSERT_EQ(a.outcome, b.outcome) << board.name() << " " << position_string(board, position);
      ASSERT_EQ(a.children.size(), b.children.size());
      for (std::size_t i = 0; i < a.children.size(); ++i) {
        ASSERT_EQ(a.children[i].outcome.value, b.children[i].outcome.value)
            << board.name() << " " << position_string(board, position) << " "
            << square_name(board, a.children[i].move);
      }
      std::vector<Square> moves;
      for (Square move : game.legal_moves(position)) moves.push_back(move);
      position = game.play(
          position, moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng)]);
    }
    EXPECT_LT(with_solver.nodes(), without_solver.nodes()) << board.name();
  }
}

}  // namespace
}  // namespace rastros
