#pragma once
// Reversi against the program (`rastros play --game reversi`, the Reversi page): the move the
// program chooses and the hints it gives. Within reach of the exact solver (at most
// `exact_empties` empty squares) every move's exact final margin, and the program plays
// perfectly; before that an alpha-beta search of `depth` plies over the evaluation of
// reversi_evaluation.hpp, whose value is an estimate.

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "games/reversi/reversi_evaluation.hpp"
#include "games/reversi/reversi_position.hpp"
#include "games/reversi/reversi_solver.hpp"

namespace rastros::reversi {

struct ReversiPlayOptions {
  /// The exact solver answers positions with at most this many empty squares; -1: the
  /// default of the board (default_exact_empties).
  int exact_empties = -1;
  /// Plies of the evaluation search before that.
  int depth = 6;
};

/// The default threshold: a 4×4 game whole; 20 empties on 6×6, 18 on 8×8: every move's score
/// within about a second on one core (docs/commands.md gives the measured times).
int default_exact_empties(int n);
/// Throws InputError unless 0 <= exact_empties <= 64 (or -1) and 1 <= depth <= 12.
void check_play_options(const ReversiPlayOptions& options);

struct ReversiAdvice {
  bool exact = false;
  int depth = 0;  // the plies of the estimate; 0 when exact
  /// Exact: the final disc margin for the side to move with perfect play. Estimate: the
  /// evaluation's value for it (units of reversi_evaluation.hpp).
  int score = 0;
  ReversiMove best = kPass;  // the first legal move (in square order) of that score
  /// Exact: every legal move's final margin for the mover, in square order. Estimate: empty.
  std::vector<ReversiSolver::MoveScore> moves;
  std::uint64_t nodes = 0;
};

/// Chooses moves for one board size. Not thread-safe: one advisor a search.
class ReversiAdvisor {
 public:
  ReversiAdvisor(const Reversi& game, ReversiPlayOptions options, std::size_t table_bytes);

  int exact_empties() const { return exact_empties_; }
  int depth() const { return depth_; }
  /// Whether the exact solver answers `position` (its empty squares within the threshold).
  bool within_reach(const ReversiPosition& position) const;
  /// The advice for the side to move; the game must not be over. Throws
  /// engine::SearchStopped after stop().
  ReversiAdvice advise(const ReversiPosition& position);
  /// Stops the running advise (and every later one). Safe from any thread.
  void stop();

 private:
  Reversi game_;
  int exact_empties_;
  int depth_;
  ReversiSolver solver_;
  Evaluator evaluator_;
  std::atomic<bool> stopped_{false};
};

/// A game between people and the program: who plays each colour, the moves so far (undo).
class ReversiPlaySession {
 public:
  /// `start`: the position to start from and the moves that led to it; `human[p]`: whether a
  /// person plays colour p (0 black, 1 white).
  ReversiPlaySession(const ReversiInput& start, std::array<bool, 2> human,
                     ReversiPlayOptions options, std::size_t table_bytes);

  const Reversi& game() const { return game_; }
  const ReversiAdvisor& advisor() const { return advisor_; }
  const ReversiPosition& position() const { return positions_.back(); }
  /// Every move from the start of the game, those given at the start included.
  const std::vector<ReversiMove>& moves() const { return moves_; }
  bool is_human(int player) const { return human_[static_cast<std::size_t>(player)]; }
  bool is_over() const;
  bool humans_turn() const { return !is_over() && is_human(position().to_move); }

  /// Plays a person's move ("d3", "pass"). Throws InputError, position unchanged, when it is
  /// not legal here or not a person's turn.
  ReversiMove play(std::string_view text);
  struct ComputerMove {
    ReversiMove move;
    ReversiAdvice advice;
  };
  /// Plays the program's move. Throws InputError when a person is to move or the game is over.
  ComputerMove computer_move();
  /// The advice for the side to move. Throws InputError when the game is over.
  ReversiAdvice hint();
  /// Takes back the moves since a person's most recent move, that one included; returns them,
  /// first played first. Throws InputError when there is none since the start.
  std::vector<ReversiMove> undo();

 private:
  void push(ReversiMove move);

  Reversi game_;
  std::array<bool, 2> human_;
  ReversiAdvisor advisor_;
  std::size_t start_ply_;  // the moves given at the start, which undo does not take back
  std::vector<ReversiPosition> positions_;  // one more than the moves since the start
  std::vector<ReversiMove> moves_;
};

}  // namespace rastros::reversi
