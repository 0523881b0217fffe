#pragma once
// Oware positions as people see them, and their text forms (docs/rules.md, "Mancala
// notation"): both rows, the seeds each player has captured (written where Kalah writes its
// stores) and the player to move: "4,4,4,4,4,4,0/4,4,4,4,4,4,0 1".

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "games/oware/oware.hpp"

namespace rastros::oware {

struct OwarePosition {
  /// rows[p][i]: player p+1's house i+1.
  std::array<std::array<int, kMaxHouses>, 2> rows{};
  std::array<int, 2> captured{};
  int to_move = 0;  // 0: player 1, 1: player 2

  friend bool operator==(const OwarePosition&, const OwarePosition&) = default;
};

OwarePosition start_position(const Oware& game);

/// The houses seen from the side to move (the search's state).
OwareState search_state(const Oware& game, const OwarePosition& position);
/// The captures of the side to move minus the opponent's.
int captured_margin(const OwarePosition& position);

/// The game has ended (rule 4): no legal move is left.
bool has_ended(const Oware& game, const OwarePosition& position);
/// Each side's captures once the game has ended: the seeds left go to whom rule 4 says.
std::array<int, 2> final_captures(const Oware& game, const OwarePosition& position);

/// The position after `move` (0-based house of the side to move), which must be legal.
OwarePosition play(const Oware& game, const OwarePosition& position, OwareMove move);

/// "3": the 1-based house number.
std::string move_name(OwareMove move);
/// Parses a house number and checks that it is legal in `position` (rule 4 included). Throws
/// InputError.
OwareMove parse_move(const Oware& game, const OwarePosition& position, std::string_view text);
/// Parses space-separated moves from the start. Throws InputError naming the first bad one.
std::vector<OwareMove> parse_moves(const Oware& game, std::string_view text);
std::string moves_text(const std::vector<OwareMove>& moves);

std::string position_string(const Oware& game, const OwarePosition& position);
/// Parses a position string of `game`'s variant: M houses and a capture count a row, seeds
/// adding up to 2*M*N, side 1 or 2. Throws InputError naming what is wrong.
OwarePosition parse_position(const Oware& game, std::string_view text);

/// The board in ASCII: player 2's row on top (house M on the left), player 1's below, and
/// each side's captures.
std::string board_diagram(const Oware& game, const OwarePosition& position);

}  // namespace rastros::oware
