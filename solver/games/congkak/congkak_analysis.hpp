#pragma once
// Solving one Congkak position: the shared mancala solver (games/mancala/mancala_analysis.hpp)
// on Congkak's rules, with an endgame database by seeds (congkak_endgame.hpp) answering the
// states with few seeds left when one is given.

#include "games/congkak/congkak.hpp"
#include "games/congkak/congkak_endgame.hpp"
#include "games/congkak/congkak_position.hpp"
#include "games/mancala/mancala_analysis.hpp"

namespace rastros::congkak {

using CongkakResult = mancala::MancalaResult;
using CongkakSolveOptions = mancala::MancalaSolveOptions;

class CongkakSolver : public mancala::MancalaSolver<Congkak> {
 public:
  /// `endgame` (may be null) must be of the game's houses and outlive the solver.
  CongkakSolver(const Congkak& game, CongkakSolveOptions options,
                const CongkakEndgame* endgame = nullptr)
      : mancala::MancalaSolver<Congkak>(game, options) {
    if (endgame) {
      engine_solver().set_probe(endgame->max_seeds(), [this, endgame](const CongkakState& state) {
        return endgame->probe(this->game(), state);
      });
    }
  }
};

}  // namespace rastros::congkak
