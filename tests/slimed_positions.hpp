#pragma once
// Random positions with much slime, for the tests of region simplifications (pockets, goal
// pockets), their form for the plain minimax of reference_minimax.hpp, and named squares.

#include <initializer_list>
#include <random>
#include <vector>

#include "rastros/notation.hpp"
#include "rastros/position.hpp"
#include "rastros/rastros.hpp"
#include "reference_minimax.hpp"

namespace rastros {

/// The squares named, e.g. squares(board, {"f1", "g1"}).
inline SquareMask squares(const Board& board, std::initializer_list<const char*> names) {
  SquareMask mask = 0;
  for (const char* name : names) mask |= bit(parse_square(board, name));
  return mask;
}

inline rastros_reference::RefPosition reference_position(const Board& board, Square snail,
                                                         SquareMask free, Player to_move) {
  rastros_reference::RefPosition position;
  position.slime.assign(static_cast<std::size_t>(board.square_count()), false);
  for (Square square = 0; square < board.square_count(); ++square) {
    position.slime[static_cast<std::size_t>(square)] = !(free & bit(square)) && square != snail;
  }
  position.snail = {board.file_of(snail), board.rank_of(snail)};
  position.to_move = number_of(to_move);
  return position;
}

/// The boards on which the pocket tests check the solver against the plain minimax (standard
/// rules): big enough for pockets, small enough for the minimax.
inline std::vector<Board> minimax_boards() {
  return {Board(6, 6), Board(6, 5), Board(6, 6, StepSet::orthogonal)};
}

/// Whether the side to move wins `position` (standard rules), by the plain minimax.
inline bool minimax_mover_wins(const Board& board, const Position& position) {
  rastros_reference::ReferenceMinimax reference(
      {board.width(), board.height(), board.steps() == StepSet::king, false});
  return reference.solve(reference_position(board, position.snail, position.free, position.to_move))
             .value == rastros_reference::RefValue::win;
}

/// Random positions with much slime (so that pockets are common) that have not ended.
/// `least_slime`: the smallest share of slimed squares (more slime: a cheaper minimax).
inline std::vector<Position> random_positions(const Board& board, int wanted, std::mt19937& rng,
                                              double least_slime = 0.25) {
  std::vector<Position> positions;
  std::uniform_real_distribution<double> uniform(0, 1);
  while (static_cast<int>(positions.size()) < wanted) {
    const double density = least_slime + 0.3 * uniform(rng);
    SquareMask free = 0;
    for (Square square = 0; square < board.square_count(); ++square) {
      if (board.is_goal(square) || uniform(rng) > density) free |= bit(square);
    }
    SquareMask snails = free & ~board.goals();
    if (!snails) continue;
    const int index = std::uniform_int_distribution<int>(0, count(snails) - 1)(rng);
    for (int i = 0; i < index; ++i) snails &= snails - 1;
    const Square snail = lowest_square(snails);
    const Player to_move = uniform(rng) < 0.5 ? Player::one : Player::two;
    if (!(board.neighbours(snail) & free & ~bit(snail))) continue;  // stuck: ended
    positions.push_back({free & ~bit(snail), snail, to_move});
  }
  return positions;
}

}  // namespace rastros
