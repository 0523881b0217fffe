#include "games/congkak/congkak_position.hpp"

#include "core/errors.hpp"

namespace rastros::congkak {

CongkakState search_state(const Congkak& game, const CongkakPosition& position) {
  return {mancala::mover_view(game.board(), position)};
}

CongkakPosition play(const Congkak& game, const CongkakPosition& position, CongkakMove move) {
  const CongkakPlayed played = game.play(search_state(game, position), move);
  return mancala::after_move(game.board(), position, played.next.houses, played.gain,
                             played.again);
}

std::vector<CongkakMove> parse_moves(const Congkak& game, std::string_view text) {
  return mancala::parse_moves(game.board(), text,
                              [&](const CongkakPosition& position, CongkakMove move) {
                                return play(game, position, move);
                              });
}

CongkakInput resolve_congkak_input(int houses, int seeds, const std::optional<std::string>& moves,
                                   const std::optional<std::string>& position) {
  if (moves && position) throw InputError("give either --moves or --position, not both");
  CongkakInput input{Congkak(houses, seeds), {}, {}};
  if (position) {
    input.position = mancala::parse_position(input.game.board(), *position);
    return input;
  }
  input.moves = parse_moves(input.game, moves.value_or(""));
  input.position = mancala::start_position(input.game.board());
  for (const CongkakMove move : input.moves) input.position = play(input.game, input.position, move);
  return input;
}

}  // namespace rastros::congkak
