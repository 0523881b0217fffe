#pragma once
// Congkak positions as people see them: the shared mancala position and text forms
// (games/mancala/mancala_position.hpp) on a Congkak variant.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/congkak/congkak.hpp"
#include "games/mancala/mancala_position.hpp"

namespace rastros::congkak {

using CongkakPosition = mancala::MancalaPosition;

/// The houses seen from the side to move (the search's state).
CongkakState search_state(const Congkak& game, const CongkakPosition& position);
/// The position after `move` (0-based house of the side to move), which must be legal.
CongkakPosition play(const Congkak& game, const CongkakPosition& position, CongkakMove move);
/// Parses space-separated moves from the start. Throws InputError naming the first bad one.
std::vector<CongkakMove> parse_moves(const Congkak& game, std::string_view text);

/// A variant and a position on it, checked.
struct CongkakInput {
  Congkak game;
  std::vector<CongkakMove> moves;  // empty when the position was given as a string
  CongkakPosition position;
};
/// The variant and the position named by moves from the start or a position string, at most
/// one of them given (neither: the start). Throws InputError naming what is wrong.
CongkakInput resolve_congkak_input(int houses, int seeds, const std::optional<std::string>& moves,
                                   const std::optional<std::string>& position);

}  // namespace rastros::congkak
