#include "games/reversi/reversi_analysis.hpp"

#include <algorithm>

namespace rastros::reversi {

namespace {

void pick_best(ReversiResult& result) {
  // The best value first, then among equals the best score.
  const auto better = [](const ReversiMoveResult& a, const ReversiMoveResult& b) {
    if (a.value != b.value) return b.value < a.value;
    return a.score.value_or(0) > b.score.value_or(0);
  };
  const auto best = std::min_element(result.children.begin(), result.children.end(), better);
  for (const ReversiMoveResult& child : result.children) {
    if (!better(*best, child)) result.best_moves.push_back(child.move);
  }
  result.value = best->value;
  result.score = best->score;
}

}  // namespace

ReversiResult solve_position(ReversiSolver& solver, const Reversi& game,
                             const ReversiPosition& position, ReversiSolveOptions options) {
  const ReversiState state = search_state(position);
  ReversiResult result;
  if (game.is_terminal(state)) {
    result.score = game.terminal_score(state);
    result.value = value_of_margin(*result.score);
    return result;
  }
  if (options.root_only) {
    if (options.value_only) {
      result.value = solver.value(state);
    } else {
      result.score = solver.score(state);
      result.value = value_of_margin(*result.score);
    }
    return result;
  }
  const auto moves = game.legal_moves(state);
  if (options.value_only) {
    const auto values = solver.analyse_values(state);
    for (std::size_t i = 0; i < moves.size(); ++i) result.children.push_back({moves[i], values[i], {}});
  } else {
    for (const auto& [move, score] : solver.analyse(state)) {
      result.children.push_back({move, value_of_margin(score), score});
    }
  }
  pick_best(result);
  return result;
}

}  // namespace rastros::reversi
