#pragma once
// Reversi (Othello) on an N×N board, N = 4, 6 or 8 (docs/rules.md, "Reversi"), as a ScoreGame
// of the engine (engine/score_game.hpp): generic perft and the generic score solver run on it.
// The fast exact solver of 8×8 endgames is reversi_solver.hpp.
//
// A state is seen from the side to move: its discs, the opponent's. Discs are never banked
// (every gain is 0), so a state's score is the final disc margin for the side to move.

#include <cstdint>
#include <string>

#include "core/small_vector.hpp"
#include "games/reversi/reversi_bits.hpp"

namespace rastros::reversi {

struct ReversiState {
  Bits mine = 0;
  Bits theirs = 0;
  friend bool operator==(const ReversiState&, const ReversiState&) = default;
};

/// A move: the square (8*row + column), or kPass.
using ReversiMove = std::uint8_t;
inline constexpr ReversiMove kPass = 64;
/// At most 32 legal moves can exist in a position on 8×8 (the known maximum is 33 with one
/// square to spare: the capacity is generous).
using ReversiMoveList = SmallVector<ReversiMove, 40>;

struct ReversiPlayed {
  ReversiState next;
  int gain = 0;
  bool again = false;
};

class Reversi {
 public:
  using State = ReversiState;
  using Move = ReversiMove;
  using MoveList = ReversiMoveList;
  using Played = ReversiPlayed;

  /// Throws InputError unless n is 4, 6 or 8.
  explicit Reversi(int n = 8);

  int size() const { return geometry_.n; }
  const Geometry& geometry() const { return geometry_; }
  std::string name() const;  // "reversi 8x8"

  /// The start, black (player 1) to move.
  State start() const;

  /// The legal moves in square order; `pass` alone when the mover has none but the opponent
  /// has; none when the game has ended.
  MoveList legal_moves(const State& state) const;
  Played play(const State& state, Move move) const;
  bool is_terminal(const State& state) const;
  int terminal_score(const State& state) const;
  /// Bound on |score|: the squares of the board.
  int seeds_in_play(const State&) const { return geometry_.n * geometry_.n; }
  /// Exact (a base-3 rank of the board) for N <= 6; a 64-bit mix of both masks on 8×8, where
  /// 3^64 states do not fit in 64 bits: the generic solver is for N <= 6, reversi_solver.hpp
  /// (which checks both masks) for 8×8.
  std::uint64_t key(const State& state) const;
  /// Fastest-first for the generic solver: fewer replies for the opponent first, corners first.
  int move_order(const State& state, Move move) const;

 private:
  Geometry geometry_;
};

}  // namespace rastros::reversi
