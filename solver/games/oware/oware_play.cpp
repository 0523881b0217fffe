#include "games/oware/oware_play.hpp"

#include <algorithm>

#include "core/errors.hpp"

namespace rastros::oware {

OwarePlaySession::OwarePlaySession(const Oware& game, const OwareDatabase& database,
                                   std::uint64_t max_positions, OwarePosition start, int human)
    : game_(game), database_(database), max_positions_(max_positions), history_{start},
      human_(human), chooser_(game, database) {}

void OwarePlaySession::play(std::string_view text) {
  if (!humans_turn()) throw InputError("it is not your turn");
  history_.push_back(oware::play(game_, position(), parse_move(game_, position(), text)));
}

std::optional<OwareAnalysis> OwarePlaySession::hint() const {
  if (is_over()) return std::nullopt;
  return analyse(game_, database_, search_state(game_, position()), max_positions_);
}

std::optional<OwareMove> OwarePlaySession::computer_move() {
  const auto analysis = hint();
  if (!analysis) return std::nullopt;
  const OwareMove move = chooser_.choose(position(), *analysis);
  history_.push_back(oware::play(game_, position(), move));
  return move;
}

ProgressChooser::ProgressChooser(const Oware& game, const OwareDatabase& database)
    : game_(game), database_(database) {}

OwareMove ProgressChooser::choose(const OwarePosition& position,
                                  const OwareAnalysis& analysis) const {
  int best_score = analysis.moves.front().score;
  for (const OwareMoveScore& move : analysis.moves) best_score = std::max(best_score, move.score);
  const OwareState state = search_state(game_, position);
  const int seeds = game_.seeds_in_play(state);
  // Moves are listed from house 1 up: the first of the best unless distances tell them apart
  // (a draw has nothing to hurry or delay; beyond the database no distances are known).
  const bool by_distance = best_score != 0 && seeds <= database_.max_seeds() &&
                           game_.level_size(seeds) <= kMaxDistanceLevel;
  if (!by_distance) {
    for (const OwareMoveScore& move : analysis.moves) {
      if (move.score == best_score) return move.move;
    }
  }
  const std::lock_guard lock(mutex_);
  std::optional<OwareMove> chosen;
  int chosen_distance = 0;
  for (const OwareMoveScore& move : analysis.moves) {
    if (move.score != best_score) continue;
    const int distance = distance_after(state, seeds, move.move);
    if (!chosen || (best_score > 0 ? distance < chosen_distance : distance > chosen_distance)) {
      chosen = move.move;
      chosen_distance = distance;
    }
  }
  return *chosen;
}

int ProgressChooser::distance_after(const OwareState& state, int seeds, OwareMove move) const {
  const OwarePlayed played = game_.play(state, move);
  if (played.gain > 0) return -1;  // a capture: the exit itself
  if (level_ != seeds) {
    distances_ = database_.distances(game_, seeds);
    level_ = seeds;
  }
  return distances_[game_.level_rank(played.next)];
}

void OwarePlaySession::undo() {
  // Back past the computer's replies to the last position where the person was to move.
  std::size_t at = history_.size() - 1;
  while (at > 0 && history_[at - 1].to_move != human_) --at;
  if (at == 0) throw InputError("you have no move to take back");
  history_.resize(at);
}

}  // namespace rastros::oware
