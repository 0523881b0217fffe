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
//     solver.cpp then decide much of what follows at once), far from it, beside slime;
//   - in the opening: not beside our own goal (while it is empty). Those squares are the
//     opponent's no-go zone, the reserve our win comes from; stepping on one spends it early, and
//     every move next to our goal tried first at the 7x7 positions after a first move and a
//     reply lost (7x7 value-only analysis 1.18 M -> 1.12 M nodes, remoteness
//     18.1 M -> 16.0 M, fewer nodes on every other board and start tried, bench/README.md);
//   - in the opening of a win/loss search: not on the board's edge. An edge square leaves the
//     opponent few replies, so the features above rank it first, but in the opening such a
//     move usually loses: it spends the squares beside our own goal (which the opponent can
//     never use) or runs into a corner, and each wrong try costs a whole refutation. Found in
//     by printing the positions where the first move tried cost the most.
// The weights were fitted by hill climbing on the node count of the 7x7 value-only analysis
// (every first move, one thread), with separate weights for large regions (the opening, where a
// wrong first try is dearest) and small ones; win/loss searches have two opening sets of their
// own (regions of 20-37 squares, and 38 or more), fitted on ten searches of several boards and
// start squares and checked on others (kOpeningWinLoss, kBig). Measured in
// bench/bench_solver.cpp against the plain mobility order (MoveOrdering::mobility: safe replies,
// then distance to our goal), which it replaces: bench/README.md.

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>

#include "rastros/board.hpp"
#include "rastros/position.hpp"
#include "rastros/rastros.hpp"

namespace rastros {

enum class MoveOrdering {
  tuned,               // the fitted weights below
  tuned_without_edge,  // the same without putting edge moves late (the baseline it was measured against)
  mobility,            // safe replies, then distance to our goal: the order before the fitted one
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
  bool on_edge = false;         // the move is on the board's first or last file or rank
  bool beside_my_goal = false;  // the move is next to our goal, which is still empty
  // Not weighed; the solver's lost-move rule reads them (solver.cpp). Whether some safe reply
  bool reply_forces_their_goal = false;  // leaves us only squares of their goal zone,
  bool reply_leaves_us_stuck = false;    // or no move at all
};

class MoveOrderer {
 public:
  MoveOrderer(const Board& board, MoveOrdering ordering) : board_(board), ordering_(ordering) {
    for (Square square = 0; square < board.square_count(); ++square) {
      const int file = board.file_of(square);
      const int rank = board.rank_of(square);
      if (file == 0 || rank == 0 || file == board.width() - 1 || rank == board.height() - 1) {
        edge_ |= bit(square);
      }
    }
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
    MoveFeatures features = reply_features(node, move, my_goal_zone, their_goal_zone);
    add_region_features(features, node, move, child_region);
    return features;
  }

  /// The features known before the position after the move is packed: the four counted over
  /// the opponent's replies, the two goal distances, and the two flags the solver reads.
  MoveFeatures reply_features(const Position& node, Square move, SquareMask my_goal_zone,
                              SquareMask their_goal_zone) const {
    MoveFeatures features;
    const SquareMask after_move = node.free & ~bit(move);
    const SquareMask safe = board_.neighbours(move) & after_move & ~my_goal_zone;
    features.safe_replies = count(safe);
    features.fewest_next_moves = safe ? 64 : 0;
    for (Square reply : SquareSet(safe)) {
      const SquareMask ours = board_.neighbours(reply) & after_move;
      const SquareMask ours_safe = ours & ~their_goal_zone;
      const int next = count(ours_safe);
      features.fewest_next_moves = std::min(features.fewest_next_moves, next);
      features.most_next_moves = std::max(features.most_next_moves, next);
      features.total_next_moves += next;
      if (!ours) features.reply_leaves_us_stuck = true;
      if (ours && !ours_safe) features.reply_forces_their_goal = true;
    }
    features.beside_my_goal = my_goal_zone & bit(move);  // the zone is empty without the goal
    const bool second = node.to_move == Player::two;
    features.my_goal_distance = goal_distance_[second][move];
    features.their_goal_distance = goal_distance_[!second][move];
    return features;
  }

  /// The rest, from the region after the move.
  void add_region_features(MoveFeatures& features, const Position& node, Square move,
                           SquareMask child_region) const {
    features.squares_cut_off = count(node.free) - 1 - count(child_region);
    features.blocked_neighbours = count(board_.neighbours(move) & ~node.free);
    features.keeps_my_goal = child_region & bit(board_.goal_of(node.to_move));
    features.keeps_their_goal = child_region & bit(board_.goal_of(opponent(node.to_move)));
    features.on_edge = edge_ & bit(move);
  }

  /// Lower first. `region_size`: the node's region, which picks the weights. `win_loss`: the
  /// whole search asks only who wins (SolverOptions::value_only). Not in the value pass that
  /// starts a remoteness search: the best moves it stores guide the remoteness tests after it.
  int priority(const MoveFeatures& features, int region_size, bool win_loss) const {
    if (ordering_ == MoveOrdering::mobility) {
      return features.safe_replies * 16 + features.my_goal_distance;
    }
    const bool opening = region_size >= kOpeningRegion;
    // Win/loss searches in the tuned order have opening weights of their own, and others for
    // the biggest regions; the other orders and remoteness keep kOpening.
    const bool fitted_win_loss = ordering_ == MoveOrdering::tuned && win_loss && opening;
    const bool big = fitted_win_loss && region_size >= kBigRegion;
    const Weights& w = big               ? kBig
                       : fitted_win_loss ? kOpeningWinLoss
                       : opening         ? kOpening
                                         : kEndgame;
    // Edge moves late: the tuned order's win/loss opening (the same nodes as fitted_win_loss).
    const int edge = !fitted_win_loss || !features.on_edge ? 0
                     : big                                 ? kBigEdge
                                                           : kOpeningEdgeWinLoss;
    const int goal_side = !opening || !features.beside_my_goal ? 0
                          : big                                ? kBigGoalSide
                          : fitted_win_loss                    ? kOpeningWinLossGoalSide
                          : win_loss                           ? kOpeningGoalSideWinLoss
                                                               : kOpeningGoalSideRemoteness;
    return edge + goal_side + w.safe_replies * features.safe_replies +
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
  /// Regions of at least this many squares use the opening weights. kOpening: remoteness
  /// searches, and win/loss searches in the orders kept for measuring.
  static constexpr int kOpeningRegion = 20;
  static constexpr Weights kOpening{17, 8, 18, 6, -7, -28, 1, -14, -14, 65};
  static constexpr Weights kEndgame{16, -1, 0, 0, 1, 0, 0, 0, 0, 4};
  /// Win/loss searches in the tuned order: regions of at least kBigRegion squares
  /// use kBig, the rest of the opening kOpeningWinLoss, each fitted by hill climbing from
  /// kOpening on the node counts of ten searches (7x7 analyses from d4, c5, b2, c3 and e4; 7x6
  /// and 6x7 analyses; 8x7, 8x6 and 6x8 roots) and checked on six not fitted on (7x7 analyses
  /// from d3 and f2, 7x6 from c3; 7x8 root, 8x7 root from d3, 6x8 root from c3) and twelve
  /// more. kBig first: geometric means 0.917x and 0.899x; then kOpeningWinLoss: 0.951x and
  /// 0.944x more. In both, our fewest moves after the opponent's replies no longer count
  /// (8 -> 0); in big regions neighbours outside the region count more, in the rest of the
  /// opening cutting the opponent's goal off counts much more (docs/performance.md).
  static constexpr int kBigRegion = 38;
  static constexpr Weights kBig{13, 0, 14, 4, -7, -28, 1, -22, -14, 65};
  static constexpr int kBigEdge = 90;
  static constexpr int kBigGoalSide = 160;
  static constexpr Weights kOpeningWinLoss{25, 0, 18, 6, -7, -16, 1, -14, -14, 225};
  static constexpr int kOpeningWinLossGoalSide = 160;  // the edge stays kOpeningEdgeWinLoss
  /// Added for a move on the edge in the opening of a win/loss search: enough to put most edge
  /// moves after the others, but not all of them (weights tried on the 7x7
  /// value-only analysis, one thread, 2.89 M nodes without: 60: 2.57 M, 100: 2.31 M, 110: 2.21 M,
  /// 120: 2.08 M, 130: 2.11 M, 200: 3.37 M, 1000 (always last): 5.53 M). With remoteness, where a
  /// quick win is sought, the same weight took 9% more nodes (15.3 M -> 16.7 M), and 14% when
  /// used only in the value pass before the remoteness tests (17.5 M), so it is left out there.
  static constexpr int kOpeningEdgeWinLoss = 120;
  /// Added for a move beside our own empty goal in the opening (one thread, nodes
  /// with each weight). Win/loss, the 7x7 analysis: 50: 1.155 M, 100: 1.155 M, 150: 1.134 M,
  /// 200: 1.120 M, 250: 1.123 M, 300: 1.148 M, 1000: 1.176 M (1.182 M without). With remoteness
  /// (the 7x7 analysis): 20: 18.0 M, 35: 17.9 M, 50: 16.0 M, 75: 16.0 M, 100: 16.2 M, 200:
  /// 17.3 M, 400: 18.3 M (18.1 M without).
  static constexpr int kOpeningGoalSideWinLoss = 200;
  static constexpr int kOpeningGoalSideRemoteness = 60;

  Board board_;
  MoveOrdering ordering_;
  SquareMask edge_ = 0;  // the squares of the first and last files and ranks
  // King steps from each square to player 1's goal ([0]) and player 2's ([1]).
  std::array<std::array<std::uint8_t, kMaxSquares>, 2> goal_distance_{};
};

}  // namespace rastros
