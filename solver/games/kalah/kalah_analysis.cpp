#include "games/kalah/kalah_analysis.hpp"

#include <algorithm>

namespace rastros::kalah {

KalahSolver::KalahSolver(const Kalah& game, KalahSolveOptions options, const KalahEndgame* endgame)
    : mancala::MancalaSolver<Kalah>(game, options) {
  if (endgame) {
    engine_solver().set_probe(endgame->max_seeds(), [this, endgame](const KalahState& state) {
      return endgame->probe(this->game(), state);
    });
  }
}

}  // namespace rastros::kalah
