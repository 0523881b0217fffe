#include "games/oware/oware_level_solver.hpp"

#include <atomic>
#include <memory>

#include "core/parallel_ranges.hpp"
#include "games/oware/level_attractor.hpp"

namespace rastros::oware {

namespace {

// The reverse of the level's edges, as offsets into one array of parents.
struct Parents {
  std::vector<std::uint64_t> offsets;  // size() + 1
  std::vector<std::uint32_t> nodes;
};

Parents parents_of(const LevelGraph& graph) {
  const std::uint64_t n = graph.size();
  std::unique_ptr<std::atomic<std::uint32_t>[]> degree(new std::atomic<std::uint32_t>[n + 1]);
  parallel_for_ranges(0, n + 1, [&](std::uint64_t first, std::uint64_t last) {
    for (std::uint64_t i = first; i != last; ++i) degree[i] = 0;
  });
  parallel_for_ranges(0, n, [&](std::uint64_t first, std::uint64_t last) {
    for (std::uint64_t i = first; i != last; ++i) {
      for (int j = 0; j < graph.child_count[i]; ++j) {
        degree[graph.children[i * graph.stride + j]].fetch_add(1, std::memory_order_relaxed);
      }
    }
  });
  Parents parents;
  parents.offsets.resize(n + 1);
  std::uint64_t sum = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    parents.offsets[i] = sum;
    sum += degree[i].load(std::memory_order_relaxed);
    degree[i] = static_cast<std::uint32_t>(0);  // reused below as each node's fill cursor
  }
  parents.offsets[n] = sum;
  parents.nodes.resize(sum);
  // Parents land in any order: the attractors do not depend on it.
  parallel_for_ranges(0, n, [&](std::uint64_t first, std::uint64_t last) {
    for (std::uint64_t i = first; i != last; ++i) {
      for (int j = 0; j < graph.child_count[i]; ++j) {
        const std::uint32_t child = graph.children[i * graph.stride + j];
        const std::uint32_t slot = degree[child].fetch_add(1, std::memory_order_relaxed);
        parents.nodes[parents.offsets[child] + slot] = static_cast<std::uint32_t>(i);
      }
    }
  });
  return parents;
}

// LevelGraph and its reverse edges, as level_attractor.hpp takes a graph.
class InMemory {
 public:
  explicit InMemory(const LevelGraph& graph) : graph_(graph), parents_(parents_of(graph)) {}
  std::uint64_t size() const { return graph_.size(); }
  int best_exit(std::uint64_t node) const { return graph_.best_exit[node]; }
  int child_count(std::uint64_t node) const { return graph_.child_count[node]; }
  template <class F>
  void for_each_parent(std::uint32_t node, F f) const {
    for (std::uint64_t e = parents_.offsets[node]; e != parents_.offsets[node + 1]; ++e) {
      f(parents_.nodes[e]);
    }
  }

 private:
  const LevelGraph& graph_;
  Parents parents_;
};

}  // namespace

std::vector<std::int8_t> solve_level(const LevelGraph& graph, int max_value,
                                     std::vector<std::uint16_t>* distances,
                                     const LevelProgress& progress) {
  return attractor::solve(InMemory(graph), max_value, distances, progress);
}

}  // namespace rastros::oware
