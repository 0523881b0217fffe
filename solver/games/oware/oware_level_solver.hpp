#pragma once
// The values of one level of Oware's game graph, a graph with cycles: the positions with the
// same seeds on the board, linked by the moves that capture nothing. Every other way out of a
// position (a capture, whose target lies in a lower level already known, or the end of the
// game) is an exit of known value, and only the best of a position's exits matters.
//
// Rule 7 values a position by the best net the side to move can force, where play that never
// reaches an exit is worth 0. For each threshold t > 0 the positions worth at least t (the
// mover can force an exit worth t) and those worth at most -t (the opponent can) are the
// attractors of a reachability game, computed backwards from the exits with a counter of
// children not yet known to be good for the opponent, as a frontier processed in parallel
// (TBB). A position in neither set for any t is worth 0: the endless play of rule 6. Naive
// value iteration would not do: on a cycle a pair of positions can keep any two opposite
// values consistent with each other, and only the attractors find the least such pair.

#include <cstdint>
#include <functional>
#include <vector>

namespace rastros::oware {

/// No exit: every move stays in the level.
inline constexpr std::int8_t kNoExit = INT8_MIN;

/// A level's graph: nodes 0..size()-1, each with its best exit (kNoExit if none) and up to
/// `stride` children in the level (with repetition if two moves lead to one node).
struct LevelGraph {
  int stride = 0;
  std::vector<std::int8_t> best_exit;
  std::vector<std::uint8_t> child_count;
  std::vector<std::uint32_t> children;  // node i's children at [i * stride, i * stride + count)

  LevelGraph(std::uint64_t nodes, int stride_)
      : stride(stride_), best_exit(nodes, kNoExit), child_count(nodes, 0),
        children(nodes * static_cast<std::uint64_t>(stride_)) {}
  std::uint64_t size() const { return best_exit.size(); }
};

/// Told as a level is solved, for a progress line: threshold 0 once the graph is ready (its
/// exits found), then each threshold t whose attractors are done, with the number of nodes won
/// or lost by at least t. Thresholds run from 1 up to the largest value in the level.
using LevelProgress = std::function<void(int threshold, std::uint64_t decided)>;

/// Each node's value for its side to move, in [-max_value, max_value] (max_value bounds every
/// exit's absolute value and is at most 127). Deterministic whatever the number of threads.
///
/// With `distances`, also each node's distance to its exit: for a node of value v != 0, the
/// moves within the level before an exit worth v is taken when the side that gets v hurries
/// and the other delays: the round of the attractor of threshold |v| that decided the node
/// (0 at an exit; else 1 + the least round of its children lost at |v| for the winner, 1 + the
/// most round of its children, all won at |v|, for the loser), saturating at 65535; 0 for
/// value 0. A child of the same value's opposite, the only kind a best move leads to, was
/// decided at the same threshold, so the stored distances of a node's best children are its
/// rounds: a winner that always moves to the nearest reaches its exit.
std::vector<std::int8_t> solve_level(const LevelGraph& graph, int max_value,
                                     std::vector<std::uint16_t>* distances = nullptr,
                                     const LevelProgress& progress = {});

}  // namespace rastros::oware
