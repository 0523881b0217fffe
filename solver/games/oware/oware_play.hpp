#pragma once
// A game of Oware between a person and perfect play: the moves so far, whose turn it is, the
// computer's reply (a move of best score, ProgressChooser), hints and undo.
// The replies come from the endgame database or the exact search beyond it; when a position
// is beyond both, the session says so instead of playing a guessed move.

#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/oware/oware_analysis.hpp"
#include "games/oware/oware_database.hpp"
#include "games/oware/oware_position.hpp"

namespace rastros::oware {

/// The computer's move among an analysis's moves of best score. Positions repeat, so the best
/// score alone does not make progress: a winner that keeps taking the lowest of equal moves can
/// go round a cycle for ever. Within the database it takes the move nearest its capture when
/// winning and the farthest when losing (the level's distances to exit,
/// oware_level_solver.hpp), so a won game is won; among moves still equal, and beyond the
/// database, the lowest house. Thread-safe: each level's distances are computed once, by the
/// first caller that needs them, while others wait for that level alone, and kept (two bytes a
/// position).
class ProgressChooser {
 public:
  /// `database` must outlive the chooser.
  ProgressChooser(const Oware& game, const OwareDatabase& database);

  /// `analysis` must be `position`'s, with at least one move (a game not ended).
  OwareMove choose(const OwarePosition& position, const OwareAnalysis& analysis) const;

  /// Levels of at most this many positions are solved again for their distances to exit
  /// (a second or so a million positions, once a level); in larger ones ties go to the lowest
  /// house.
  static constexpr std::uint64_t kMaxDistanceLevel = std::uint64_t{1} << 23;

 private:
  using Distances = std::shared_ptr<const std::vector<std::uint16_t>>;
  /// Level `seeds`'s distances (in the database, at most kMaxDistanceLevel positions).
  /// Throws FileError as OwareDatabase::distances does, then and at every later call.
  Distances distances(int seeds) const;

  const Oware game_;
  const OwareDatabase& database_;
  mutable std::mutex mutex_;  // guards levels_ (not the computing of a level)
  mutable std::map<int, std::shared_future<Distances>> levels_;
};

class OwarePlaySession {
 public:
  /// `human`: 0 for player 1, 1 for player 2. `database` must outlive the session.
  OwarePlaySession(const Oware& game, const OwareDatabase& database, std::uint64_t max_positions,
                   OwarePosition start, int human);

  const Oware& game() const { return game_; }
  const OwarePosition& position() const { return history_.back(); }
  int human() const { return human_; }
  bool is_over() const { return has_ended(game_, position()); }
  bool humans_turn() const { return !is_over() && position().to_move == human_; }

  /// Plays the person's move, given as text. Throws InputError for a bad or illegal one.
  void play(std::string_view text);
  /// Plays the computer's move and returns it, or nothing when the position is beyond the
  /// database and the search budget (no move is played then).
  std::optional<OwareMove> computer_move();
  /// Every move's exact score in the current position, or nothing when beyond reach.
  std::optional<OwareAnalysis> hint() const;
  /// Takes back the computer's replies and the person's last move. Throws InputError when the
  /// person has not moved yet.
  void undo();

 private:
  const Oware& game_;
  const OwareDatabase& database_;
  std::uint64_t max_positions_;
  std::vector<OwarePosition> history_;
  int human_;
  ProgressChooser chooser_;
};

}  // namespace rastros::oware
