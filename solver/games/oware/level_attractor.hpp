#pragma once
// The attractors that value one level of Oware (oware_level_solver.hpp), written once for any
// way of holding the level's graph: a graph in memory with its reverse edges (LevelGraph), or
// one whose edges are generated when needed (oware_level.hpp: moves forwards, un-moves
// backwards), which takes a few bytes a position instead of about fifty.
//
// A Graph provides:
//   std::uint64_t size() const;                          nodes 0..size()-1 (fewer than 2^32)
//   int best_exit(std::uint64_t node) const;             kNoExit, or the best exit's value
//   int child_count(std::uint64_t node) const;           moves staying in the level (< 255)
//   void for_each_parent(std::uint32_t node, F f) const; f(parent) once a move parent -> node
// for_each_parent is called from several threads at once.
//
// The counters and the frontiers, the bulk of a level's memory, come from scratch_allocate
// (core/scratch_memory.hpp): in files when a build asks for it, so a level larger than memory
// still builds.

#include <oneapi/tbb/enumerable_thread_specific.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "core/parallel_ranges.hpp"
#include "core/scratch_memory.hpp"
#include "games/oware/oware_level_solver.hpp"

namespace rastros::oware::attractor {

using Frontier = std::vector<std::uint32_t, ScratchAllocator<std::uint32_t>>;

// Node status in one threshold's attractor.
enum Status : std::uint8_t { kOpen = 0, kWin = 1, kLose = 2 };

// Each node's status in one threshold's attractor and its count of children it can still
// escape to, shared by the threads (and, on a cluster, one rank's slice of a level's nodes).
class Counters {
 public:
  explicit Counters(std::uint64_t nodes) : status_(checked(nodes)), pending_(checked(nodes)) {}

  // Round 0 of threshold t for a node with this best exit and these children in the level:
  // returns whether its exits decide it. A node with a good exit can never lose: no count.
  bool seed(std::uint64_t node, int exit, int children, int t) {
    const bool can_lose = exit == kNoExit || exit <= -t;
    std::uint8_t status = kOpen;
    if (exit != kNoExit && exit >= t) status = kWin;
    if (can_lose && children == 0) status = kLose;
    status_[node].store(status, std::memory_order_relaxed);
    pending_[node].store(can_lose ? static_cast<std::uint8_t>(children) : kCannotLose,
                         std::memory_order_relaxed);
    return status != kOpen;
  }

  // A child of `node` was decided, lost for its own mover or won: a parent of a lost node wins
  // by moving there; a parent all of whose moves lead to won nodes (and whose exits are bad)
  // loses. Returns whether this decides `node` (once, whichever thread gets there).
  bool child_decided(std::uint64_t node, bool child_lost) {
    if (child_lost) return decide(node, kWin);
    return pending_[node].load(std::memory_order_relaxed) != kCannotLose &&
           pending_[node].fetch_sub(1, std::memory_order_relaxed) == 1 && decide(node, kLose);
  }

  Status status(std::uint64_t node) const {
    return static_cast<Status>(status_[node].load(std::memory_order_relaxed));
  }

 private:
  bool decide(std::uint64_t node, Status to) {
    std::uint8_t open = kOpen;
    return status_[node].compare_exchange_strong(open, to, std::memory_order_relaxed);
  }

  // Levels hold fewer than 2^32 nodes; saying so bounds the allocation for the compiler too.
  static std::size_t checked(std::uint64_t nodes) {
    if (nodes > UINT32_MAX) throw std::length_error("a level of 2^32 nodes or more");
    return static_cast<std::size_t>(nodes);
  }

  using Bytes = std::vector<std::atomic<std::uint8_t>, ScratchAllocator<std::atomic<std::uint8_t>>>;
  static constexpr std::uint8_t kCannotLose = 255;
  Bytes status_;
  Bytes pending_;
};

// The frontiers the threads found, end to end.
inline Frontier gather(oneapi::tbb::enumerable_thread_specific<Frontier>& found) {
  std::size_t total = 0;
  for (const Frontier& part : found) total += part.size();
  Frontier all;
  all.reserve(total);  // one block (in scratch files, one file) instead of a doubling series
  for (const Frontier& part : found) all.insert(all.end(), part.begin(), part.end());
  return all;
}

// Round 0 of threshold t over the nodes [0, n) of `counters`, node i known elsewhere as
// first + i (a rank's share of a level starts at its first board): the nodes their exits
// decide, by their outside numbers. exit(i) and children(i) are node i's.
template <class Exit, class Children>
Frontier seed_all(Counters& counters, std::uint64_t n, std::uint64_t first, const Exit& exit,
                  const Children& children, int t) {
  oneapi::tbb::enumerable_thread_specific<Frontier> found;
  parallel_for_ranges(0, n, [&](std::uint64_t begin, std::uint64_t end) {
    Frontier& local = found.local();
    for (std::uint64_t i = begin; i != end; ++i) {
      if (counters.seed(i, exit(i), children(i), t)) {
        local.push_back(static_cast<std::uint32_t>(first + i));
      }
    }
  }, 4096);
  return gather(found);
}

// After threshold t's rounds: every node of the n in `counters` decided at t takes t (won) or
// -t (lost) as its value, and with `rounds` its round as its distance. The sets shrink as t
// grows, so each node keeps the largest t it is won or lost at.
inline void record(const Counters& counters, std::uint64_t n, int t, std::int8_t* values,
                   const std::uint16_t* rounds = nullptr, std::uint16_t* distances = nullptr) {
  parallel_for_ranges(0, n, [&](std::uint64_t first, std::uint64_t last) {
    for (std::uint64_t i = first; i != last; ++i) {
      const Status status = counters.status(i);
      if (status == kOpen) continue;
      values[i] = static_cast<std::int8_t>(status == kWin ? t : -t);
      if (distances) distances[i] = rounds[i];
    }
  });
}

// One threshold t: marks the nodes the mover wins (net >= t) or loses (<= -t).
template <class Graph>
class Attractor {
 public:
  explicit Attractor(const Graph& graph) : graph_(graph), counters_(graph.size()) {}

  // Returns how many nodes were won or lost. With `rounds`, each decided node's round.
  std::uint64_t run(int t, std::vector<std::uint16_t>* rounds) {
    Frontier frontier = seed(t);
    std::uint64_t decided = 0;
    for (std::uint16_t round = 0; !frontier.empty(); round += round < UINT16_MAX) {
      if (rounds) {
        for (const std::uint32_t node : frontier) (*rounds)[node] = round;
      }
      decided += frontier.size();
      frontier = step(frontier);
    }
    return decided;
  }
  Status status(std::uint64_t node) const { return counters_.status(node); }
  const Counters& counters() const { return counters_; }

 private:
  Frontier seed(int t) {
    return seed_all(
        counters_, graph_.size(), 0, [&](std::uint64_t i) { return graph_.best_exit(i); },
        [&](std::uint64_t i) { return graph_.child_count(i); }, t);
  }

  // The parents of the newly decided nodes.
  Frontier step(const Frontier& frontier) {
    oneapi::tbb::enumerable_thread_specific<Frontier> found;
    parallel_for_ranges(0, frontier.size(), [&](std::size_t first, std::size_t last) {
      Frontier& local = found.local();
      for (std::size_t k = first; k != last; ++k) {
        const std::uint32_t node = frontier[k];
        const bool lost = status(node) == kLose;
        graph_.for_each_parent(node, [&](std::uint32_t parent) {
          if (counters_.child_decided(parent, lost)) local.push_back(parent);
        });
      }
    }, 256);
    return gather(found);
  }

  const Graph& graph_;
  Counters counters_;
};

/// solve_level's values (and distances, and progress) for any Graph, built by the caller: the
/// progress hears threshold 0 first, the graph being ready.
template <class Graph>
std::vector<std::int8_t> solve(const Graph& graph, int max_value,
                               std::vector<std::uint16_t>* distances,
                               const LevelProgress& progress = {}) {
  if (progress) progress(0, 0);
  const std::uint64_t n = graph.size();
  std::vector<std::int8_t> values(n, 0);
  if (distances) distances->assign(n, 0);
  if (n == 0) return values;
  Attractor<Graph> attractor(graph);
  std::vector<std::uint16_t> rounds(distances ? n : 0);
  for (int t = 1; t <= max_value; ++t) {
    const std::uint64_t decided = attractor.run(t, distances ? &rounds : nullptr);
    if (decided == 0) break;
    record(attractor.counters(), n, t, values.data(), rounds.data(),
           distances ? distances->data() : nullptr);
    if (progress) progress(t, decided);
  }
  return values;
}

}  // namespace rastros::oware::attractor
