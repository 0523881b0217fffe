#include "db/strategy_walk.hpp"

#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_sort.h>

#include <algorithm>
#include <utility>

#include "core/thread_sanitizer.hpp"

namespace rastros {
namespace {

// One expanded position. Every expanded position is kept in one vector sorted by key, which is
// both the set of positions already met and the result: 24 bytes a position, where a hash set
// beside the result took about 120 (the 8x8 proof walk meets over 100 million positions).
struct StoredPosition {
  PackedPosition key;
  DatabaseRecord record;
};

bool key_less(const StoredPosition& a, const StoredPosition& b) {
  return a.key < b.key;
}

bool node_less(const WalkNode& a, const WalkNode& b) {
  return a.key < b.key;
}

bool is_stored(const std::vector<StoredPosition>& stored, const PackedPosition& key) {
  const auto at =
      std::lower_bound(stored.begin(), stored.end(), key,
                       [](const StoredPosition& position, const PackedPosition& wanted) {
                         return position.key < wanted;
                       });
  return at != stored.end() && at->key == key;
}

// Sorted by key, each key once (the first kept), none already stored.
void keep_new(std::vector<WalkNode>& nodes, const std::vector<StoredPosition>& stored) {
  oneapi::tbb::parallel_sort(nodes.begin(), nodes.end(), node_less);
  nodes.erase(std::unique(nodes.begin(), nodes.end(),
                          [](const WalkNode& a, const WalkNode& b) { return a.key == b.key; }),
              nodes.end());
  nodes.erase(std::remove_if(nodes.begin(), nodes.end(),
                             [&](const WalkNode& node) { return is_stored(stored, node.key); }),
              nodes.end());
}

}  // namespace

WalkedPositions walk_breadth_first(std::vector<WalkNode> roots, const ExpandPosition& expand,
                                   const WalkProgress& progress) {
  std::vector<StoredPosition> stored;
  std::vector<WalkNode> level = std::move(roots);
  keep_new(level, stored);
  for (int depth = 0; !level.empty(); ++depth) {
    std::vector<WalkStep> steps(level.size());
    // Positions of one ply in parallel; each expansion may itself run a parallel search.
    oneapi::tbb::parallel_for(std::size_t{0}, level.size(),
                              thread_sanitizer::handed_off([&](std::size_t i) {
                                steps[i] = expand(level[i], depth);
                                thread_sanitizer::publish(&steps);
                              }));
    thread_sanitizer::acquire(&steps);
    // The level is sorted, so it merges into the stored positions in one pass.
    const std::size_t before = stored.size();
    std::size_t children = 0;
    for (std::size_t i = 0; i < level.size(); ++i) {
      stored.push_back({level[i].key, steps[i].record});
      children += steps[i].next.size();
    }
    std::inplace_merge(stored.begin(), stored.begin() + static_cast<std::ptrdiff_t>(before),
                       stored.end(), key_less);
    std::vector<WalkNode> next;
    next.reserve(children);
    for (WalkStep& step : steps) {
      next.insert(next.end(), step.next.begin(), step.next.end());
      std::vector<WalkNode>().swap(step.next);  // its memory back as we go
    }
    steps = {};
    keep_new(next, stored);
    if (progress) progress(depth, level.size(), stored.size());
    level = std::move(next);
  }

  WalkedPositions walked;
  walked.keys.reserve(stored.size());
  walked.records.reserve(stored.size());
  for (const StoredPosition& position : stored) {
    walked.keys.push_back(position.key);
    walked.records.push_back(position.record);
  }
  return walked;
}

WalkProgress ply_progress_lines(const std::function<void(const std::string&)>& progress,
                                const Solver& solver) {
  return [&progress, &solver](int depth, std::size_t expanded, std::size_t stored) {
    if (!progress) return;
    progress("ply " + std::to_string(depth) + ": " + std::to_string(expanded) + " positions, " +
             std::to_string(stored) + " stored, " + std::to_string(solver.nodes()) +
             " nodes searched");
  };
}

}  // namespace rastros
