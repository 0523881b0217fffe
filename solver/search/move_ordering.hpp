#pragma once
// Which move the alpha-beta solver tries first: a priority for each move, lower first.
//
// The order never changes a result, only how many nodes the search takes to prove it. A win
// needs one good move; each wrong move tried before it costs a whole refutation, and a good
// move with a big proof costs that proof. So the priority favours moves whose proofs are small:
//   - few safe replies for the opponent (replies that do not step next to our goal): fewer
//     branches to refute;
//   - few moves for us after those replies (fewest, most and total): a tight, forced game;
//   - in the opening: cutting the opponent's goal off (the one-goal and matching rules of
//     solver.cpp then decide much of what follows at once), far from it, beside slime.
// The weights were fitted by hill climbing on the node count of the 7x7 value-only analysis
// (every first move, one thread), with separate weights for large regions (the opening, where a
// wrong first try is dearest) and small ones. Measured in bench/bench_solver.cpp against the
// plain mobility order (MoveOrdering::mobility: safe replies, then distance to our goal), which
// it replaces: README, "Performance".

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>

#include "rastros/board.hpp"
#include "rastros/position.hpp"
#include "rastros/rastros.hpp"

namespace rastros {

enum class MoveOrdering {
  tuned,     // the fitted weights below
  mobility,  // safe replies, then distance to our goal: the order before the fitted one
};

/// What the ordering looks at for one move of a node (see move_features below).
struct MoveFeatures {
  int safe_replies = 0;         // the opponent's replies that do not step next to our goal
  int fewest_next_moves = 0;    // over those replies: our fewest moves afterwards
  int most_next_moves = 0;      //   our most
  int total_next_moves = 0;     //   and their sum
  int my_goal_distance = 0;     // king steps from the move to our goal
  int their_goal_distance = 0;  // and to the opponent's
  int squares_cut_off = 0;      // region squares the move leaves out of reach
  int blocked_neighbours = 0;   // neighbours of the move outside the region (slime, edge goals)
  bool keeps_my_goal = false;   // our goal still in the region after the move
  bool keeps_their_goal = false;
};

class MoveOrderer {
 public:
  MoveOrderer(const Board& board, MoveOrdering ordering) : board_(board), ordering_(ordering) {
    for (Player player : {Player::one, Player::two}) {
      const Square goal = board.goal_of(player);
      for (Square square = 0; square < board.square_count(); ++square) {
        goal_distance_[player == Player::two][square] = static_cast<std::uint8_t>(
            std::max(std::abs(board.file_of(square) - board.file_of(goal)),
                     std::abs(board.rank_of(square) - board.rank_of(goal))));
      }
    }
  }

  /// The features of `move` from `node` (whose free squares are its region). `my_goal_zone`
  /// and `their_goal_zone`: Board::goal_zone of the side to move and of the opponent.
  /// `child_region`: the region after the move.
  MoveFeatures move_features(const Position& node, Square move, SquareMask my_goal_zone,
                             SquareMask their_goal_zone, SquareMask child_region) const {
    MoveFeatures features;
    const SquareMask after_move = node.free & ~bit(move);
    const SquareMask safe = board_.neighbours(move) & after_move & ~my_goal_zone;
    features.safe_replies = count(safe);
    features.fewest_next_moves = safe ? 64 : 0;
    for (Square reply : SquareSet(safe)) {
      const int next =
          count(board_.neighbours(reply) & after_move & ~bit(reply) & ~their_goal_zone);
      features.fewest_next_moves = std::min(features.fewest_next_moves, next);
      features.most_next_moves = std::max(features.most_next_moves, next);
      features.total_next_moves += next;
    }
    const bool second = node.to_move == Player::two;
    features.my_goal_distance = goal_distance_[second][move];
    features.their_goal_distance = goal_distance_[!second][move];
    features.squares_cut_off = count(node.free) - 1 - count(child_region);
    features.blocked_neighbours = count(board_.neighbours(move) & ~node.free);
    features.keeps_my_goal = child_region & bit(board_.goal_of(node.to_move));
    features.keeps_their_goal = child_region & bit(board_.goal_of(opponent(node.to_move)));
    return features;
  }

  /// Lower first. `region_size`: the node's region, which picks the weights.
  int priority(const MoveFeatures& features, int region_size) const {
    if (ordering_ == MoveOrdering::mobility) {
      return features.safe_replies * 16 + features.my_goal_distance;
    }
    const Weights& w = region_size >= kOpeningRegion ? kOpening : kEndgame;
    return w.safe_replies * features.safe_replies +
           w.fewest_next_moves * features.fewest_next_moves +
           w.most_next_moves * features.most_next_moves +
           w.total_next_moves * features.total_next_moves +
           w.my_goal_distance * features.my_goal_distance +
           w.their_goal_distance * features.their_goal_distance +
           w.squares_cut_off * features.squares_cut_off +
           w.blocked_neighbours * features.blocked_neighbours +
           w.keeps_my_goal * features.keeps_my_goal +
           w.keeps_their_goal * features.keeps_their_goal;
  }

 private:
  struct Weights {
    int safe_replies, fewest_next_moves, most_next_moves, total_next_moves;
    int my_goal_distance, their_goal_distance, squares_cut_off, blocked_neighbours;
    int keeps_my_goal, keeps_their_goal;
  };
  /// Regions of at least this many squares use the opening weights.
  static constexpr int kOpeningRegion = 20;
  static constexpr Weights kOpening{17, 8, 18, 6, -7, -28, 1, -14, -14, 65};
  static constexpr Weights kEndgame{16, -1, 0, 0, 1, 0, 0, 0, 0, 4};

  Board board_;
  MoveOrdering ordering_;
  // King steps from each square to player 1's goal ([0]) and player 2's ([1]).
  std::array<std::array<std::uint8_t, kMaxSquares>, 2> goal_distance_{};
};

}  // namespace rastros
