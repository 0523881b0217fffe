#include "games/kalah/kalah_position.hpp"

namespace rastros::kalah {

// The text forms are the shared mancala ones; what is Kalah's own is how a move sows.

mancala::MancalaBoard board_of(const Kalah& game) {
  return {game.houses(), game.seeds(), game.name(), "a store"};
}

KalahPosition start_position(const Kalah& game) {
  return mancala::start_position(board_of(game));
}

KalahState search_state(const Kalah& game, const KalahPosition& position) {
  return {mancala::mover_view(board_of(game), position)};
}

bool has_ended(const Kalah& game, const KalahPosition& position) {
  return mancala::has_ended(board_of(game), position);
}

std::array<int, 2> final_stores(const Kalah& game, const KalahPosition& position) {
  return mancala::final_stores(board_of(game), position);
}

KalahPosition play(const Kalah& game, const KalahPosition& position, KalahMove move) {
  const KalahPlayed played = game.play(search_state(game, position), move);
  return mancala::after_move(board_of(game), position, played.next.houses, played.gain,
                             played.again);
}

std::string move_name(KalahMove move) {
  return mancala::move_name(move);
}

KalahMove parse_move(const Kalah& game, const KalahPosition& position, std::string_view text) {
  return mancala::parse_move(board_of(game), position, text);
}

std::vector<KalahMove> parse_moves(const Kalah& game, std::string_view text) {
  return mancala::parse_moves(board_of(game), text, [&](const KalahPosition& position,
                                                        KalahMove move) {
    return play(game, position, move);
  });
}

std::string moves_text(const std::vector<KalahMove>& moves) {
  return mancala::moves_text(moves);
}

std::string position_string(const Kalah& game, const KalahPosition& position) {
  return mancala::position_string(board_of(game), position);
}

KalahPosition parse_position(const Kalah& game, std::string_view text) {
  return mancala::parse_position(board_of(game), text);
}

std::string board_diagram(const Kalah& game, const KalahPosition& position) {
  return mancala::board_diagram(board_of(game), position);
}

}  // namespace rastros::kalah
