#pragma once
// A game of Kalah between a person and perfect play (`rastros play --game kalah`): the shared
// mancala session (games/mancala/mancala_play.hpp) with Kalah's solver and endgame database.

#include "games/kalah/kalah_analysis.hpp"
#include "games/mancala/mancala_play.hpp"

namespace rastros::kalah {

class KalahPlaySession : public mancala::MancalaPlaySession<Kalah, KalahSolver> {
 public:
  /// `human`: 0 for player 1, 1 for player 2. `endgame` may be null; it must outlive the session.
  KalahPlaySession(const Kalah& game, int human, KalahSolveOptions options,
                   const KalahEndgame* endgame = nullptr)
      : MancalaPlaySession(game, human, options, endgame) {}
};

}  // namespace rastros::kalah
