#pragma once
// Solving one mancala position (any game of games/mancala/ on the score engine: Kalah,
// Congkak): its value and exact final score with perfect play, and every move's, through the
// generic score solver (engine/score_solver.hpp). The stores banked so far are added to the
// engine's scores, which count from the position on.
//
// A game gives `board_of(game)` (its size and name) and the ScoreGame concept; a game with an
// endgame database hands the solver a probe (KalahSolver).

#include <algorithm>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "core/value.hpp"
#include "engine/score_solver.hpp"
#include "games/mancala/mancala_position.hpp"

namespace rastros::mancala {

struct MancalaSolveOptions {
  std::size_t table_bytes = std::size_t{32} << 20;
  /// Win, draw or loss only (null-window searches), no scores.
  bool value_only = false;
  /// The position alone, not each move.
  bool root_only = false;
};

struct MancalaMoveResult {
  MancalaMove move = 0;
  Value value = Value::draw;  // for the mover
  std::optional<int> score;   // the final margin for the mover (not with value_only)
};

struct MancalaResult {
  Value value = Value::draw;
  std::optional<int> score;  // final margin for the side to move (store difference at the end)
  std::vector<MancalaMove> best_moves;  // empty with root_only
  std::vector<MancalaMoveResult> children;
};

/// What an exact solve has settled so far, for checkpoints: the scores of the moves searched
/// (what each gains from the position on, stores left out), or with root_only the bounds proven
/// on the position's. A solve given one skips what it holds.
struct MancalaSolveProgress {
  std::vector<std::pair<MancalaMove, int>> move_scores;
  std::optional<std::pair<int, int>> root_bounds;
};

/// The value of a final margin for the side that has it.
inline Value value_of_margin(int margin) {
  return margin > 0 ? Value::win : margin < 0 ? Value::loss : Value::draw;
}

template <engine::ScoreGame Game>
class MancalaSolver {
 public:
  MancalaSolver(const Game& game, MancalaSolveOptions options)
      : game_(game), options_(options), solver_(game_, {options.table_bytes}) {}

  /// Throws engine::SearchStopped when stop() was called. With `progress` (exact scores only,
  /// not value_only), starts from what it holds and adds to it as moves are settled, calling
  /// `report` after each change (from a search thread, one call at a time).
  MancalaResult solve(const MancalaPosition& position, MancalaSolveProgress* progress = nullptr,
                      const std::function<void(const MancalaSolveProgress&)>& report = {}) {
    const typename Game::State state{mover_view(board_of(game_), position)};
    const int banked = store_margin(position);
    // The game's own end (each game says when it ends and who takes what is left).
    if (game_.is_terminal(state)) {
      MancalaResult result;
      result.score = banked + game_.terminal_score(state);
      result.value = value_of_margin(*result.score);
      return result;
    }
    if (options_.value_only) return solve_values(state, banked);
    if (options_.root_only) return solve_root(state, banked, progress, report);
    return solve_moves(state, banked, progress, report);
  }

  std::uint64_t nodes() const { return solver_.nodes(); }
  void stop() { solver_.stop(); }

 protected:
  using Solver = engine::ScoreSolver<Game>;
  const Game& game() const { return game_; }
  Solver& engine_solver() { return solver_; }

 private:
  MancalaResult solve_values(const typename Game::State& state, int banked) {
    MancalaResult result;
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

  MancalaResult solve_root(const typename Game::State& state, int banked,
                           MancalaSolveProgress* progress,
                           const std::function<void(const MancalaSolveProgress&)>& report) {
    MancalaResult result;
    typename Solver::Bounds known{-1000, 1000};
    if (progress && progress->root_bounds) {
      known = {progress->root_bounds->first, progress->root_bounds->second};
    }
    result.score = banked + solver_.score(state, known, [&](typename Solver::Bounds bounds) {
      if (!progress) return;
      const std::lock_guard lock(progress_mutex_);
      progress->root_bounds = {bounds.lower, bounds.upper};
      if (report) report(*progress);
    });
    result.value = value_of_margin(*result.score);
    return result;
  }

  MancalaResult solve_moves(const typename Game::State& state, int banked,
                            MancalaSolveProgress* progress,
                            const std::function<void(const MancalaSolveProgress&)>& report) {
    std::vector<typename Solver::MoveScore> known;
    if (progress) {
      for (const auto& [move, score] : progress->move_scores) known.push_back({move, score});
    }
    const auto scores = solver_.analyse(state, known, [&](const typename Solver::MoveScore& found) {
      if (!progress) return;
      const std::lock_guard lock(progress_mutex_);
      progress->move_scores.emplace_back(found.move, found.score);
      if (report) report(*progress);
    });
    MancalaResult result;
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

  Game game_;
  MancalaSolveOptions options_;
  Solver solver_;
  std::mutex progress_mutex_;
};

}  // namespace rastros::mancala
