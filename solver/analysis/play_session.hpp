#pragma once
// A game of Rastros between a human and perfect play (`rastros play`).
//
// The session holds the variant, the moves played from its start, the human's side and an
// oracle: a strong database (answers looked up, falling back to the live solver for positions
// the file lacks) or the live solver alone. The computer plays a best move -- the quickest win,
// else the slowest loss -- and among equally good moves the lowest square, so a game is
// reproducible. Human input is checked and refused with an InputError naming the problem.

#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <tuple>
#include <vector>

#include "core/value.hpp"
#include "db/database_file.hpp"
#include "db/database_query.hpp"
#include "db/database_reader.hpp"
#include "rastros/rastros.hpp"
#include "search/solver.hpp"

namespace rastros {

/// The oracle's answer for one position: the solver's Analysis plus where it came from.
struct Evaluation {
  Outcome outcome;                    // for the side to move
  std::vector<Square> best_moves;     // every move achieving it (empty once the game ended)
  std::vector<MoveOutcome> children;  // every legal move, in square order, valued for the mover
  bool from_database = false;         // false: the live solver answered
};

/// What computer_move() did.
struct ComputerMove {
  Square move = 0;
  Outcome outcome;  // the position's value for the computer before its move
  bool from_database = false;
};

class PlaySession {
 public:
  /// A game of `rastros` from its start against the live solver; the human plays `human`.
  /// The solver always computes remoteness (options.value_only is ignored).
  PlaySession(const Rastros& rastros, Player human, SolverOptions options = {});
  /// A game of the database's variant, answered from `database` (which must outlive the
  /// session) and by the live solver where the file lacks a position. Throws FileError when the
  /// header describes a game this build cannot play.
  PlaySession(const Database& database, Player human, SolverOptions options = {});
  /// The same from a database file read a block at a time (lookups throw FileError on a
  /// damaged block).
  PlaySession(const DatabaseReader& database, Player human, SolverOptions options = {});
  ~PlaySession();
  PlaySession(const PlaySession&) = delete;
  PlaySession& operator=(const PlaySession&) = delete;

  const Rastros& game() const { return game_; }
  Player human() const { return human_; }
  Player computer() const { return opponent(human_); }
  bool has_database() const { return query_.has_value(); }

  const Position& position() const { return positions_.back(); }
  /// The moves played from the start, both sides.
  const std::vector<Square>& moves() const { return moves_; }
  Player to_move() const { return position().to_move; }
  bool is_over() const { return game_.has_ended(position()); }
  /// True while the game goes on and the human is to move.
  bool humans_turn() const { return !is_over() && to_move() == human_; }
  /// The winner of an ended game; nothing for a draw or a game still going.
  std::optional<Player> winner() const { return game_.winner(position()); }
  /// The legal moves of the side to move, lowest square first (none once the game ended).
  std::vector<Square> legal_moves() const;

  /// Plays the human's move named by `text` ("c3"). Throws InputError, position unchanged, when
  /// the text is not a square of the board, the square is not a step from the snail, it is onto
  /// slime, the game is over, or it is the computer's turn. Returns the square played.
  Square play(std::string_view text);
  /// The same for a square.
  void play(Square move);

  /// Plays the computer's best move: the quickest win, else a draw, else the slowest loss; the
  /// lowest such square. Throws InputError when the game is over or the human is to move.
  ComputerMove computer_move();

  /// The value of the current position and of every legal move from it (cached per position).
  const Evaluation& evaluate();
  /// Every legal move of the side to move with its value and remoteness for the mover, in
  /// square order. Empty once the game is over.
  std::vector<MoveOutcome> hint();

  /// Takes back the human's last move and the computer's reply to it, if any. Returns the moves
  /// taken back, oldest first. Throws InputError when the human has made no move yet.
  std::vector<Square> undo();

 private:
  void push(Square move);

  Rastros game_;
  Player human_;
  SolverOptions solver_options_;
  std::optional<DatabaseQuery> query_;
  std::unique_ptr<Solver> solver_;  // created on first need
  std::vector<Square> moves_;
  std::vector<Position> positions_;  // positions_[i]: after the first i moves
  std::map<std::tuple<SquareMask, Square, int>, Evaluation> evaluations_;
};

}  // namespace rastros
