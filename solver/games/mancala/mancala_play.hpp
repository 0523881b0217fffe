#pragma once
// A game of some mancala game between a person and perfect play (`rastros play --game kalah`,
// `--game congkak`).
//
// The computer plays a move of the best exact score, the lowest house among equals, so a game
// is reproducible. A move that earns another turn leaves the same side to move, so the
// computer may move several times in a row; undo takes back everything back to the person's
// previous turn.

#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "games/mancala/mancala_analysis.hpp"
#include "games/mancala/mancala_position.hpp"

namespace rastros::mancala {

/// `Solver`: MancalaSolver<Game> or one derived from it (KalahSolver, with its database).
template <engine::ScoreGame Game, class Solver>
class MancalaPlaySession {
 public:
  /// `human`: 0 for player 1, 1 for player 2; `solver_arguments` follow the game in the
  /// solver's constructor.
  template <class... SolverArguments>
  MancalaPlaySession(const Game& game, int human, SolverArguments&&... solver_arguments)
      : game_(game),
        human_(human),
        solver_(game, std::forward<SolverArguments>(solver_arguments)...),
        positions_{start_position(board_of(game))} {
    if (human != 0 && human != 1) throw InputError("--side must be 1 or 2");
  }

  const Game& game() const { return game_; }
  const MancalaPosition& position() const { return positions_.back(); }
  const std::vector<MancalaMove>& moves() const { return moves_; }
  int human() const { return human_; }
  bool is_over() const {
    return game_.is_terminal(typename Game::State{mover_view(board_of(game_), position())});
  }
  bool humans_turn() const { return !is_over() && position().to_move == human_; }

  /// Plays the person's move ("3"). Throws InputError, position unchanged, when it is not a
  /// legal move or not the person's turn.
  MancalaMove play(std::string_view text) {
    if (is_over()) throw InputError("the game is over");
    if (!humans_turn()) throw InputError("it is the computer's turn");
    const MancalaMove move = parse_move(board_of(game_), position(), text);
    push(move);
    return move;
  }
  /// Plays the computer's best move. Throws InputError when it is not the computer's turn.
  MancalaMove computer_move() {
    if (is_over() || humans_turn()) throw InputError("it is not the computer's turn");
    const MancalaResult result = solver_.solve(position());
    const MancalaMove move = result.best_moves.front();  // the lowest house of the best score
    push(move);
    return move;
  }
  /// Every legal move's exact score for the side to move (and the position's).
  MancalaResult hint() { return solver_.solve(position()); }
  /// Takes back the moves since the person's previous turn; returns them, first played first.
  /// Throws InputError when there is nothing to take back.
  std::vector<MancalaMove> undo() {
    // Back to the last position before the person's most recent move.
    std::size_t back = moves_.size();
    while (back > 0 && positions_[back - 1].to_move != human_) --back;
    if (back == 0) throw InputError("nothing to take back");
    --back;
    std::vector<MancalaMove> taken(moves_.begin() + static_cast<std::ptrdiff_t>(back),
                                   moves_.end());
    moves_.resize(back);
    positions_.resize(back + 1);
    return taken;
  }

 private:
  void push(MancalaMove move) {
    const MancalaBoard board = board_of(game_);
    const auto played = game_.play(typename Game::State{mover_view(board, position())}, move);
    positions_.push_back(after_move(board, position(), played.next.houses, played.gain,
                                    played.again));
    moves_.push_back(move);
  }

  Game game_;
  int human_;
  Solver solver_;
  std::vector<MancalaPosition> positions_;
  std::vector<MancalaMove> moves_;
};

}  // namespace rastros::mancala
