// Pockets (rastros/pockets.hpp): the simplified position keeps its win/loss value, checked
// against the plain minimax of reference_minimax.hpp, and hand-made pockets simplify as the
// rules say they must.

#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string_view>
#include <vector>

#include "rastros/notation.hpp"
#include "rastros/pockets.hpp"
#include "rastros/rastros.hpp"
#include "rastros/region.hpp"
#include "reference_minimax.hpp"
#include "search/solver.hpp"
#include "slimed_positions.hpp"

namespace rastros {
namespace {

using rastros_reference::ReferenceMinimax;
using rastros_reference::RefRules;
using rastros_reference::RefValue;

SquareMask region_at(const Board& board, const Position& position) {
  return region_of(board, position.snail, position.free);
}

/// A 7x7 position's region, and the same region with every pocket simplified.
struct Simplified {
  SquareMask region;
  SquareMask simplified;
};
Simplified simplify_7x7(std::string_view position_text) {
  const Board board(7, 7);
  const Position position = parse_position(board, position_text);
  const SquareMask region = region_at(board, position);
  return {region, simplify_all_pockets(board, position.snail, region)};
}

// The pockets.hpp example: {f1, g1, g2} behind e1. Stepping to f1 wins (the opponent steps to
// g1 or g2 and we take the other), so one square of it, f1, is all that stays.
TEST(Pockets, WinningPocketShrinksToOneSquare) {
  const auto [region, simplified] = simplify_7x7("7/7/7/7/4xxx/4xx1/2o4 1");
  EXPECT_EQ(simplified, region & ~squares(Board(7, 7), {"g1", "g2"}));
}

// {f1, g1} behind e1: the opponent on f1 steps to g1 and we are stuck, so stepping in loses
// and the pocket goes.
TEST(Pockets, LosingPocketIsRemoved) {
  const auto [region, simplified] = simplify_7x7("7/7/7/7/7/4xxx/2o4 1");
  EXPECT_EQ(simplified, region & ~squares(Board(7, 7), {"f1", "g1"}));
}

// A gateway next to the snail whose own neighbours are joined round it: {e1, f1} behind d1,
// the snail on c1 (d1's only free neighbour is e1). Stepping to e1 loses (the opponent steps to
// f1 and we are stuck), so the pocket goes.
TEST(Pockets, GatewayNextToTheSnail) {
  const auto [region, simplified] = simplify_7x7("7/7/7/3x3/4xx1/2xxxxx/2o3x 2");
  EXPECT_EQ(simplified, region & ~squares(Board(7, 7), {"e1", "f1"}));
}

// A part next to a goal is no pocket, whatever it holds: {b1, a1} behind c1 with a1 a goal.
TEST(Pockets, PartWithAGoalStays) {
  const auto [region, simplified] = simplify_7x7("7/7/7/7/7/xxx4/3o3 1");
  EXPECT_EQ(simplified, region);
}

// Board::unjoined_squares (every square at once, with shifts) against box_joins_neighbours
// (one square at a time, from a table of box patterns), on random masks of several boards.
TEST(Pockets, UnjoinedSquaresMatchTheBoxTest) {
  std::mt19937_64 rng(99);
  for (const auto& [width, height, steps] :
       std::vector<std::tuple<int, int, StepSet>>{{7, 7, StepSet::king},
                                                  {8, 8, StepSet::king},
                                                  {3, 5, StepSet::king},
                                                  {6, 7, StepSet::king},
                                                  {2, 9, StepSet::king},
                                                  {5, 4, StepSet::orthogonal}}) {
    const Board board(width, height, steps);
    for (int i = 0; i < 20000; ++i) {
      const SquareMask mask = (i % 2 ? rng() | rng() : rng() & rng()) & board.all_squares();
      SquareMask expected = 0;
      for (Square square : SquareSet(mask)) {
        if (!board.box_joins_neighbours(square, mask & ~bit(square))) expected |= bit(square);
      }
      ASSERT_EQ(board.unjoined_squares(mask), expected) << board.name() << " mask " << mask;
      // box_cut_squares, where the box joins the neighbours: the box squares whose loss
      // unjoins them.
      const Square centre = static_cast<Square>(rng() % board.square_count());
      const SquareMask around = mask & ~bit(centre);
      if (board.width() < 3 || !board.box_joins_neighbours(centre, around)) continue;
      SquareMask cuts = 0;
      for (Square square = 0; square < board.square_count(); ++square) {
        const bool in_box = std::abs(board.file_of(square) - board.file_of(centre)) <= 1 &&
                            std::abs(board.rank_of(square) - board.rank_of(centre)) <= 1;
        if (in_box && (around & bit(square)) &&
            !board.box_joins_neighbours(centre, around & ~bit(square))) {
          cuts |= bit(square);
        }
      }
      ASSERT_EQ(board.box_cut_squares(centre, around), cuts)
          << board.name() << " mask " << around << " centre " << centre;
    }
  }
}

/// True when `region` (the snail on `snail`) still holds a pocket of two squares or more, found
/// the plain way, independently of pockets.cpp: for every square, each part of the rest of the
/// passable squares by breadth-first search; a part with no square next to the snail or to a
/// goal of the region is a pocket behind that square.
bool has_pocket(const Board& board, Square snail, SquareMask region) {
  const SquareMask passable = region & ~board.goals();
  SquareMask no_pocket = board.neighbours(snail);
  for (Square goal : SquareSet(region & board.goals())) no_pocket |= board.neighbours(goal);
  for (Square gateway : SquareSet(passable)) {
    SquareMask unvisited = passable & ~bit(gateway);
    while (unvisited) {
      std::vector<Square> part{lowest_square(unvisited)};
      unvisited &= ~bit(part[0]);
      for (std::size_t i = 0; i < part.size(); ++i) {
        for (Square next : SquareSet(board.neighbours(part[i]) & unvisited)) {
          unvisited &= ~bit(next);
          part.push_back(next);
        }
      }
      SquareMask squares_of_part = 0;
      for (Square square : part) squares_of_part |= bit(square);
      if (part.size() >= 2 && !(squares_of_part & no_pocket)) return true;
    }
  }
  return false;
}

// The heart of it: on random positions of small boards, the simplified region gives the same
// winner under plain minimax; it is part of the region, and simplifying again changes nothing.
TEST(Pockets, SimplifiedPositionsKeepTheirValue) {
  std::mt19937 rng(20261202);
  for (const auto& [width, height, steps] :
       std::vector<std::tuple<int, int, StepSet>>{{5, 5, StepSet::king},
                                                  {6, 5, StepSet::king},
                                                  {4, 6, StepSet::king},
                                                  {5, 5, StepSet::orthogonal},
                                                  {6, 5, StepSet::orthogonal}}) {
    const Board board(width, height, steps);
    const RefRules rules{width, height, steps == StepSet::king, false};
    int simplified_count = 0;
    for (const Position& position : random_positions(board, 400, rng)) {
      const SquareMask region = region_at(board, position);
      const SquareMask simplified = simplify_all_pockets(board, position.snail, region);
      EXPECT_EQ(simplified & ~region, 0u);
      EXPECT_EQ(simplify_all_pockets(board, position.snail, simplified), simplified);
      EXPECT_FALSE(has_pocket(board, position.snail, simplified))
          << board.name() << " " << position_string(board, position);
      if (simplified == region) continue;
      ++simplified_count;
      ReferenceMinimax reference(rules);
      const RefValue before =
          reference.solve(reference_position(board, position.snail, region, position.to_move))
              .value;
      const RefValue after =
          reference.solve(reference_position(board, position.snail, simplified, position.to_move))
              .value;
      EXPECT_EQ(before, after) << board.name() << " " << position_string(board, position);
    }
    // Enough of them had a pocket to simplify for the check to mean something.
    EXPECT_GT(simplified_count, 40) << board.name();
  }
}

// What the search uses after each step: simplifying only the pockets the step can have
// created (next to the square left, behind the candidate gateways of simplify_pockets_after_step)
// gives the same region as simplifying every pocket of the child, from any parent with nothing
// left to simplify. Each way of finding candidates is exercised: the box test joined or not.
TEST(Pockets, AfterStepMatchesSimplifyingEverything) {
  std::mt19937 rng(4242);
  for (const auto& [width, height, steps] :
       std::vector<std::tuple<int, int, StepSet>>{{7, 7, StepSet::king},
                                                  {8, 8, StepSet::king},
                                                  {6, 5, StepSet::king},
                                                  {2, 7, StepSet::king},
                                                  {6, 6, StepSet::orthogonal}}) {
    const Board board(width, height, steps);
    int changed_joined = 0;
    int changed_unjoined = 0;
    for (const Position& position : random_positions(board, 3000, rng, 0.1)) {
      const SquareMask parent =
          simplify_all_pockets(board, position.snail, region_at(board, position));
      for (Square move : SquareSet(board.neighbours(position.snail) & parent & ~board.goals())) {
        const SquareMask child = region_after_step(board, position.snail, parent, move);
        const SquareMask expected = simplify_all_pockets(board, move, child);
        ASSERT_EQ(simplify_pockets_after_step(board, position.snail, parent, move, child), expected)
            << board.name() << " "
            << position_string(board, {parent, position.snail, position.to_move}) << " step to "
            << square_name(board, move);
        // Nothing is left to simplify (a plain search for pockets finds none).
        ASSERT_FALSE(has_pocket(board, move, expected))
            << board.name() << " step to " << square_name(board, move);
        if (expected == child) continue;
        if (board.box_joins_neighbours(position.snail, parent & ~board.goals())) {
          ++changed_joined;
        } else {
          ++changed_unjoined;
        }
      }
    }
    // Both ways of finding candidate gateways met steps that made pockets.
    EXPECT_GT(changed_unjoined, 20) << board.name();
    if (board.width() >= 3) {
      EXPECT_GT(changed_joined, 20) << board.name();
    }
  }
}

// The solver with pockets simplified (value only, the only mode that uses them) agrees with
// plain minimax, on positions along which pockets appear and vanish as the search goes.
TEST(Pockets, SolverWithPocketsAgreesWithMinimax) {
  std::mt19937 rng(777);
  for (const Board& board : minimax_boards()) {
    const Rastros game(board);
    SolverOptions options;
    options.value_only = true;
    options.simplify_pockets = true;
    options.table_bytes = std::size_t{1} << 20;
    Solver solver(game, options);
    for (const Position& position : random_positions(board, 60, rng, 0.4)) {
      if (game.has_ended(position)) continue;
      EXPECT_EQ(solver.solve(position).value == Value::win, minimax_mover_wins(board, position))
          << board.name() << " " << position_string(board, position);
    }
  }
}

// The 7x7 game from the start: every first move's value is the same with and without pockets.
TEST(Pockets, SevenBySevenAnalysisIsUnchanged) {
  const Rastros game{Board(7, 7)};
  SolverOptions with_pockets;
  with_pockets.value_only = true;
  with_pockets.simplify_pockets = true;
  SolverOptions without = with_pockets;
  without.simplify_pockets = false;
  const Analysis a = Solver(game, with_pockets).analyse(game.start_position());
  const Analysis b = Solver(game, without).analyse(game.start_position());
  ASSERT_EQ(a.children.size(), b.children.size());
  for (std::size_t i = 0; i < a.children.size(); ++i) {
    EXPECT_EQ(a.children[i].move, b.children[i].move);
    EXPECT_EQ(a.children[i].outcome.value, b.children[i].outcome.value);
  }
  EXPECT_EQ(a.outcome, b.outcome);
  EXPECT_LT(a.nodes, b.nodes);  // the point of them
}

}  // namespace
}  // namespace rastros
