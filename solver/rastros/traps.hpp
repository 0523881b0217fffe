#pragma once
// Traps: a move after which every reply of the opponent is answered by a move that leaves the
// opponent stuck or only squares beside our goal. It wins within five plies, and it is found
// with a few bit masks, before any position after it is packed or searched.
//
// A player's goal zone (Board::goal_zone) is the goal and, while it is empty, its neighbours:
// squares the other player must not step on, since the owner would enter the goal next. A move
// of ours to `move` is a trap when
//   - the opponent cannot enter their own goal from `move` (the solver plays no such move),
//   - the opponent has a safe reply (a step outside our goal zone): with none, they must step
//     into our zone or are stuck, a win found one ply earlier, and
//   - every safe reply is answered by a step of ours outside their goal zone after which the
//     opponent is stuck (a win where being stuck loses) or has only squares of our goal zone.
// The win then takes 3 plies (stuck) to 5 (they step beside our goal, we enter it).
//
// Example, 5x5 (position 5/2xx1/1oxxx/2x2/5 1): player 1 (goal a1) to move, the snail `o`
// on b3, `#` slimed.
//
//     5  . . . . 2      The trap: b2. Player 2's replies a1, a2 and b1 lose at once (a1 is
//     4  . . # # .      player 1's goal, which player 1 enters next from the other two), so
//     3  . o # # #      a3 and c1 are left. After a3, player 1 answers a2 and player 2 has
//     2  . . # . .      only a1 and b1; after c1, player 1 answers b1 and player 2 has only a1
//     1  1 . . . .      and a2. Player 1 enters a1 at ply 5 at the latest (`rastros solve
//        a b c d e      --board 5x5 --position '5/2xx1/1oxxx/2x2/5 1'`: b2, win in 5).
//
// In the solver (search/solver.cpp) a node with a trap is a win at once in win/loss searches,
// and a win in at most five plies (a lower bound) with remoteness.

#include "rastros/board.hpp"
#include "rastros/position.hpp"

namespace rastros {

/// True when the step of `position`'s snail to `move` (an empty square next to it, not a goal)
/// is a trap for the side to move (see above). `my_zone` and `their_zone`: Board::goal_zone of
/// the side to move and of the opponent for `position.free` (a search has them already).
/// `stuck_loses`: the standard rules, where a player with no move loses (under the other rules
/// a stuck opponent is a draw, not a win).
inline bool is_trap(const Board& board, const Position& position, Square move, SquareMask my_zone,
                    SquareMask their_zone, bool stuck_loses) {
  const SquareMask after_move = position.free & ~bit(move);
  const SquareMask replies = board.neighbours(move) & after_move;
  if (replies & bit(board.goal_of(opponent(position.to_move)))) return false;  // their goal
  const SquareMask safe_replies = replies & ~my_zone;
  if (!safe_replies) return false;
  for (Square reply : SquareSet(safe_replies)) {
    const SquareMask after_reply = after_move & ~bit(reply);
    bool answered = false;
    for (Square answer : SquareSet(board.neighbours(reply) & after_reply & ~their_zone)) {
      // The opponent's moves after our answer (the answer's square is not its own neighbour).
      const SquareMask theirs = board.neighbours(answer) & after_reply;
      if (theirs ? !(theirs & ~my_zone) : stuck_loses) {
        answered = true;
        break;
      }
    }
    if (!answered) return false;
  }
  return true;
}

/// The same, the goal zones worked out here.
inline bool is_trap(const Board& board, const Position& position, Square move, bool stuck_loses) {
  return is_trap(board, position, move, board.goal_zone(position.to_move, position.free),
                 board.goal_zone(opponent(position.to_move), position.free), stuck_loses);
}

}  // namespace rastros
