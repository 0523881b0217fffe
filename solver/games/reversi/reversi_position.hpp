#pragma once
// Reversi positions as people write them (docs/rules.md, "Reversi"): the position string of
// the public Othello test suites (N·N squares row by row from a1, `X` black, `O` white, `-`
// empty, a space, the side to move), square names a1..h8 (rows from the top) and `pass`.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/reversi/reversi.hpp"

namespace rastros::reversi {

/// A position with colours: black is player 1 (index 0), white player 2.
struct ReversiPosition {
  Bits black = 0;
  Bits white = 0;
  int to_move = 0;  // 0: black (X), 1: white (O)
  friend bool operator==(const ReversiPosition&, const ReversiPosition&) = default;
};

ReversiPosition start_position(const Reversi& game);
/// The position seen from the side to move.
ReversiState search_state(const ReversiPosition& position);
ReversiPosition play_move(const Reversi& game, const ReversiPosition& position, ReversiMove move);

/// "X" or "O".
char colour_letter(int player);
/// "a1".."h8", or "pass".
std::string move_name(ReversiMove move);
std::string moves_text(const std::vector<ReversiMove>& moves);
std::string position_string(const Reversi& game, const ReversiPosition& position);

/// Throws InputError (one line) for a malformed string: wrong length, a character other than
/// X O -, a missing side to move.
ReversiPosition parse_position(const Reversi& game, std::string_view text);
/// A square on the board or `pass` (any case). Throws InputError.
ReversiMove parse_move(const Reversi& game, std::string_view text);

/// A board size and a position on it, checked.
struct ReversiInput {
  Reversi game;
  std::vector<ReversiMove> moves;  // empty when the position was given as a string
  ReversiPosition position;
};

/// Whether `move` (a square or a pass) is legal for the side to move of `position`.
bool is_legal(const Reversi& game, const ReversiPosition& position, ReversiMove move);

/// "8x8" -> 8. Throws InputError for anything but 4x4, 6x6, 8x8.
int parse_board_size(std::string_view text);

/// The board and the position: the moves played from the start ("f5 d6 c3", each legal), or a
/// position string; neither: the start. Throws InputError when both are given or either is bad.
ReversiInput resolve_reversi_input(std::string_view board, const std::optional<std::string>& moves,
                                   const std::optional<std::string>& position);

}  // namespace rastros::reversi
