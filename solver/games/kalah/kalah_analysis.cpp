#include "games/kalah/kalah_analysis.hpp"

#include <algorithm>

namespace rastros::kalah {

KalahSolver::KalahSolver(const Kalah& game, KalahSolveOptions options, const KalahEndgame* endgame)
    : game_(game), options_(options), solver_(game_, {options.table_bytes}) {
  if (endgame) {
    solver_.set_probe(endgame->max_seeds(), [this, endgame](const KalahState& state) {
      return endgame->probe(game_, state);
    });
  }
}

KalahResult KalahSolver::solve(const KalahPosition& position, KalahSolveProgress* progress,
                               const std::function<void(const KalahSolveProgress&)>& report) {
  KalahResult result;
  const int banked = store_margin(position);
  const KalahState state = search_state(game_, position);
  if (has_ended(game_, position)) {
    const auto stores = final_stores(game_, position);
    result.score = stores[position.to_move] - stores[1 - position.to_move];
    result.value = value_of_margin(*result.score);
    return result;
  }
  if (options_.value_only) {
    result.value = solver_.value(state, banked);
    if (options_.root_only) return result;
    const auto moves = game_.legal_moves(state);
    const auto values = solver_.analyse_values(state, banked);
    for (std::size_t i = 0; i < moves.size(); ++i) {
      result.children.push_back({moves[i], values[i], std::nullopt});
      if (values[i] == result.value) result.best_moves.push_back(moves[i]);
    }
    return result;
  }
  using Solver = engine::ScoreSolver<Kalah>;
  if (options_.root_only) {
    Solver::Bounds known{-1000, 1000};
    if (progress && progress->root_bounds) known = {progress->root_bounds->first, progress->root_bounds->second};
    result.score = banked + solver_.score(state, known, [&](Solver::Bounds bounds) {
      if (!progress) return;
      const std::lock_guard lock(progress_mutex_);
      progress->root_bounds = {bounds.lower, bounds.upper};
      if (report) report(*progress);
    });
    result.value = value_of_margin(*result.score);
    return result;
  }
  std::vector<Solver::MoveScore> known;
  if (progress) {
    for (const auto& [move, score] : progress->move_scores) known.push_back({move, score});
  }
  const auto scores = solver_.analyse(state, known, [&](const Solver::MoveScore& found) {
    if (!progress) return;
    const std::lock_guard lock(progress_mutex_);
    progress->move_scores.emplace_back(found.move, found.score);
    if (report) report(*progress);
  });
  int best = -1000;
  for (const auto& [move, score] : scores) best = std::max(best, banked + score);
  for (const auto& [move, score] : scores) {
    const int margin = banked + score;
    result.children.push_back({move, value_of_margin(margin), margin});
    if (margin == best) result.best_moves.push_back(move);
  }
  result.score = best;
  result.value = value_of_margin(best);
  return result;
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
