#pragma once
// Kalah positions as people see them, and their text forms (docs/rules.md, "Mancala notation"):
// both rows, both stores and the player to move; moves are house numbers 1..M counted from
// the mover's side; a position string is "4,4,4,4,4,4,0/4,4,4,4,4,4,0 1" (player 1's houses
// 1..M and store, then player 2's, then the side to move).

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "games/kalah/kalah.hpp"
#include "games/mancala/mancala_position.hpp"

namespace rastros::kalah {

/// The shared mancala position (games/mancala/mancala_position.hpp).
using KalahPosition = mancala::MancalaPosition;

/// The variant's size and name, for the shared text forms.
mancala::MancalaBoard board_of(const Kalah& game);

KalahPosition start_position(const Kalah& game);

/// The houses seen from the side to move (the search's state).
KalahState search_state(const Kalah& game, const KalahPosition& position);

/// The store margin of the side to move: its store minus the opponent's.
using mancala::store_margin;

/// The game has ended (a row is empty); final_stores() then holds each side's total.
bool has_ended(const Kalah& game, const KalahPosition& position);
/// The stores once each side has taken the seeds left in its own houses.
std::array<int, 2> final_stores(const Kalah& game, const KalahPosition& position);

/// The position after `move` (0-based house of the side to move), which must be legal.
KalahPosition play(const Kalah& game, const KalahPosition& position, KalahMove move);

/// "3": the 1-based house number.
std::string move_name(KalahMove move);
/// Parses a house number and checks that it is a legal move in `position`. Throws InputError.
KalahMove parse_move(const Kalah& game, const KalahPosition& position, std::string_view text);
/// Parses space-separated moves from the start. Throws InputError naming the first bad one.
std::vector<KalahMove> parse_moves(const Kalah& game, std::string_view text);
/// "3 6 1".
std::string moves_text(const std::vector<KalahMove>& moves);

std::string position_string(const Kalah& game, const KalahPosition& position);
/// Parses a position string of `game`'s variant: M houses and a store a row, seeds adding up
/// to the variant's 2*M*N, side 1 or 2. Throws InputError naming what is wrong.
KalahPosition parse_position(const Kalah& game, std::string_view text);

/// The board drawn in ASCII: player 2's row on top (house M on the left, as seen across the
/// board), the stores at the ends, player 1's row below.
std::string board_diagram(const Kalah& game, const KalahPosition& position);

}  // namespace rastros::kalah
