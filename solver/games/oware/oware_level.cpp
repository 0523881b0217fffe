#include "games/oware/oware_level.hpp"

#include <algorithm>
#include <string>

#include "core/errors.hpp"
#include "core/parallel_ranges.hpp"
#include "core/scratch_memory.hpp"
#include "games/oware/level_attractor.hpp"

namespace rastros::oware {

namespace {

// Ranks are 32-bit node numbers in the level solver.
constexpr std::uint64_t kMaxLevelSize = std::uint64_t{1} << 32;

std::uint64_t checked_level_size(const Oware& game, int seeds) {
  const std::uint64_t size = game.level_size(seeds);
  if (size >= kMaxLevelSize) {
    throw InputError("level " + std::to_string(seeds) + " of oware with " +
                     std::to_string(game.houses()) + " houses has " + std::to_string(size) +
                     " positions, more than a level can hold (2^32)");
  }
  return size;
}

// A board's moves: the best exit (a capture valued from `lower`, or rule 4's end) and, through
// `child`, the rank of each move's target in the level. Returns the best exit.
template <class OnChild>
int visit_moves(const Oware& game, int seeds, const OwareState& state, const LowerLevels& lower,
                OnChild child) {
  const auto moves = game.legal_moves(state);
  if (moves.size() == 0) return game.terminal_score(state);
  int best = kNoExit;
  for (const OwareMove move : moves) {
    const OwarePlayed played = game.play(state, move);
    if (played.gain > 0) {
      const int after = lower[seeds - played.gain][game.level_rank(played.next)];
      best = std::max(best, played.gain - after);
    } else {
      child(static_cast<std::uint32_t>(game.level_rank(played.next)));
    }
  }
  return best;
}

// body(rank, state) for the boards [begin, end) of the level, in parallel ranges.
template <class Body>
void for_each_board(const Oware& game, int seeds, std::uint64_t begin, std::uint64_t end,
                    Body body) {
  parallel_for_ranges(
      begin, end,
      [&](std::uint64_t first, std::uint64_t last) {
        OwareState state = game.level_unrank(seeds, first);
        for (std::uint64_t rank = first; rank != last; ++rank) {
          if (rank != first) game.level_next(state);
          body(rank, state);
        }
      },
      8192);
}

// A level whose edges are generated: forwards once (best exit, children counted), backwards
// by un-sowing whenever the attractors ask.
class GeneratedLevel {
 public:
  GeneratedLevel(const Oware& game, int seeds, const LowerLevels& lower)
      : game_(game), seeds_(seeds), best_exit_(checked_level_size(game, seeds)),
        child_count_(best_exit_.size()) {
    level_exits(game, seeds, lower, 0, best_exit_.size(), best_exit_.data(), child_count_.data());
  }

  std::uint64_t size() const { return best_exit_.size(); }
  int best_exit(std::uint64_t node) const { return best_exit_[node]; }
  int child_count(std::uint64_t node) const { return child_count_[node]; }
  template <class F>
  void for_each_parent(std::uint32_t node, F f) const {
    for_each_unmove(game_, game_.level_unrank(seeds_, node), [&](const OwareState& parent) {
      f(static_cast<std::uint32_t>(game_.level_rank(parent)));
    });
  }

 private:
  const Oware& game_;
  int seeds_;
  // In files when the build has a scratch directory (core/scratch_memory.hpp).
  std::vector<std::int8_t, ScratchAllocator<std::int8_t>> best_exit_;
  std::vector<std::uint8_t, ScratchAllocator<std::uint8_t>> child_count_;
};

}  // namespace

LevelGraph level_graph(const Oware& game, int seeds, const LowerLevels& lower) {
  LevelGraph graph(checked_level_size(game, seeds), game.houses());
  for_each_board(game, seeds, 0, graph.size(), [&](std::uint64_t rank, const OwareState& state) {
    int count = 0;
    graph.best_exit[rank] = static_cast<std::int8_t>(
        visit_moves(game, seeds, state, lower, [&](std::uint32_t child) {
          graph.children[rank * graph.stride + count++] = child;
        }));
    graph.child_count[rank] = static_cast<std::uint8_t>(count);
  });
  return graph;
}

void level_exits(const Oware& game, int seeds, const LowerLevels& lower, std::uint64_t first,
                 std::uint64_t last, std::int8_t* best_exit, std::uint8_t* child_count) {
  checked_level_size(game, seeds);
  for_each_board(game, seeds, first, last, [&](std::uint64_t rank, const OwareState& state) {
    int count = 0;
    best_exit[rank - first] = static_cast<std::int8_t>(
        visit_moves(game, seeds, state, lower, [&](std::uint32_t) { ++count; }));
    child_count[rank - first] = static_cast<std::uint8_t>(count);
  });
}

bool level_graph_fits(const Oware& game, int seeds, std::uint64_t memory) {
  return game.level_size(seeds) <= memory / stored_bytes_per_board(game.houses());
}

std::vector<std::int8_t> solve_level_within(const Oware& game, int seeds, const LowerLevels& lower,
                                            std::uint64_t memory,
                                            std::vector<std::uint16_t>* distances,
                                            const LevelProgress& progress) {
  if (level_graph_fits(game, seeds, memory)) {
    return solve_level(level_graph(game, seeds, lower), seeds, distances, progress);
  }
  return solve_generated_level(game, seeds, lower, distances, progress);
}

std::vector<std::int8_t> solve_generated_level(const Oware& game, int seeds,
                                               const LowerLevels& lower,
                                               std::vector<std::uint16_t>* distances,
                                               const LevelProgress& progress) {
  return attractor::solve(GeneratedLevel(game, seeds, lower), seeds, distances, progress);
}

}  // namespace rastros::oware
