#pragma once
// Solving one Kalah position: its value and exact final score with perfect play, and every
// move's, through the generic score solver (engine/score_solver.hpp) with an endgame database
// (kalah_endgame.hpp) answering the states with few seeds left.

#include <cstdint>
#include <functional>
#include <mutex>
#include <utility>
#include <optional>
#include <vector>

#include "core/value.hpp"
#include "engine/score_solver.hpp"
#include "games/mancala/mancala_analysis.hpp"
#include "games/kalah/kalah.hpp"
#include "games/kalah/kalah_endgame.hpp"
#include "games/kalah/kalah_position.hpp"

namespace rastros::kalah {

using KalahSolveOptions = mancala::MancalaSolveOptions;
using KalahMoveResult = mancala::MancalaMoveResult;
using KalahResult = mancala::MancalaResult;
using KalahSolveProgress = mancala::MancalaSolveProgress;
using mancala::value_of_margin;

/// The shared mancala solver with Kalah's endgame database answering the states with few seeds.
class KalahSolver : public mancala::MancalaSolver<Kalah> {
 public:
  /// `endgame` (may be null) must be of the game's houses and rule, and outlive the solver.
  KalahSolver(const Kalah& game, KalahSolveOptions options, const KalahEndgame* endgame = nullptr);
};

/// The whole answer (value, score, best moves, every move's score) read from `endgame` alone,
/// when the position has at most endgame.max_seeds() seeds in play; otherwise nothing.
std::optional<KalahResult> answer_from_database(const Kalah& game, const KalahEndgame& endgame,
                                                const KalahPosition& position);


}  // namespace rastros::kalah
