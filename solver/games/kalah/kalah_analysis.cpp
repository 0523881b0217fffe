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

std::optional<KalahResult> answer_from_database(const Kalah& game, const KalahEndgame& endgame,
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
