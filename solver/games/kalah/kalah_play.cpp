#include "games/kalah/kalah_play.hpp"

#include "core/errors.hpp"

namespace rastros::kalah {

KalahPlaySession::KalahPlaySession(const Kalah& game, int human, KalahSolveOptions options,
                                   const KalahEndgame* endgame)
    : game_(game), human_(human), solver_(game, options, endgame), positions_{start_position(game)} {
  if (human != 0 && human != 1) throw InputError("--side must be 1 or 2");
}

void KalahPlaySession::push(KalahMove move) {
  positions_.push_back(kalah::play(game_, position(), move));
  moves_.push_back(move);
}

KalahMove KalahPlaySession::play(std::string_view text) {
  if (is_over()) throw InputError("the game is over");
  if (!humans_turn()) throw InputError("it is the computer's turn");
  const KalahMove move = parse_move(game_, position(), text);
  push(move);
  return move;
}

KalahMove KalahPlaySession::computer_move() {
  if (is_over() || humans_turn()) throw InputError("it is not the computer's turn");
  const KalahResult result = solver_.solve(position());
  const KalahMove move = result.best_moves.front();  // the lowest house of the best score
  push(move);
  return move;
}

KalahResult KalahPlaySession::hint() {
  return solver_.solve(position());
}

std::vector<KalahMove> KalahPlaySession::undo() {
  // Back to the last position before the person's most recent move.
  std::size_t back = moves_.size();
  while (back > 0 && positions_[back - 1].to_move != human_) --back;
  if (back == 0) throw InputError("nothing to take back");
  --back;
  std::vector<KalahMove> taken(moves_.begin() + static_cast<std::ptrdiff_t>(back), moves_.end());
  moves_.resize(back);
  positions_.resize(back + 1);
  return taken;
}

}  // namespace rastros::kalah
