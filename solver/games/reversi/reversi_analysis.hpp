#pragma once
// Solving one Reversi position for the commands: its value and exact final margin with perfect
// play, the best moves and every move's score (reversi_solver.hpp does the searching).

#include <optional>
#include <vector>

#include "core/value.hpp"
#include "games/reversi/reversi_position.hpp"
#include "games/reversi/reversi_solver.hpp"

namespace rastros::reversi {

struct ReversiSolveOptions {
  /// Win, draw or loss only (null-window searches), no scores.
  bool value_only = false;
  /// The position alone, not each move.
  bool root_only = false;
};

struct ReversiMoveResult {
  ReversiMove move = 0;
  Value value = Value::draw;  // for the mover
  std::optional<int> score;   // the final margin for the mover (not with value_only)
};

struct ReversiResult {
  Value value = Value::draw;
  std::optional<int> score;  // the final margin for the side to move
  std::vector<ReversiMove> best_moves;  // empty with root_only or once the game has ended
  std::vector<ReversiMoveResult> children;
};

inline Value value_of_margin(int margin) {
  return margin > 0 ? Value::win : margin < 0 ? Value::loss : Value::draw;
}

/// Throws engine::SearchStopped when the solver is stopped.
ReversiResult solve_position(ReversiSolver& solver, const Reversi& game,
                             const ReversiPosition& position, ReversiSolveOptions options);

}  // namespace rastros::reversi
