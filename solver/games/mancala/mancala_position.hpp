#pragma once
// Mancala positions as people see them and their text forms, shared by every mancala game
// (Kalah, Congkak, Oware; docs/rules.md, "Mancala notation"): both rows, both stores and the
// player to move; moves are house numbers 1..M counted from the mover's side; a position
// string is "4,4,4,4,4,4,0/4,4,4,4,4,4,0 1" (player 1's houses 1..M and store, then player
// 2's, then the side to move). What differs between the games (how a move sows) stays in
// each game's folder.

#include <array>
#include <sstream>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rastros::mancala {

inline constexpr int kMaxHouses = 8;

/// What the text forms need to know of a variant: its size and its name for messages.
struct MancalaBoard {
  int houses = 6;
  int seeds = 4;
  std::string name;  // "kalah(6,4)"
  /// What the last number of a row holds, for messages: "a store" (Oware: "a capture count").
  std::string store = "a store";
  int total_seeds() const { return 2 * houses * seeds; }
};

struct MancalaPosition {
  /// rows[p][i]: player p+1's house i+1.
  std::array<std::array<int, kMaxHouses>, 2> rows{};
  std::array<int, 2> stores{};
  int to_move = 0;  // 0: player 1, 1: player 2

  friend bool operator==(const MancalaPosition&, const MancalaPosition&) = default;
};

/// A pit of the board: player `player`'s (0 or 1) house `house` (0-based), or its store when
/// `house` is the number of houses.
struct MancalaPit {
  int player = 0;
  int house = 0;
  friend bool operator==(const MancalaPit&, const MancalaPit&) = default;
};

/// A move: the index (0-based) of the mover's house emptied. People write it 1-based.
using MancalaMove = std::uint8_t;

MancalaPosition start_position(const MancalaBoard& board);
/// The houses seen from the side to move: its houses 1..M, then the opponent's.
std::array<std::uint8_t, 2 * kMaxHouses> mover_view(const MancalaBoard& board,
                                                    const MancalaPosition& position);
/// The position after a move whose result is given from the view of whoever moves next
/// (`next_houses`, as mover_view), with `gain` seeds banked by the mover.
MancalaPosition after_move(const MancalaBoard& board, const MancalaPosition& position,
                           const std::array<std::uint8_t, 2 * kMaxHouses>& next_houses, int gain,
                           bool again);

/// The store margin of the side to move: its store minus the opponent's.
int store_margin(const MancalaPosition& position);
/// The end of Kalah and Congkak (rule 4 of Kalah): the game has ended when a row is empty, and
/// each side then takes the seeds of its own houses. A game that ends otherwise (Oware) has its
/// own; the shared solver and play session ask the game (is_terminal, terminal_score) instead.
/// The game has ended (a row is empty); final_stores() then holds each side's total.
bool has_ended(const MancalaBoard& board, const MancalaPosition& position);
/// The stores once each side has taken the seeds left in its own houses.
std::array<int, 2> final_stores(const MancalaBoard& board, const MancalaPosition& position);

/// "3": the 1-based house number.
std::string move_name(MancalaMove move);
/// Parses a house number and checks that it is a legal move in `position`. Throws InputError.
MancalaMove parse_move(const MancalaBoard& board, const MancalaPosition& position,
                       std::string_view text);
/// Parses space-separated moves from the start, each checked in the position the ones before
/// it lead to (`play(position, move)` gives the next). Throws InputError naming the first bad one.
template <class Play>
std::vector<MancalaMove> parse_moves(const MancalaBoard& board, std::string_view text, Play play) {
  std::vector<MancalaMove> moves;
  MancalaPosition position = start_position(board);
  std::istringstream words{std::string(text)};
  std::string word;
  while (words >> word) {
    const MancalaMove move = parse_move(board, position, word);
    moves.push_back(move);
    position = play(position, move);
  }
  return moves;
}
/// "3 6 1".
std::string moves_text(const std::vector<MancalaMove>& moves);

std::string position_string(const MancalaBoard& board, const MancalaPosition& position);
/// Parses a position string of the variant: M houses and a store a row, seeds adding up to the
/// variant's 2*M*N, side 1 or 2. Throws InputError naming what is wrong.
MancalaPosition parse_position(const MancalaBoard& board, std::string_view text);

/// The board drawn in ASCII: player 2's row on top (house M on the left, as seen across the
/// board), the stores at the ends, player 1's row below.
std::string board_diagram(const MancalaBoard& board, const MancalaPosition& position);

}  // namespace rastros::mancala
