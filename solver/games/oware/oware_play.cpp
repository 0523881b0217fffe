#include "games/oware/oware_play.hpp"

#include "core/errors.hpp"

namespace rastros::oware {

OwarePlaySession::OwarePlaySession(const Oware& game, const OwareDatabase& database,
                                   std::uint64_t max_positions, OwarePosition start, int human)
    : game_(game), database_(database), max_positions_(max_positions), history_{start},
      human_(human) {}

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
  // The first best move: moves are listed from house 1 up.
  const OwareMoveScore* best = &analysis->moves.front();
  for (const OwareMoveScore& move : analysis->moves) {
    if (move.score > best->score) best = &move;
  }
  history_.push_back(oware::play(game_, position(), best->move));
  return best->move;
}

void OwarePlaySession::undo() {
  // Back past the computer's replies to the last position where the person was to move.
  std::size_t at = history_.size() - 1;
  while (at > 0 && history_[at - 1].to_move != human_) --at;
  if (at == 0) throw InputError("you have no move to take back");
  history_.resize(at);
}

}  // namespace rastros::oware
