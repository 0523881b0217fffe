#include "games/oware/oware_level_solver.hpp"

#include <tbb/enumerable_thread_specific.h>

#include <atomic>
#include <memory>

#include "core/parallel_ranges.hpp"

namespace rastros::oware {

namespace {

using Frontier = std::vector<std::uint32_t>;

// Node status in one threshold's attractor.
enum Status : std::uint8_t { kOpen = 0, kWin = 1, kLose = 2 };

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

// One threshold t: marks in `status` the nodes the mover wins (net >= t) or loses (<= -t).
class Attractor {
 public:
  Attractor(const LevelGraph& graph, const Parents& parents)
      : graph_(graph), parents_(parents), status_(new std::atomic<std::uint8_t>[graph.size()]),
        pending_(new std::atomic<std::uint8_t>[graph.size()]) {}

  // Returns whether any node was won or lost. With `rounds`, each decided node's round.
  bool run(int t, std::vector<std::uint16_t>* rounds) {
    Frontier frontier = seed(t);
    const bool any = !frontier.empty();
    for (std::uint16_t round = 0; !frontier.empty(); round += round < UINT16_MAX) {
      if (rounds) {
        for (const std::uint32_t node : frontier) (*rounds)[node] = round;
      }
      frontier = step(frontier);
    }
    return any;
  }
  Status status(std::uint64_t node) const {
    return static_cast<Status>(status_[node].load(std::memory_order_relaxed));
  }

 private:
  // The exits decide some nodes at once; `pending_` counts the children a node can still
  // escape to (a node with a good exit can never lose: it gets no count).
  Frontier seed(int t) {
    tbb::enumerable_thread_specific<Frontier> found;
    parallel_for_ranges(0, graph_.size(), [&](std::uint64_t first, std::uint64_t last) {
      Frontier& local = found.local();
      for (std::uint64_t i = first; i != last; ++i) {
        const int exit = graph_.best_exit[i];
        const bool can_lose = exit == kNoExit || exit <= -t;
        std::uint8_t status = kOpen;
        if (exit != kNoExit && exit >= t) status = kWin;
        if (can_lose && graph_.child_count[i] == 0) status = kLose;
        status_[i].store(status, std::memory_order_relaxed);
        pending_[i].store(can_lose ? graph_.child_count[i] : kCannotLose, std::memory_order_relaxed);
        if (status != kOpen) local.push_back(static_cast<std::uint32_t>(i));
      }
    }, 4096);
    return gather(found);
  }

  // The parents of the newly decided nodes: a parent of a lost node wins by moving there; a
  // parent all of whose moves lead to won nodes (and whose exits are bad) loses.
  Frontier step(const Frontier& frontier) {
    tbb::enumerable_thread_specific<Frontier> found;
    parallel_for_ranges(0, frontier.size(), [&](std::size_t first, std::size_t last) {
      Frontier& local = found.local();
      for (std::size_t k = first; k != last; ++k) {
        const std::uint32_t node = frontier[k];
        const bool lost = status(node) == kLose;
        for (std::uint64_t e = parents_.offsets[node]; e != parents_.offsets[node + 1]; ++e) {
          const std::uint32_t parent = parents_.nodes[e];
          if (lost) {
            if (decide(parent, kWin)) local.push_back(parent);
          } else if (pending_[parent].load(std::memory_order_relaxed) != kCannotLose &&
                     pending_[parent].fetch_sub(1, std::memory_order_relaxed) == 1) {
            if (decide(parent, kLose)) local.push_back(parent);
          }
        }
      }
    }, 256);
    return gather(found);
  }

  bool decide(std::uint32_t node, Status to) {
    std::uint8_t open = kOpen;
    return status_[node].compare_exchange_strong(open, to, std::memory_order_relaxed);
  }

  static Frontier gather(tbb::enumerable_thread_specific<Frontier>& found) {
    Frontier all;
    for (const Frontier& part : found) all.insert(all.end(), part.begin(), part.end());
    return all;
  }

  static constexpr std::uint8_t kCannotLose = 255;
  const LevelGraph& graph_;
  const Parents& parents_;
  std::unique_ptr<std::atomic<std::uint8_t>[]> status_;
  std::unique_ptr<std::atomic<std::uint8_t>[]> pending_;
};

}  // namespace

std::vector<std::int8_t> solve_level(const LevelGraph& graph, int max_value,
                                     std::vector<std::uint16_t>* distances) {
  const std::uint64_t n = graph.size();
  std::vector<std::int8_t> values(n, 0);
  if (distances) distances->assign(n, 0);
  if (n == 0) return values;
  const Parents parents = parents_of(graph);
  Attractor attractor(graph, parents);
  std::vector<std::uint16_t> rounds(distances ? n : 0);
  // The sets shrink as t grows, so each node keeps the largest t it is won or lost at (and
  // that threshold's round).
  for (int t = 1; t <= max_value; ++t) {
    if (!attractor.run(t, distances ? &rounds : nullptr)) break;
    parallel_for_ranges(0, n, [&](std::uint64_t first, std::uint64_t last) {
      for (std::uint64_t i = first; i != last; ++i) {
        const Status status = attractor.status(i);
        if (status == kOpen) continue;
        values[i] = static_cast<std::int8_t>(status == kWin ? t : -t);
        if (distances) (*distances)[i] = rounds[i];
      }
    });
  }
  return values;
}

}  // namespace rastros::oware
