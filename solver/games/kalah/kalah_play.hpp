#pragma once
// A game of Kalah between a person and perfect play (`rastros play --game kalah`).
//
// The computer plays a move of the best exact score, the lowest house among equals, so a game
// is reproducible. A move that earns another turn leaves the same side to move, so the
// computer may move several times in a row; undo takes back everything back to the person's
// previous turn.

#include <memory>
#include <string_view>
#include <vector>

#include "games/kalah/kalah_analysis.hpp"

namespace rastros::kalah {

class KalahPlaySession {
 public:
  /// `human`: 0 for player 1, 1 for player 2. `endgame` may be null; it must outlive the session.
  KalahPlaySession(const Kalah& game, int human, KalahSolveOptions options,
                   const KalahEndgame* endgame = nullptr);

  const Kalah& game() const { return game_; }
  const KalahPosition& position() const { return positions_.back(); }
  const std::vector<KalahMove>& moves() const { return moves_; }
  int human() const { return human_; }
  bool is_over() const { return has_ended(game_, position()); }
  bool humans_turn() const { return !is_over() && position().to_move == human_; }

  /// Plays the person's move ("3"). Throws InputError, position unchanged, when it is not a
  /// legal move or not the person's turn.
  KalahMove play(std::string_view text);
  /// Plays the computer's best move. Throws InputError when it is not the computer's turn.
  KalahMove computer_move();
  /// Every legal move's exact score for the side to move (and the position's).
  KalahResult hint();
  /// Takes back the moves since the person's previous turn; returns them, first played first.
  /// Throws InputError when there is nothing to take back.
  std::vector<KalahMove> undo();

 private:
  void push(KalahMove move);

  Kalah game_;
  int human_;
  KalahSolver solver_;
  std::vector<KalahPosition> positions_;
  std::vector<KalahMove> moves_;
};

}  // namespace rastros::kalah
