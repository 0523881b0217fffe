#pragma once
// An Oware variant and a position on it named by moves from the start or a position string,
// checked: what every `--game oware` command and batch line resolves its input to.

#include <optional>
#include <string>
#include <vector>

#include "games/oware/oware.hpp"
#include "games/oware/oware_position.hpp"

namespace rastros::oware {

struct OwareInput {
  Oware game;
  std::vector<OwareMove> moves;  // empty when the position was given as a string
  OwarePosition position;
};

/// At most one of `moves` and `position` given (neither: the start). Throws InputError naming
/// what is wrong (both given, a bad move, a variant out of range...).
OwareInput resolve_oware_input(int houses, int seeds, const std::optional<std::string>& moves,
                               const std::optional<std::string>& position);

}  // namespace rastros::oware
