#pragma once
// Goal pockets: a goal and the part of the region round it that only one square leads into.
//
// A goal pocket is a set of squares P of the region holding a goal, none of them next to the
// snail, that the snail can only enter through one square g (its gateway): every path from the
// snail into P passes through g. Example, 7x7, `x` slime, `o` snail, P = {f6, f7, g6, g7}
// (the goal g7 among them) behind the gateway e5:
//
//      a b c d e f g
//    7 . . . . x . .
//    6 . . . . x . .        The snail can only come into P by stepping from e5 to f6 (e6, f5
//    5 . . . . . x x        and g5 are slime). Until someone stands on e5, nothing can change
//    4 . o . . . . .        P: no square of P is next to a square the snail can reach without
//    3 . . . . . . .        passing e5. Once someone steps from e5 into P, the snail never
//    2 . . . . . . .        leaves it: e5 is slime behind it.
//    1 . . . . . . .
//
// So the rest of the game depends on P only through what stepping into it is worth, to each
// player: two bits, "player 1, stepping from g into P (at its best square), wins" and the same
// for player 2. Unlike a goal-free pocket (pockets.hpp), the two can differ: inside P one
// player has a goal and the other has not. For the win/loss value (standard rules), P can then
// be replaced by any stand-in that is worth the same two bits and touches nothing else:
//   - neither wins by stepping in: P is removed (stepping in lost anyway; with no other move,
//     being stuck loses too);
//   - both win: one square next to g (stepping there leaves the opponent stuck);
//   - the goal's owner wins and the other player loses, whoever steps in: a shortest path from
//     g to the goal (the snail's way along it is forced, and whoever is to move at its end,
//     the owner enters the goal or the other player is stuck). Here player 2 wins whoever steps
//     in to f6 (player 2 enters g7 at once, or player 1 can only step next to it or into it),
//     so P becomes {f6, g7};
//   - the other player wins and the owner loses: no stand-in; P is kept.
// The stand-in need not be free squares of the position: it only has to be out of the snail's
// reach but through g, so its squares are chosen away from the rest of the region, as a
// function of the rest of the region alone. Positions that differ only inside their goal
// pockets, and agree on the two bits, then share one key.
//
// The two bits come from searching the positions just inside P (the solver's
// summarize_goal_pockets, search/solver.cpp). Remoteness does change, so only win/loss
// searches use goal pockets (SolverOptions::summarize_goal_pockets).

#include <optional>

#include "rastros/board.hpp"

namespace rastros {

struct GoalPocket {
  Square gateway = 0;
  SquareMask part = 0;  // the squares behind the gateway, the goal among them; none when empty
  explicit operator bool() const { return part != 0; }
};

/// A goal pocket of `region` (the snail's region, region.hpp, the snail on `snail`) holding
/// `goal`, of at most `max_part` squares, or none (an empty part). The pockets looked for are
/// balls round the goal: the squares within k steps of it through the region, when exactly one
/// square of the region borders them (the gateway) and none of them is next to the snail; the
/// biggest such ball is taken. A pocket with a long branch away from its gateway is no ball and
/// is missed: a cheap search for most of them (measured, docs/performance.md).
/// (Returned as a plain 16-byte struct, in registers: a std::optional came back through memory
/// and the caller's reads waited for the stores, a sixth of this function's time.)
GoalPocket find_goal_pocket(const Board& board, Square snail, SquareMask region, Square goal,
                            int max_part);

/// What stepping from the gateway into a goal pocket is worth to each player.
struct GoalPocketValue {
  bool player_one_wins_entering;
  bool player_two_wins_entering;
};

/// `region` with `pocket` replaced by the stand-in worth `value` (above), or none when no
/// stand-in is worth it (the other player wins whoever steps in) or none fits on the board.
std::optional<SquareMask> with_goal_pocket_stand_in(const Board& board, Square snail,
                                                    SquareMask region, const GoalPocket& pocket,
                                                    const GoalPocketValue& value);

}  // namespace rastros
