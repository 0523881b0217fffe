#include "games/oware/oware_sowing.hpp"

#include <algorithm>
#include <utility>

#include "core/errors.hpp"

namespace rastros::oware {
namespace {

// The house after `pit` counter-clockwise: on along a row, then into the other row's house 1.
OwarePit next_house(OwarePit pit, int houses) {
  if (pit.house + 1 < houses) return {pit.player, pit.house + 1};
  return {1 - pit.player, 0};
}

int& seeds_at(OwarePosition& position, OwarePit pit) {
  return position.rows[pit.player][pit.house];
}

// The seeds in `player`'s row.
int row_seeds(const OwarePosition& position, int player, int houses) {
  int total = 0;
  for (int i = 0; i < houses; ++i) total += position.rows[player][i];
  return total;
}

}  // namespace

OwareSowing sow(const Oware& game, const OwarePosition& position, OwareMove move) {
  const auto legal = game.legal_moves(search_state(game, position));
  if (std::find(legal.begin(), legal.end(), move) == legal.end()) {
    throw InputError("illegal move " + move_name(move) + " for player " +
                     std::to_string(position.to_move + 1));
  }
  const int m = game.houses();
  OwareSowing sowing;
  sowing.mover = position.to_move;
  sowing.move = move;
  OwarePosition& after = sowing.after;
  after = position;
  // Rule 1: one seed a house, skipping the house the move started from.
  const OwarePit origin{sowing.mover, move};
  int seeds = std::exchange(seeds_at(after, origin), 0);
  OwarePit pit = origin;
  while (seeds > 0) {
    pit = next_house(pit, m);
    if (pit == origin) continue;
    ++seeds_at(after, pit);
    sowing.path.push_back(pit);
    --seeds;
  }
  // Rule 2: backwards from the last house while in the opponent's row and 2 or 3.
  const int opponent = 1 - sowing.mover;
  for (OwarePit at = pit; at.player == opponent && at.house >= 0; --at.house) {
    const int held = seeds_at(after, at);
    if (held != 2 && held != 3) break;
    sowing.captured.push_back(at);
    sowing.seeds_captured += held;
  }
  // Rule 3: a chain that would empty the opponent's row captures nothing.
  if (sowing.seeds_captured > 0 && sowing.seeds_captured == row_seeds(after, opponent, m)) {
    sowing.grand_slam = true;
    sowing.captured.clear();
    sowing.seeds_captured = 0;
  }
  for (const OwarePit& taken : sowing.captured) seeds_at(after, taken) = 0;
  after.captured[sowing.mover] += sowing.seeds_captured;
  after.to_move = opponent;
  return sowing;
}

}  // namespace rastros::oware
