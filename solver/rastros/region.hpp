#pragma once
// The snail's region: the empty squares it can still reach.
//
// The snail walks through empty squares, but a goal ends the game the moment it is entered, so
// a path never continues through a goal. The region is therefore
//   - every empty non-goal square joined to the snail by a path of empty non-goal squares, and
//   - every empty goal next to one of those squares or to the snail.
// Nothing outside the region can ever be visited again, so it never affects the value.

#include <array>

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

/// The region after the snail steps from `from` to `to`, given `region` = the region at `from`
/// (to is a non-goal square of it). The same as region_of(board, to, region minus to), but
/// usually without a flood fill: the parent's passable squares P (region minus goals) were all
/// joined to `from`; when the box around `from` joins its neighbours in P, P stays joined
/// without `from`, so the snail at `to` still reaches all of P, and the goals it reaches are
/// those next to P. Otherwise (`from` may cut P in two) the flood fill decides.
inline SquareMask region_after_step(const Board& board, Square from, SquareMask region, Square to) {
  const SquareMask passable = region & ~board.goals();
  if (!board.box_joins_neighbours(from, passable)) {
    return region_of(board, to, region & ~bit(to));
  }
  return (passable & ~bit(to)) | (board.dilate(passable) & region & board.goals());
}

/// Breadth-first layers from `from` through `passable` (layers[k]: the squares k steps away)
/// until a layer meets `to`. Returns the number of the layer that met it, or -1 when none does.
/// Walking back through the layers gives a shortest path.
inline int layers_until(const Board& board, SquareMask from, SquareMask passable, SquareMask to,
                        std::array<SquareMask, kMaxSquares>& layers) {
  int depth = 0;
  layers[0] = from;
  SquareMask reached = from;
  while (!(layers[depth] & to)) {
    const SquareMask next = board.dilate(layers[depth]) & passable & ~reached;
    if (!next) return -1;
    layers[++depth] = next;
    reached |= next;
  }
  return depth;
}

}  // namespace rastros
