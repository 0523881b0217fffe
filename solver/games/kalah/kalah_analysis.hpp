#pragma once
// Solving one Kalah position: its value and exact final score with perfect play, and every
// move's, through the generic score solver (engine/score_solver.hpp) with an endgame database
// (kalah_endgame.hpp) answering the states with few seeds left.

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "core/value.hpp"
#include "engine/score_solver.hpp"
#include "games/kalah/kalah.hpp"
#include "games/kalah/kalah_endgame.hpp"
#include "games/kalah/kalah_position.hpp"
#include "games/mancala/mancala_analysis.hpp"

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

/// The whole answer (value, score, best moves, every move's score) read from `endgame` alone
/// (a KalahEndgame in memory or a KalahEndgameFile read chunk by chunk), when the position has
/// at most endgame.max_seeds() seeds in play; otherwise nothing.
template <class Endgame>
std::optional<KalahResult> answer_from_database(const Kalah& game, const Endgame& endgame,
                                                const KalahPosition& position) {
  const KalahState state = search_state(game, position);
  const auto future = endgame.probe(game, state);
  if (!future) return std::nullopt;
  const int banked = store_margin(position);
  KalahResult result;
  result.score = banked + *future;
  result.value = value_of_margin(*result.score);
  // Every child has as many seeds in play or fewer: the file holds it too.
  for (const KalahMove move : game.legal_moves(state)) {
    const KalahPlayed played = game.play(state, move);
    const int child = game.is_terminal(played.next) ? game.terminal_score(played.next)
                                                    : *endgame.probe(game, played.next);
    const int margin = banked + played.gain + (played.again ? child : -child);
    result.children.push_back({move, value_of_margin(margin), margin});
    if (margin == *result.score) result.best_moves.push_back(move);
  }
  return result;
}

}  // namespace rastros::kalah
