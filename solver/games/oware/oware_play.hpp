#pragma once
// A game of Oware between a person and perfect play: the moves so far, whose turn it is, the
// computer's reply (the move of best score, the lowest house among equals), hints and undo.
// The replies come from the endgame database or the exact search beyond it; when a position
// is beyond both, the session says so instead of playing a guessed move.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/oware/oware_analysis.hpp"
#include "games/oware/oware_database.hpp"
#include "games/oware/oware_position.hpp"

namespace rastros::oware {

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
};

}  // namespace rastros::oware
