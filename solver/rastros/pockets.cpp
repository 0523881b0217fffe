#include "rastros/pockets.hpp"

#include "rastros/matching_endgame.hpp"
#include "rastros/rastros.hpp"

namespace rastros {
namespace {

/// Grows the part of `rest` (the passable squares without the gateway) that holds `reached`
/// one step at a time. True when it is a pocket: it stopped growing without reaching a square
/// of `disqualifying` (next to the snail or to a goal). Growing step by step makes the common
/// case cheap: a part next to the snail is recognised after a step or two.
bool grow_pocket(const Board& board, SquareMask& reached, SquareMask rest,
                 SquareMask disqualifying) {
  while (!(reached & disqualifying)) {
    const SquareMask grown = board.dilate(reached) & rest;
    if (grown == reached) return true;
    reached = grown;
  }
  return false;
}

/// One pass over the candidate gateways; true when some pocket was simplified.
bool simplify_pass(const Board& board, Square snail, SquareMask& region, SquareMask gateways) {
  const SquareMask goals = board.goals();
  if (!gateways) return false;
  bool changed = false;
  // A square whose neighbours are joined round it is no gateway: leaving it out leaves the
  // rest joined. Found once for the pass: removing a pocket only changes which squares are
  // next to its own gateway.
  const SquareMask candidates = gateways & board.unjoined_squares(region & ~goals);
  // Squares no pocket holds. (Removing a pocket keeps the goals' neighbours in the region.)
  const SquareMask near_snail_or_goal = board.neighbours(snail) | board.dilate(region & goals);
  for (Square gateway : SquareSet(candidates)) {
    const SquareMask passable = region & ~goals;
    if (!(passable & bit(gateway))) continue;  // gone with an earlier pocket
    const SquareMask rest = passable & ~bit(gateway);
    const SquareMask disqualifying = near_snail_or_goal & rest;
    // Each part beyond the gateway holds a square next to it.
    SquareMask unexplored = board.neighbours(gateway) & rest;
    while (unexplored) {
      SquareMask pocket = bit(lowest_square(unexplored));
      const bool is_pocket = grow_pocket(board, pocket, rest, disqualifying);
      unexplored &= ~pocket;
      // A single square is its own simplest form.
      if (!is_pocket || count(pocket) < 2) continue;
      region &= ~pocket;
      for (Square entry : SquareSet(board.neighbours(gateway) & pocket)) {
        // Stepping in wins when the opponent, to move from the entry, loses the geography.
        if (!geography_mover_wins(board, entry, pocket & ~bit(entry))) {
          region |= bit(entry);
          break;
        }
      }
      changed = true;
    }
  }
  return changed;
}

}  // namespace

SquareMask simplify_pockets(const Board& board, Square snail, SquareMask region,
                            SquareMask gateways) {
  if (!simplify_pass(board, snail, region, gateways)) return region;
  while (simplify_pass(board, snail, region, region & ~board.goals())) {
  }
  return region;
}

}  // namespace rastros
