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
#include "games/kalah/kalah.hpp"
#include "games/kalah/kalah_endgame.hpp"
#include "games/kalah/kalah_position.hpp"

namespace rastros::kalah {

struct KalahSolveOptions {
  std::size_t table_bytes = std::size_t{32} << 20;
  /// Win, draw or loss only (null-window searches), no scores.
  bool value_only = false;
  /// The position alone, not each move.
  bool root_only = false;
};

struct KalahMoveResult {
  KalahMove move = 0;
  Value value = Value::draw;        // for the mover
  std::optional<int> score;         // the final margin for the mover (not with value_only)
};

struct KalahResult {
  Value value = Value::draw;
  std::optional<int> score;  // final margin for the side to move (store difference at the end)
  std::vector<KalahMove> best_moves;  // empty with root_only
  std::vector<KalahMoveResult> children;
};

/// What an exact solve has settled so far, for checkpoints: the scores of the moves searched
/// (what each gains from the position on, stores left out), or with root_only the bounds proven
/// on the position's. A solve given one skips what it holds.
struct KalahSolveProgress {
  std::vector<std::pair<KalahMove, int>> move_scores;
  std::optional<std::pair<int, int>> root_bounds;
};

class KalahSolver {
 public:
  /// `endgame` (may be null) must be of the game's houses and rule, and outlive the solver.
  KalahSolver(const Kalah& game, KalahSolveOptions options, const KalahEndgame* endgame = nullptr);

  /// Throws engine::SearchStopped when stop() was called. With `progress` (exact scores only,
  /// not value_only), starts from what it holds and adds to it as moves are settled, calling
  /// `report` after each change (from a search thread, one call at a time).
  KalahResult solve(const KalahPosition& position, KalahSolveProgress* progress = nullptr,
                    const std::function<void(const KalahSolveProgress&)>& report = {});

  std::uint64_t nodes() const { return solver_.nodes(); }
  void stop() { solver_.stop(); }

 private:
  Kalah game_;
  KalahSolveOptions options_;
  engine::ScoreSolver<Kalah> solver_;
  std::mutex progress_mutex_;
};

/// The whole answer (value, score, best moves, every move's score) read from `endgame` alone,
/// when the position has at most endgame.max_seeds() seeds in play; otherwise nothing.
std::optional<KalahResult> answer_from_database(const Kalah& game, const KalahEndgame& endgame,
                                                const KalahPosition& position);

/// The value of a final margin for the side that has it.
inline Value value_of_margin(int margin) {
  return margin > 0 ? Value::win : margin < 0 ? Value::loss : Value::draw;
}

}  // namespace rastros::kalah
