#include "db/strategy_walk.hpp"

#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <numeric>
#include <unordered_set>
#include <utility>

namespace rastros {
namespace {

struct KeyHash {
  std::size_t operator()(const PackedPosition& key) const {
    // Mix the mask so that keys differing in a few high squares do not collide in low bits.
    std::uint64_t h = static_cast<std::uint64_t>(key.free) * 0x9e3779b97f4a7c15ULL;
    h ^= (h >> 29) ^ key.snail;
    return static_cast<std::size_t>(h * 0xbf58476d1ce4e5b9ULL);
  }
};

}  // namespace

WalkedPositions walk_breadth_first(std::vector<WalkNode> roots, const ExpandPosition& expand,
                                   const WalkProgress& progress) {
  WalkedPositions walked;
  std::unordered_set<PackedPosition, KeyHash> seen;
  for (const WalkNode& root : roots) seen.insert(root.key);
  std::vector<WalkNode> level = std::move(roots);
  for (int depth = 0; !level.empty(); ++depth) {
    std::vector<WalkStep> steps(level.size());
    // Positions of one ply in parallel; each expansion may itself run a parallel search.
    oneapi::tbb::parallel_for(std::size_t{0}, level.size(),
                              [&](std::size_t i) { steps[i] = expand(level[i], depth); });
    std::vector<WalkNode> next;
    for (std::size_t i = 0; i < level.size(); ++i) {
      walked.keys.push_back(level[i].key);
      walked.records.push_back(steps[i].record);
      for (const WalkNode& child : steps[i].next) {
        if (seen.insert(child.key).second) next.push_back(child);
      }
    }
    if (progress) progress(depth, level.size(), walked.keys.size());
    level = std::move(next);
  }

  seen = {};  // its memory back before the sort needs more

  // The file format wants keys strictly increasing.
  std::vector<std::size_t> order(walked.keys.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return walked.keys[a] < walked.keys[b]; });
  WalkedPositions sorted;
  sorted.keys.reserve(order.size());
  sorted.records.reserve(order.size());
  for (std::size_t i : order) {
    sorted.keys.push_back(walked.keys[i]);
    sorted.records.push_back(walked.records[i]);
  }
  return sorted;
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
