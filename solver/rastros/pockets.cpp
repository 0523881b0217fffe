#include "rastros/pockets.hpp"

#include <array>

#include "rastros/matching_endgame.hpp"
#include "rastros/rastros.hpp"
#include "rastros/region.hpp"

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

/// One pass over the candidate gateways, looking for pockets that hold a square of `seeds`
/// (kAnySeed: every part next to the gateway). Returns the gateways whose pockets it simplified.
SquareMask simplify_pass(const Board& board, Square snail, SquareMask& region, SquareMask gateways,
                         SquareMask seeds) {
  const SquareMask goals = board.goals();
  if (!gateways) return 0;
  SquareMask used_gateways = 0;
  // A square whose neighbours are joined round it is no gateway, unless it is next to the
  // snail: leaving it out leaves its neighbours joined to each other, and cut off from the snail
  // only when the snail reached them through it (e.g. d1 before {e1, f1} with the snail on c1).
  // Found once for the pass: removing a pocket only changes which squares are next to its own
  // gateway.
  const SquareMask candidates =
      gateways & (board.unjoined_squares(region & ~goals) | board.neighbours(snail));
  const SquareMask near_snail_or_goal = no_pocket_squares(board, snail, region);
  for (Square gateway : SquareSet(candidates)) {
    const SquareMask passable = region & ~goals;
    if (!(passable & bit(gateway))) continue;  // gone with an earlier pocket
    const SquareMask rest = passable & ~bit(gateway);
    const SquareMask disqualifying = near_snail_or_goal & rest;
    // Each part beyond the gateway holds a square next to it; a pocket sought holds a seed.
    SquareMask unexplored = rest & (seeds == kAnySeed ? board.neighbours(gateway) : seeds);
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
      used_gateways |= bit(gateway);
    }
  }
  return used_gateways;
}

}  // namespace

SquareMask gateways_on_paths_from(const Board& board, Square snail, SquareMask region,
                                  SquareMask seeds) {
  const SquareMask passable = region & ~board.goals();
  const SquareMask near_snail = board.neighbours(snail) & passable;
  SquareMask gateways = 0;
  std::array<SquareMask, kMaxSquares> layers;  // breadth-first layers from one seed
  for (Square seed : SquareSet(seeds)) {
    const int depth = layers_until(board, bit(seed), passable, near_snail, layers);
    // The region is joined to the snail, so the layers reach it; if not, say every square.
    if (depth < 0) return passable;
    // One shortest path back from the square next to the snail to the seed.
    Square square = lowest_square(layers[depth] & near_snail);
    for (int layer = depth; layer > 0; --layer) {
      gateways |= bit(square);
      if (layer > 1) square = lowest_square(layers[layer - 1] & board.neighbours(square));
    }
  }
  return gateways;
}

SquareMask simplify_pockets(const Board& board, Square snail, SquareMask region,
                            SquareMask gateways, SquareMask seeds) {
  SquareMask used = simplify_pass(board, snail, region, gateways, seeds);
  // Simplifying the pocket C behind a gateway g can make new pockets, and each holds g: the
  // squares next to C were those of C and g, so a part that holds neither g nor what is left of
  // C (one square, next to g only) kept its neighbours and was a pocket already. Their gateways
  // are on a path from g to the snail.
  while (used) {
    const SquareMask new_seeds = used & region & ~no_pocket_squares(board, snail, region);
    if (!new_seeds) break;
    used = simplify_pass(board, snail, region,
                         gateways_on_paths_from(board, snail, region, new_seeds), new_seeds);
  }
  return region;
}

}  // namespace rastros
