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
  const Distances level = distances(seeds);
  std::optional<OwareMove> chosen;
  int chosen_distance = 0;
  for (const OwareMoveScore& move : analysis.moves) {
    if (move.score != best_score) continue;
    const OwarePlayed played = game_.play(state, move.move);
    // A capture is the exit itself; the other moves stay in the level.
    const int distance = played.gain > 0 ? -1 : (*level)[game_.level_rank(played.next)];
    if (!chosen || (best_score > 0 ? distance < chosen_distance : distance > chosen_distance)) {
      chosen = move.move;
      chosen_distance = distance;
    }
  }
  return *chosen;
}

ProgressChooser::Distances ProgressChooser::distances(int seeds) const {
  std::optional<std::promise<Distances>> computing;
  std::shared_future<Distances> level;
  {
    const std::lock_guard lock(mutex_);
    const auto found = levels_.find(seeds);
    if (found != levels_.end()) {
      level = found->second;
    } else {
      computing.emplace();
      level = computing->get_future().share();
      levels_.emplace(seeds, level);
    }
  }
  if (computing) {
    try {
      computing->set_value(
          std::make_shared<const std::vector<std::uint16_t>>(database_.distances(game_, seeds)));
    } catch (...) {
      computing->set_exception(std::current_exception());
    }
  }
  return level.get();
}

void OwarePlaySession::undo() {
  // Back past the computer's replies to the last position where the person was to move.
  std::size_t at = history_.size() - 1;
  while (at > 0 && history_[at - 1].to_move != human_) --at;
  if (at == 0) throw InputError("you have no move to take back");
  history_.resize(at);
}

}  // namespace rastros::oware
