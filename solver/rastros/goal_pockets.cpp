#include "rastros/goal_pockets.hpp"

#include <array>

#include "rastros/region.hpp"

namespace rastros {

GoalPocket find_goal_pocket(const Board& board, Square snail, SquareMask region, Square goal,
                            int max_part) {
  const SquareMask near_snail = board.neighbours(snail) & region;
  if (!(region & bit(goal)) || (near_snail & bit(goal))) return {};
  // Balls round the goal (the squares within k steps of it, through the region), each left
  // through a single square: that square is a gateway and the ball its pocket.
  GoalPocket biggest;
  SquareMask ball = bit(goal);
  while (true) {
    const SquareMask border = board.dilate(ball) & region & ~ball;
    if (count(border) == 1) {
      biggest = GoalPocket{lowest_square(border), ball};
    }
    const SquareMask grown = ball | border;
    if (count(grown) > max_part || (grown & near_snail) || grown == ball) return biggest;
    ball = grown;
  }
}

std::optional<SquareMask> with_goal_pocket_stand_in(const Board& board, Square snail,
                                                    SquareMask region, const GoalPocket& pocket,
                                                    const GoalPocketValue& value) {
  const SquareMask rest = region & ~pocket.part;
  // Squares a stand-in may use: off the rest of the region and away from it and from the
  // snail, so that the only way in is through the gateway. They depend on the rest alone, not
  // on the pocket, so pockets worth the same get the same stand-in.
  const SquareMask outside = rest & ~bit(pocket.gateway);
  const SquareMask room = board.all_squares() & ~outside & ~board.dilate(outside) & ~bit(snail) &
                          ~board.neighbours(snail) & ~bit(pocket.gateway);
  const bool one = value.player_one_wins_entering;
  const bool two = value.player_two_wins_entering;
  if (!one && !two) return rest;
  if (one && two) {
    const SquareMask choices = board.neighbours(pocket.gateway) & room & ~board.goals();
    if (!choices) return std::nullopt;
    return rest | bit(lowest_square(choices));
  }
  // One player wins whoever steps in: a path to that player's goal, when the pocket holds it.
  const Square goal = board.goal_of(one ? Player::one : Player::two);
  if (!(pocket.part & bit(goal))) return std::nullopt;
  const SquareMask passable = room & (~board.goals() | bit(goal));
  std::array<SquareMask, kMaxSquares> layers;
  const int depth =
      layers_until(board, bit(goal), passable, board.neighbours(pocket.gateway), layers);
  if (depth < 0) return std::nullopt;
  // Layers from the goal, so no square of the path is next to any but its two neighbours on
  // it, and only its first square is next to the gateway: the snail's way along it is forced.
  Square square = lowest_square(layers[depth] & board.neighbours(pocket.gateway));
  SquareMask path = bit(square);
  for (int layer = depth; layer > 0; --layer) {
    square = lowest_square(layers[layer - 1] & board.neighbours(square));
    path |= bit(square);
  }
  return rest | path;
}

}  // namespace rastros
