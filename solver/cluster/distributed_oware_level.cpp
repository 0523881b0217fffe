#include "cluster/distributed_oware_level.hpp"

#include <mpi.h>
#include <oneapi/tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <cstdlib>
#include <boost/mpi/collectives/all_reduce.hpp>
#include <boost/mpi/operations.hpp>
#include <functional>
#include <span>
#include <stdexcept>

#include "cluster/word_exchange.hpp"
#include "core/errors.hpp"
#include "core/parallel_ranges.hpp"
#include "core/scratch_memory.hpp"
#include "games/oware/level_attractor.hpp"

namespace rastros::cluster {

namespace {

using oware::attractor::Counters;
using oware::attractor::Frontier;

// Frontier boards un-sown per exchange, so that one exchange stays well within 2^31 bytes.
constexpr std::size_t kFrontierChunk = std::size_t{1} << 20;

// kFrontierChunk, or RASTROS_TEST_FRONTIER_CHUNK when set: tests/mpi_test.sh makes it small so
// that the small levels a test can afford take several exchanges a round, as large ones do.
std::size_t frontier_chunk() {
  static const std::size_t chunk = [] {
    const char* text = std::getenv("RASTROS_TEST_FRONTIER_CHUNK");
    const long long value = text ? std::atoll(text) : 0;
    return value > 0 ? static_cast<std::size_t>(value) : kFrontierChunk;
  }();
  return chunk;
}

// A message: the parent's rank in the level, and whether the child it moves to was lost.
std::uint64_t parent_message(std::uint32_t parent, bool child_lost) {
  return std::uint64_t{parent} << 1 | (child_lost ? 1 : 0);
}

// This rank's share of the level and the attractors over it.
class LevelShare {
 public:
  LevelShare(const boost::mpi::communicator& world, const oware::Oware& game, int seeds,
             const oware::LowerLevels& lower)
      : world_(world), game_(game), seeds_(seeds),
        ranks_(static_cast<std::uint64_t>(world.size())),
        per_rank_((game.level_size(seeds) + ranks_ - 1) / ranks_),
        first_(std::min(per_rank_ * static_cast<std::uint64_t>(world.rank()), game.level_size(seeds))),
        last_(std::min(first_ + per_rank_, game.level_size(seeds))),
        best_exit_(last_ - first_), child_count_(last_ - first_), counters_(last_ - first_),
        values_(last_ - first_, 0) {
    // The same on every rank: all refuse together.
    if (game.level_size(seeds) > INT32_MAX) {
      throw InputError("level " + std::to_string(seeds) + " has " +
                       std::to_string(game.level_size(seeds)) +
                       " boards; under mpirun a level is gathered whole through MPI's int "
                       "counts, so at most 2^31 - 1: lower --endgame-seeds");
    }
    oware::level_exits(game, seeds, lower, first_, last_, best_exit_.data(), child_count_.data());
  }

  // Every threshold's attractors, until one decides nothing on any rank; then the whole level.
  std::vector<std::int8_t> solve() {
    for (int t = 1; t <= seeds_; ++t) {
      Frontier frontier = seed(t);
      if (!any_rank(!frontier.empty())) break;
      while (any_rank(!frontier.empty())) frontier = round(frontier);
      oware::attractor::record(counters_, values_.size(), t, values_.data());
    }
    return gather();
  }

 private:
  bool any_rank(bool mine) const {
    return boost::mpi::all_reduce(world_, mine, std::logical_or<bool>());
  }
  int owner(std::uint32_t board) const { return static_cast<int>(board / per_rank_); }

  Frontier seed(int t) {
    return oware::attractor::seed_all(
        counters_, values_.size(), first_, [&](std::uint64_t i) { return best_exit_[i]; },
        [&](std::uint64_t i) { return child_count_[i]; }, t);
  }

  // One round: the parents of the boards decided in the last one, told to their owners, a
  // chunk of the frontier an exchange; every rank takes part in as many exchanges as the rank
  // with the largest frontier needs.
  Frontier round(const Frontier& frontier) {
    const std::size_t chunk = frontier_chunk();
    const std::uint64_t chunks = (frontier.size() + chunk - 1) / chunk;
    const std::uint64_t exchanges =
        boost::mpi::all_reduce(world_, chunks, boost::mpi::maximum<std::uint64_t>());
    Frontier next;
    for (std::uint64_t c = 0; c < exchanges; ++c) {
      const std::size_t begin = std::min<std::size_t>(c * chunk, frontier.size());
      const std::size_t end = std::min<std::size_t>(begin + chunk, frontier.size());
      apply(exchange(messages(std::span(frontier).subspan(begin, end - begin))), next);
    }
    return next;
  }

  // Each rank's messages, rank after rank, and their counts.
  std::pair<Words, std::vector<std::size_t>> messages(std::span<const std::uint32_t> boards) {
    oneapi::tbb::enumerable_thread_specific<std::vector<Words>> found(
        [&] { return std::vector<Words>(ranks_); });
    parallel_for_ranges(0, boards.size(), [&](std::size_t first, std::size_t last) {
      std::vector<Words>& local = found.local();
      for (std::size_t k = first; k != last; ++k) {
        const std::uint32_t board = boards[k];
        const bool lost = counters_.status(board - first_) == oware::attractor::kLose;
        oware::for_each_unmove(game_, game_.level_unrank(seeds_, board),
                               [&](const oware::OwareState& parent) {
          const auto rank = static_cast<std::uint32_t>(game_.level_rank(parent));
          local[static_cast<std::size_t>(owner(rank))].push_back(parent_message(rank, lost));
        });
      }
    }, 256);
    std::pair<Words, std::vector<std::size_t>> out{Words(), std::vector<std::size_t>(ranks_, 0)};
    for (std::size_t r = 0; r < ranks_; ++r) {
      for (const std::vector<Words>& local : found) {
        out.first.insert(out.first.end(), local[r].begin(), local[r].end());
        out.second[r] += local[r].size();
      }
    }
    return out;
  }

  Words exchange(const std::pair<Words, std::vector<std::size_t>>& outgoing) {
    Words incoming;
    exchange_items(world_, std::span<const std::uint64_t>(outgoing.first), outgoing.second,
                   incoming, "distributed oware level");
    return incoming;
  }

  // The messages received: the boards they decide join the next round.
  void apply(const Words& received, Frontier& next) {
    oneapi::tbb::enumerable_thread_specific<Frontier> found;
    parallel_for_ranges(0, received.size(), [&](std::size_t first, std::size_t last) {
      Frontier& local = found.local();
      for (std::size_t k = first; k != last; ++k) {
        const auto board = static_cast<std::uint32_t>(received[k] >> 1);
        if (counters_.child_decided(board - first_, (received[k] & 1) != 0)) local.push_back(board);
      }
    }, 4096);
    const Frontier decided = oware::attractor::gather(found);
    next.insert(next.end(), decided.begin(), decided.end());
  }

  std::vector<std::int8_t> gather() const {
    std::vector<int> counts(ranks_), offsets(ranks_);
    const std::uint64_t size = game_.level_size(seeds_);
    for (std::uint64_t r = 0; r < ranks_; ++r) {
      const std::uint64_t first = std::min(per_rank_ * r, size);
      counts[r] = static_cast<int>(std::min(first + per_rank_, size) - first);
      offsets[r] = static_cast<int>(first);  // the level is below 2^31 (constructor)
    }
    std::vector<std::int8_t> level(size);
    MPI_Allgatherv(values_.data(), static_cast<int>(values_.size()), MPI_INT8_T, level.data(),
                   counts.data(), offsets.data(), MPI_INT8_T, static_cast<MPI_Comm>(world_));
    return level;
  }

  const boost::mpi::communicator& world_;
  const oware::Oware& game_;
  int seeds_;
  std::uint64_t ranks_;
  std::uint64_t per_rank_;
  std::uint64_t first_, last_;  // this rank's boards
  std::vector<std::int8_t, ScratchAllocator<std::int8_t>> best_exit_;  // in files with --scratch
  std::vector<std::uint8_t, ScratchAllocator<std::uint8_t>> child_count_;
  Counters counters_;
  std::vector<std::int8_t> values_;
};

}  // namespace

void agree_on_checkpoint_level(const boost::mpi::communicator& world, int seeds, bool found,
                               const std::string& directory) {
  const bool all = boost::mpi::all_reduce(world, found, std::logical_and<bool>());
  const bool any = boost::mpi::all_reduce(world, found, std::logical_or<bool>());
  if (all != any) {
    throw InputError("the ranks do not all find level " + std::to_string(seeds) +
                     " in the checkpoint " + directory +
                     ": it must be one directory that every rank sees");
  }
}

std::vector<std::int8_t> solve_level_distributed(const boost::mpi::communicator& world,
                                                 const oware::Oware& game, int seeds,
                                                 const oware::LowerLevels& lower) {
  return LevelShare(world, game, seeds, lower).solve();
}

}  // namespace rastros::cluster
