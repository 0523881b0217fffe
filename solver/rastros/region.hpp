#pragma once
// The snail's region: the empty squares it can still reach.
//
// The snail walks through empty squares, but a goal ends the game the moment it is entered, so
// a path never continues through a goal. The region is therefore
//   - every empty non-goal square joined to the snail by a path of empty non-goal squares, and
//   - every empty goal next to one of those squares or to the snail.
// Nothing outside the region can ever be visited again, so it never affects the value.

#include "rastros/board.hpp"

namespace rastros {

/// The squares reachable from `snail` through `free` (see above). The snail square is excluded.
inline SquareMask region_of(const Board& board, Square snail, SquareMask free) {
  const SquareMask passable = free & ~board.goals();
  SquareMask reached = bit(snail);
  while (true) {
    const SquareMask grown = (board.dilate(reached) & passable) | bit(snail);
    if (grown == reached) break;
    reached = grown;
  }
  return (reached & ~bit(snail)) | (board.dilate(reached) & free & board.goals());
}

}  // namespace rastros
