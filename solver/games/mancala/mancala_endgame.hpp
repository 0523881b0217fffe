#pragma once
// Endgame levels by seeds in play, for the mancala games whose seeds never leave a store and
// whose moves that bank nothing never cycle (Kalah; Congkak, whose relay sowing that never
// reaches the store stays in the mover's row): the exact score of every state with a given
// number of seeds in the houses, one byte a state indexed by the game's level_rank, built from
// the levels below. A move leads to a state with as many seeds in play or fewer; within a level
// a move that banks nothing only carries the mover's seeds toward its store, so every seed's
// distance to its row's store only falls and the level's moves never cycle: each state's value
// is found by recursion on its same-level children (memoised in the level). In parallel (TBB).
//
// Game needs, beyond the ScoreGame calls: level_size(seeds), level_rank(state),
// level_unrank(seeds, rank), level_next(state), and Played with next, gain and again.

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/thread_sanitizer.hpp"

namespace rastros::mancala {

namespace endgame_detail {

inline constexpr std::int8_t kUnknown = -128;

// Values one level while it is built: the finished levels below, this one filling in.
template <class Game>
class LevelBuilder {
 public:
  LevelBuilder(const Game& game, const std::vector<std::vector<std::int8_t>>& below, int seeds)
      : game_(game),
        below_(below),
        seeds_(seeds),
        level_(new std::atomic<std::int8_t>[game.level_size(seeds)]) {
    const std::uint64_t size = game.level_size(seeds);
    // Each task publishes what it wrote, and this thread acquires it after the wait
    // (core/thread_sanitizer.hpp: Debian's TBB is not instrumented).
    oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<std::uint64_t>(0, size, 1 << 16),
                              thread_sanitizer::handed_off([&](const auto& range) {
                                for (auto r = range.begin(); r != range.end(); ++r) {
                                  level_[r].store(kUnknown, std::memory_order_relaxed);
                                }
                                thread_sanitizer::publish(this);
                              }));
    thread_sanitizer::acquire(this);
  }

  std::vector<std::int8_t> build() {
    const std::uint64_t size = game_.level_size(seeds_);
    oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<std::uint64_t>(0, size, 1 << 12),
                              thread_sanitizer::handed_off([&](const auto& range) {
                                // Unranked once a range, then stepped through in rank order.
                                typename Game::State state =
                                    game_.level_unrank(seeds_, range.begin());
                                for (auto r = range.begin(); r != range.end(); ++r) {
                                  if (r != range.begin()) game_.level_next(state);
                                  if (level_[r].load(std::memory_order_relaxed) == kUnknown) {
                                    value_of(state, r);
                                  }
                                }
                                thread_sanitizer::publish(this);
                              }));
    thread_sanitizer::acquire(this);
    std::vector<std::int8_t> values(size);
    for (std::uint64_t r = 0; r < size; ++r) values[r] = level_[r].load(std::memory_order_relaxed);
    return values;
  }

 private:
  // The score of a state of this level, recursing into same-level children not yet known.
  // Two threads may value one state at once: both find the same value.
  int value_of(const typename Game::State& state, std::uint64_t rank) {
    int best;
    if (game_.is_terminal(state)) {
      best = game_.terminal_score(state);
    } else {
      best = -1000;
      for (const typename Game::Move move : game_.legal_moves(state)) {
        const typename Game::Played played = game_.play(state, move);
        const int child = child_value(played);
        best = std::max(best, played.gain + (played.again ? child : -child));
      }
    }
    level_[rank].store(static_cast<std::int8_t>(best), std::memory_order_relaxed);
    return best;
  }

  int child_value(const typename Game::Played& played) {
    if (game_.is_terminal(played.next)) return game_.terminal_score(played.next);
    const int seeds = seeds_ - played.gain;
    const std::uint64_t rank = game_.level_rank(played.next);
    if (seeds < seeds_) return below_[seeds][rank];
    const std::int8_t known = level_[rank].load(std::memory_order_relaxed);
    return known != kUnknown ? known : value_of(played.next, rank);
  }

  const Game& game_;
  const std::vector<std::vector<std::int8_t>>& below_;
  int seeds_;
  std::unique_ptr<std::atomic<std::int8_t>[]> level_;
};

}  // namespace endgame_detail

/// The scores of every state of level `seeds`, the levels below it given (below[s] for every
/// s < seeds).
template <class Game>
std::vector<std::int8_t> build_endgame_level(const Game& game,
                                             const std::vector<std::vector<std::int8_t>>& below,
                                             int seeds) {
  endgame_detail::LevelBuilder<Game> builder(game, below, seeds);
  return builder.build();
}

/// States of every level from 0 to `max_seeds` seeds.
template <class Game>
std::uint64_t endgame_states_up_to(const Game& game, int max_seeds) {
  std::uint64_t total = 0;
  for (int seeds = 0; seeds <= max_seeds; ++seeds) total += game.level_size(seeds);
  return total;
}

/// The most seeds (at most `most`) whose levels hold at most `max_states` states together.
template <class Game>
int endgame_seeds_within(const Game& game, std::uint64_t max_states, int most) {
  int seeds = 0;
  while (seeds < most && endgame_states_up_to(game, seeds + 1) <= max_states) ++seeds;
  return seeds;
}

}  // namespace rastros::mancala
