#pragma once
// A Rastros position, and its packed form.
//
// A position is three things: where the snail is, which squares are still empty, and whose
// turn it is. Slime is everything else, so it is never stored.
//
//   free      SquareMask, bit s set when square s is empty (the snail's own square is not free)
//   snail     the snail's square, 0 .. W*H-1
//   to_move   player 1 or 2
//
// Example, 7x7 after the moves "c3 b2" (player 1 to move); `x` slime, `o` snail, `.` empty:
//
//      a b c d e f g
//    7 . . . . . . .        free  = all 49 squares minus d4 (24), c3 (16), b2 (8)
//    6 . . . . . . .        snail = 8
//    5 . . . . . . .        to_move = 1
//    4 . . . x . . .
//    3 . . x . . . .        position string: "7/7/7/3x3/2x4/1o5/7 1"
//    2 . o . . . . .
//    1 . . . . . . .
//
// Packed form (`PackedPosition`, the key of tables and databases) is canonical: every position
// that must have the same value for the side to move gets the same key.
//   1. Side to move: rotating the board 180 degrees swaps the two goals, so a position with
//      player 2 to move is the rotated position with player 1 to move. Keys always have
//      player 1 to move, and need no side bit.
//   2. Region: squares the snail can no longer reach never matter again; they are cleared from
//      the free mask (see region.hpp). These two positions differ only at d3, which the snail
//      can no longer reach, so they have one key:
//         "7/7/7/7/7/xxx4/1ox4 1"  and  "7/7/7/7/3x3/xxx4/1ox4 1" -> free = {a1}, snail = b1
//   3. Symmetry: on square boards the reflection in the a1 diagonal keeps both goals; the key
//      is the smaller of the position's and its reflection's.
// The packed key is then (free mask, snail square): 64 + 8 bits, compared mask first.
// (Baselines that switch symmetry off skip steps 1 and 3 and keep the side to move in the
// snail byte's top bit instead.)

#include <compare>
#include <cstdint>

#include "rastros/board.hpp"

namespace rastros {

struct Position {
  SquareMask free = 0;
  Square snail = 0;
  Player to_move = Player::one;

  friend bool operator==(const Position&, const Position&) = default;
};

/// A canonical key: free squares and snail square, player 1 to move.
struct PackedPosition {
  SquareMask free = 0;
  std::uint8_t snail = 0;

  friend bool operator==(const PackedPosition&, const PackedPosition&) = default;
  friend auto operator<=>(const PackedPosition&, const PackedPosition&) = default;
};

/// A well-mixed hash of a key, for the tables that index positions by it (the transposition
/// tables of both searches): multiplicative in each half, then the high bits folded down.
constexpr std::uint64_t hash_of(const PackedPosition& key) {
  const std::uint64_t hash =
      key.free * 0x9E3779B97F4A7C15ull ^ (std::uint64_t{key.snail} + 1) * 0xC2B2AE3D27D4EB4Full;
  return hash ^ hash >> 29;
}

}  // namespace rastros
