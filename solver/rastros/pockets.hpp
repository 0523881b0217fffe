#pragma once
// Pockets: goal-free parts of the region that only one square leads into.
//
// A pocket is a set of squares P of the region, with no goal in or next to it, that the snail
// can only enter through one square v (its gateway): every path from the snail into P passes
// through v. Example, 7x7, `x` slime, `o` snail, P = {f1, g1, g2} behind the gateway e1:
//
//      a b c d e f g
//    3 . . . . x x x
//    2 . . . . x x .        The snail can only come into P by stepping from e1 to f1
//    1 . . o . . . .        (f2 and e2 are slime). Once inside, it never leaves: the way
//                           out is e1 again, which it slimed on the way in.
//
// So entering P ends the game inside P, as plain geography (no goal there): the player who
// steps in wins iff the opponent, to move on the rest of P, loses that game, which the
// matching endgame answers at once. Until someone steps in, nothing can change P. So, for
// the win/loss value of the position (standard rules: a stuck player loses), only one bit of
// P matters, whether the player standing on v can step in and win:
//   - yes: P is replaced by one square of it next to v. Stepping there wins (the opponent is
//     stuck), as before. Here f1 wins: the opponent on f1 steps to g1 or g2, the other one is
//     left for us and they are stuck. So P becomes {f1}.
//   - no: P is removed. Stepping in lost anyway; with no other move, being stuck loses too.
// Positions that differ only inside their pockets then share a key (more table hits), and the
// search never looks inside a pocket again. Remoteness does change (a game that ends inside P
// ends sooner), so only win/loss searches simplify pockets (SolverOptions::simplify_pockets).

#include "rastros/board.hpp"

namespace rastros {

/// Squares no pocket holds: next to the snail, or next to a goal of the region. (Simplifying a
/// pocket keeps the goals' neighbours in the region, so this does not change while it runs.)
inline SquareMask no_pocket_squares(const Board& board, Square snail, SquareMask region) {
  return board.neighbours(snail) | board.dilate(region & board.goals());
}

/// For simplify_pockets: look for pockets beside each candidate gateway, whatever they hold.
inline constexpr SquareMask kAnySeed = ~SquareMask{0};

/// `region` (the snail's region, region.hpp, with the snail on `snail`) with the pockets
/// behind the squares of `gateways` that hold a square of `seeds` simplified as above. When
/// that changed anything, the pockets this made are simplified too, until nothing is left to
/// simplify (removing a pocket can make a bigger one: its gateway and a single square left
/// behind it, say). A candidate that is no gateway, or whose pocket is one square already,
/// changes nothing. When every pocket of `region` has its gateway in `gateways` and holds a
/// seed, none is left in the result.
SquareMask simplify_pockets(const Board& board, Square snail, SquareMask region,
                            SquareMask gateways, SquareMask seeds = kAnySeed);

/// Every pocket of the region simplified.
inline SquareMask simplify_all_pockets(const Board& board, Square snail, SquareMask region) {
  return simplify_pockets(board, snail, region, region & ~board.goals());
}

/// The squares that can be the gateway of a pocket holding one of `seeds` (squares of the
/// region, none next to the snail on `snail` or to a goal). Every path from such a pocket to
/// the snail passes through its gateway, so the gateway lies on any one path from the seed to
/// a square next to the snail: the squares of one shortest such path for each seed (the seed
/// itself left out). Usually a square or two, since the seeds are near the snail.
SquareMask gateways_on_paths_from(const Board& board, Square snail, SquareMask region,
                                  SquareMask seeds);

/// The same after the snail steps from `from` to `to`, where `parent_region` (the region at
/// `from`) had nothing left to simplify and `region` is the region at `to`. Only pockets the
/// step created can be new, and each holds a square next to `from` (else it was a pocket of
/// the parent already). When the parent's squares next to `from` were joined to each other
/// round it (Board::box_joins_neighbours), a way round `from` inside its box leads from the
/// pocket to `to`, and every such way passes through the gateway: the gateway is one of
/// Board::box_cut_squares, usually none. Otherwise the gateway is on a path from a square next
/// to `from` to the snail (gateways_on_paths_from). And when every square next to `from` is
/// next to the snail or a goal, or gone, no pocket can be new.
inline SquareMask simplify_pockets_after_step(const Board& board, Square from,
                                              SquareMask parent_region, Square to,
                                              SquareMask region) {
  const SquareMask goals = board.goals();
  // No pocket holds a square next to the snail or to a goal: most steps end here.
  const SquareMask seeds =
      board.neighbours(from) & region & ~goals & ~no_pocket_squares(board, to, region);
  if (!seeds) return region;
  const SquareMask parent_passable = parent_region & ~goals;
  if (board.box_joins_neighbours(from, parent_passable)) {
    return simplify_pockets(board, to, region,
                            board.box_cut_squares(from, parent_passable) & region & ~goals, seeds);
  }
  return simplify_pockets(board, to, region, gateways_on_paths_from(board, to, region, seeds),
                          seeds);
}

}  // namespace rastros
