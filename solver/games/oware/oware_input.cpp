#include "games/oware/oware_input.hpp"

#include "core/errors.hpp"

namespace rastros::oware {

OwareInput resolve_oware_input(int houses, int seeds, const std::optional<std::string>& moves,
                               const std::optional<std::string>& position) {
  if (moves && position) {
    throw InputError("give --moves or --position, not both");
  }
  OwareInput input{Oware(houses, seeds), {}, {}};
  if (position) {
    input.position = parse_position(input.game, *position);
    return input;
  }
  input.position = start_position(input.game);
  if (moves) {
    input.moves = parse_moves(input.game, *moves);
    for (const OwareMove move : input.moves) input.position = play(input.game, input.position, move);
  }
  return input;
}

}  // namespace rastros::oware
