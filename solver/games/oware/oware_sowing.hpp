#pragma once
// One Oware move seed by seed, for showing it (the page of `rastros serve --game oware`):
// where each seed fell, the houses captured, whether it was a grand slam (captures nothing),
// and the position after. Written from the rules text (docs/rules.md, "Oware", rules 1 to 3),
// apart from Oware::play; the tests check that both give the same position.

#include <optional>
#include <vector>

#include "games/mancala/mancala_position.hpp"
#include "games/oware/oware.hpp"
#include "games/oware/oware_position.hpp"

namespace rastros::oware {

/// A house: player `player`'s (0 or 1) house `house` (0-based). Oware has no stores.
using OwarePit = mancala::MancalaPit;

struct OwareSowing {
  int mover = 0;  // 0: player 1, 1: player 2
  OwareMove move = 0;
  std::vector<OwarePit> path;      // where each seed fell, in order
  std::vector<OwarePit> captured;  // the houses captured, from the last seed's backwards
  int seeds_captured = 0;
  /// The chain would have taken every seed of the opponent's row: nothing is captured.
  bool grand_slam = false;
  OwarePosition after;  // equal to play(game, position, move)
};

/// Sows `move` (0-based house of the side to move), which must be legal (rule 4 included).
/// Throws InputError when it is not.
OwareSowing sow(const Oware& game, const OwarePosition& position, OwareMove move);

}  // namespace rastros::oware
