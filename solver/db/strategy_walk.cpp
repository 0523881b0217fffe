#include "db/strategy_walk.hpp"

#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_sort.h>

#include <algorithm>
#include <utility>

#include "core/thread_sanitizer.hpp"

namespace rastros {
namespace {

// Every expanded position (a StoredPosition) is kept in one vector sorted by key, which is
// both the set of positions already met and the result: 24 bytes a position, where a hash set
// beside the result took about 120 (the 8x8 proof walk meets over 100 million positions).

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

WalkedPositions walk_breadth_first(const std::function<std::vector<WalkNode>()>& roots,
                                   const ExpandPosition& expand, const WalkProgress& progress,
                                   const WalkCheckpoint& checkpoint) {
  std::vector<StoredPosition> stored;
  std::vector<WalkNode> level;
  int first_depth = 0;
  std::optional<SavedWalk> saved;
  if (checkpoint.enabled()) saved = read_walk_checkpoint(checkpoint);
  if (saved) {
    stored = std::move(saved->stored);
    level = std::move(saved->next);
    first_depth = saved->plies;
  } else {
    level = roots();
    keep_new(level, stored);
    if (checkpoint.enabled()) save_walk_ply(checkpoint, 0, {}, level);
  }
  for (int depth = first_depth; !level.empty(); ++depth) {
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
    std::vector<StoredPosition> expanded;  // this ply's, for the checkpoint
    if (checkpoint.enabled())
      expanded.assign(stored.begin() + static_cast<std::ptrdiff_t>(before), stored.end());
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
    if (checkpoint.enabled()) save_walk_ply(checkpoint, depth + 1, expanded, next);
    if (progress) progress(depth, level.size(), stored.size());
    if (!next.empty() && checkpoint.stop && checkpoint.stop->load(std::memory_order_relaxed)) {
      throw SearchCancelled();  // after the save: a resume starts at the next ply
    }
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
