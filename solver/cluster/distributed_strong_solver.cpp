#include "cluster/distributed_strong_solver.hpp"

#include <mpi.h>
#include <oneapi/tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <array>
#include <boost/mpi/collectives/all_gather.hpp>
#include <boost/mpi/collectives/all_reduce.hpp>
#include <boost/mpi/collectives/all_to_all.hpp>
#include <boost/mpi/operations.hpp>
#include <boost/serialization/vector.hpp>
#include <chrono>
#include <exception>
#include <functional>
#include <numeric>
#include <span>
#include <stdexcept>
#include <type_traits>

#include "cluster/word_exchange.hpp"
#include "core/checkpoint_file.hpp"
#include "core/errors.hpp"
#include "retro/distinct_keys.hpp"
#include "retro/layer_checkpoint.hpp"
#include "retro/retrograde_step.hpp"
#include "retro/sorted_layer.hpp"

namespace rastros::cluster {
namespace {

// Keys travel as two 64-bit words (free mask, snail) and records as one word, so that every
// message is a plain array of integers (Boost.MPI sends those without serialising element by
// element).

std::uint64_t record_word(const StrongRecord& record) {
  return std::uint64_t{static_cast<std::uint8_t>(record.value)} |
         std::uint64_t{record.remoteness} << 8 | std::uint64_t{record.best_move} << 16;
}
StrongRecord record_of_word(std::uint64_t word) {
  return {static_cast<Value>(word & 0xff), static_cast<std::uint8_t>(word >> 8),
          static_cast<std::uint8_t>(word >> 16)};
}

/// What an all-to-all exchange delivered: every rank's words, one after another.
struct Received {
  Words words;
  std::vector<std::size_t> offsets;  // rank r's words are [offsets[r], offsets[r + 1])
};

using ChildRecord = RetrogradeStep::ChildRecord;

/// A child whose record another rank holds: where its record goes once the owner answers.
struct RemoteChild {
  std::size_t child;  // index in its block's list of children
  int owner;
  std::size_t request;  // which of the block's requests to `owner` asks for it
};

/// The stored children of a block of keys, listed by one task of the backward pass.
struct ChildList {
  std::vector<ChildRecord> children;       // key after key
  std::vector<std::size_t> first_child;    // the block's i-th key's children start here
  std::vector<RemoteChild> remotes;        // the children other ranks own
  std::vector<DistinctKeys> requests;      // per rank: the keys asked of it, each once
  std::vector<std::size_t> first_request;  // per rank: where the block's requests start
};

/// Keys a task of the backward pass lists at a time.
constexpr std::size_t kListBlock = 1 << 14;

class DistributedSolver {
 public:
  DistributedSolver(const boost::mpi::communicator& world, const Rastros& rastros,
                    const std::function<void(const std::string&)>& progress,
                    const StrongSolveControl& control)
      : world_(world),
        ranks_(static_cast<std::size_t>(world.size())),
        rastros_(rastros),
        step_(rastros),
        progress_(progress),
        control_(control) {}

  StrongTableRun solve() {
    using Clock = std::chrono::steady_clock;
    const auto seconds_since = [](Clock::time_point then) {
      return std::chrono::duration<double>(Clock::now() - then).count();
    };
    const auto started = Clock::now();
    const PackedPosition start = step_.canonicalizer().pack(rastros_.start_position());
    const int top = count(start.free);
    if (owner(start) == world_.rank()) layers_[top].entries().push_back(LayerEntry::of(start));
    const int valued_before = open_checkpoint();
    for (int size = top; size >= 0; --size) {
      check_stop();
      enumerate_layer(size);
    }
    const double forward_seconds = seconds_since(started);
    const auto backward_started = Clock::now();
    for (int size = 0; size <= top; ++size) {
      check_stop();
      if (size < valued_before) {
        read_layer(size);
      } else {
        value_layer(size);
        save_layer(size);
      }
    }
    const double backward_seconds = seconds_since(backward_started);
    const auto table_started = Clock::now();
    StrongTableRun table = partition_by_key_range();
    // This rank's times (the ranks wait for each other at every exchange, so they differ little).
    StrongSolveStats& stats = table.stats();
    stats.forward_seconds = forward_seconds;
    stats.backward_seconds = backward_seconds;
    stats.table_seconds = seconds_since(table_started);
    stats.total_seconds = seconds_since(started);
    report("table: " + std::to_string(stats.position_count()) + " positions on " +
           std::to_string(world_.size()) + " ranks in " + std::to_string(stats.total_seconds) +
           " s (" + stats.phase_times() + ": the exchange by key range)");
    return table;
  }

 private:
  // -- Checkpoints and stopping (see the header) --

  std::filesystem::path rank_directory() const {
    return control_.checkpoint_directory / ("rank-" + std::to_string(world_.rank()));
  }

  /// Every rank runs `action`; if it throws on any rank, every rank throws: the same exception
  /// where it happened, a FileError naming that rank elsewhere. Keeps the ranks in step (a
  /// rank that failed alone would leave the others waiting in the next exchange).
  template <class Action>
  void on_every_rank(const std::string& what, Action action) {
    std::exception_ptr error;
    try {
      action();
    } catch (...) {
      error = std::current_exception();
    }
    const int failed_rank =
        boost::mpi::all_reduce(world_, error ? world_.rank() : -1, boost::mpi::maximum<int>());
    if (error) std::rethrow_exception(error);
    if (failed_rank >= 0) {
      throw FileError(what + " failed on rank " + std::to_string(failed_rank) +
                      " (its message says why)");
    }
  }

  /// Checks the checkpoint (every rank reads the same state file); returns how many layers
  /// are valued in it (0 for none).
  int open_checkpoint() {
    if (control_.checkpoint_directory.empty()) return 0;
    int valued = 0;
    on_every_rank("opening the checkpoint", [&] {
      if (world_.rank() == 0) prepare_checkpoint_directory(control_.checkpoint_directory);
    });
    on_every_rank("opening the checkpoint", [&] {
      prepare_checkpoint_directory(rank_directory());
      valued = valued_layers_to_resume(control_.checkpoint_directory, rastros_, control_.resume,
                                       world_.size());
    });
    if (valued > 0) report("resume: " + std::to_string(valued) + " layers valued before");
    return valued;
  }

  /// Every rank saves its share of layer `size`; then the root records the layer as valued.
  void save_layer(int size) {
    if (control_.checkpoint_directory.empty()) return;
    on_every_rank("saving the checkpoint", [&] {
      write_layer_records(rank_directory(), size, layers_[size].keys_checksum(),
                          layers_[size].records());
    });
    on_every_rank("saving the checkpoint", [&] {
      if (world_.rank() != 0) return;
      write_strong_state(control_.checkpoint_directory, rastros_, size + 1, world_.size());
    });
  }

  void read_layer(int size) {
    on_every_rank("reading the checkpoint", [&] {
      SortedLayer& layer = layers_[size];
      layer.set_records(read_layer_records(rank_directory(), size, layer.entries().size(),
                                           layer.keys_checksum()));
    });
    report("backward: region " + std::to_string(size) + ": " +
           std::to_string(layers_[size].entries().size()) +
           " positions on rank 0 read from the checkpoint");
  }

  /// Between layers: when any rank was asked to stop, every rank stops.
  void check_stop() const {
    const bool mine = control_.stop && control_.stop->load(std::memory_order_relaxed);
    if (boost::mpi::all_reduce(world_, mine, std::logical_or<bool>())) throw SolveStopped();
  }

  int owner(const PackedPosition& key) const {
    // A multiplicative hash of the whole key: neighbouring keys land on different ranks.
    std::uint64_t hash = (key.free ^ (std::uint64_t{key.snail} << 57)) * 0x9E3779B97F4A7C15ull;
    hash ^= hash >> 29;
    return static_cast<int>(hash % ranks_);
  }

  /// Sends outgoing[r] to rank r; `incoming` receives what each rank sent here. The words go
  /// straight through MPI_Alltoallv (Boost.MPI's all_to_all would serialise every vector).
  /// `incoming` and the send buffer keep their memory from one exchange to the next: a layer's
  /// exchanges move hundreds of megabytes, and every fresh page costs a fault.
  void exchange(const std::vector<Words>& outgoing, Received& incoming) {
    Words& send_buffer = buffers_.send;
    send_buffer.clear();
    std::vector<std::size_t> counts;
    for (const Words& words : outgoing) {
      send_buffer.insert(send_buffer.end(), words.begin(), words.end());
      counts.push_back(words.size());
    }
    exchange(send_buffer, counts, incoming);
  }

  /// The same with the words to send end to end in `send`, counts[r] of them for rank r.
  void exchange(const Words& send, const std::vector<std::size_t>& counts, Received& incoming) {
    incoming.words.clear();  // (keeping its memory)
    incoming.offsets = exchange_items(std::span(send), counts, incoming.words);
  }

  /// exchange_items (cluster/word_exchange.hpp) among this job's ranks.
  template <class Item>
  std::vector<std::size_t> exchange_items(std::span<const Item> send,
                                          const std::vector<std::size_t>& item_counts,
                                          std::vector<Item>& incoming) {
    return cluster::exchange_items(world_, send, item_counts, incoming,
                                   "distributed strong solver");
  }

  /// Empties every rank's list, keeping its memory.
  static std::vector<Words>& cleared(std::vector<Words>& lists, std::size_t ranks) {
    lists.resize(ranks);
    for (Words& words : lists) words.clear();
    return lists;
  }

  /// Layer `size` is complete (its keys came from larger layers): sends the children of its
  /// keys to their owners, a chunk of keys at a time, so that the children in flight stay a
  /// bounded amount of memory. What a rank receives joins the child layers as sorted runs.
  void enumerate_layer(int size) {
    SortedLayer& layer = layers_[size];
    layer.finish();
    const std::vector<LayerEntry>& keys = layer.entries();
    // Each chunk is one collective exchange, so every rank takes part in as many as the rank
    // with the most keys needs.
    const std::size_t chunks =
        boost::mpi::all_reduce(world_, (keys.size() + kExpansionChunk - 1) / kExpansionChunk,
                               boost::mpi::maximum<std::size_t>());
    const std::size_t ranks = ranks_;
    for (std::size_t chunk = 0; chunk < chunks; ++chunk) {
      const std::size_t begin = std::min(keys.size(), chunk * kExpansionChunk);
      const std::size_t end = std::min(keys.size(), begin + kExpansionChunk);
      // Each thread gathers the children it makes per owner; then they go out together (the
      // order they travel in does not matter: the receiver sorts them).
      for (std::vector<Words>& lists : buffers_.thread_outgoing) cleared(lists, ranks);
      parallel_for_ranges(begin, end, [&](std::size_t first, std::size_t last) {
        std::vector<Words>& lists = buffers_.thread_outgoing.local();
        lists.resize(ranks);
        for (std::size_t i = first; i != last; ++i) {
          step_.for_each_stored_child(keys[i].key(), [&](const PackedPosition& child) {
            Words& words = lists[static_cast<std::size_t>(owner(child))];
            words.push_back(child.free);
            words.push_back(child.snail);
          });
        }
      });
      std::vector<Words>& outgoing = cleared(buffers_.outgoing, ranks);
      for (const std::vector<Words>& lists : buffers_.thread_outgoing) {
        for (std::size_t rank = 0; rank < lists.size(); ++rank) {
          outgoing[rank].insert(outgoing[rank].end(), lists[rank].begin(), lists[rank].end());
        }
      }
      Received& received = buffers_.incoming;
      exchange(outgoing, received);
      std::array<std::size_t, kMaxSquares + 1> run_start{};
      for (int child_size = 0; child_size < size; ++child_size) {
        run_start[child_size] = layers_[child_size].entries().size();
      }
      for (std::size_t i = 0; i + 1 < received.words.size(); i += 2) {
        const PackedPosition child{received.words[i],
                                   static_cast<std::uint8_t>(received.words[i + 1])};
        layers_[count(child.free)].entries().push_back(LayerEntry::of(child));
      }
      for (int child_size = 0; child_size < size; ++child_size) {
        layers_[child_size].close_run(run_start[child_size]);
      }
    }
    report("forward: region " + std::to_string(size) + ": " + std::to_string(keys.size()) +
           " positions on rank 0");
  }

  /// Values the keys of layer `size`. Each key's children are listed once, in blocks of keys
  /// listed in parallel: the records of the children this rank owns are looked up at once, the
  /// others are asked of their owners in one exchange (each key once a block, in the order
  /// first asked: the answers come back in that order) and filled in; then every key is valued
  /// from its list.
  void value_layer(int size) {
    std::vector<LayerEntry>& keys = layers_[size].entries();
    const std::size_t ranks = ranks_;
    const std::size_t block_count = (keys.size() + kListBlock - 1) / kListBlock;
    if (buffers_.blocks.size() < block_count) buffers_.blocks.resize(block_count);
    const std::span<ChildList> blocks(buffers_.blocks.data(), block_count);
    parallel_for_ranges(0, block_count, [&](std::size_t first, std::size_t last) {
      for (std::size_t block = first; block != last; ++block) {
        list_children(keys, block * kListBlock, std::min(keys.size(), (block + 1) * kListBlock),
                      blocks[block]);
      }
    });
    // The requests to each rank, block after block: a block's k-th request to rank r is
    // request first_request[r] + k of the whole layer.
    std::vector<Words>& requests = cleared(buffers_.outgoing, ranks);
    for (ChildList& block : blocks) {
      block.first_request.resize(ranks);
      for (std::size_t rank = 0; rank < ranks; ++rank) {
        block.first_request[rank] = requests[rank].size() / 2;
        const Words& asked = block.requests[rank].words();
        requests[rank].insert(requests[rank].end(), asked.begin(), asked.end());
      }
    }
    Received& asked = buffers_.incoming;
    exchange(requests, asked);
    // Answer the others' requests from the layers this rank owns.
    std::vector<Words>& replies = cleared(buffers_.outgoing, ranks);
    for (std::size_t rank = 0; rank < ranks; ++rank) {
      const std::size_t from = asked.offsets[rank];
      replies[rank].resize((asked.offsets[rank + 1] - from) / 2);
      parallel_for_ranges(0, replies[rank].size(), [&](std::size_t first, std::size_t last) {
        for (std::size_t i = first; i != last; ++i) {
          const PackedPosition key{asked.words[from + 2 * i],
                                   static_cast<std::uint8_t>(asked.words[from + 2 * i + 1])};
          replies[rank][i] = record_word(own_record(key));
        }
      });
    }
    Received& answers = buffers_.answers;
    exchange(replies, answers);
    parallel_for_ranges(0, block_count, [&](std::size_t first, std::size_t last) {
      for (std::size_t block_index = first; block_index != last; ++block_index) {
        ChildList& block = blocks[block_index];
        const std::size_t begin = block_index * kListBlock;
        fill_answers(block, answers);
        for (std::size_t i = 0; i + 1 < block.first_child.size(); ++i) {
          keys[begin + i].record = step_.value_of_children(
              keys[begin + i].key(),
              std::span(block.children)
                  .subspan(block.first_child[i], block.first_child[i + 1] - block.first_child[i]));
        }
      }
    });
    report("backward: region " + std::to_string(size) + ": " + std::to_string(keys.size()) +
           " positions valued on rank 0");
  }

  /// Lists the stored children of keys [begin, end) into `list`: records of children this rank
  /// owns, placeholders and requests for the others.
  void list_children(const std::vector<LayerEntry>& keys, std::size_t begin, std::size_t end,
                     ChildList& list) const {
    const int me = world_.rank();
    list.children.clear();
    list.remotes.clear();
    list.first_child.assign(1, 0);
    list.requests.resize(ranks_);
    for (DistinctKeys& requests : list.requests) requests.clear();
    for (std::size_t i = begin; i != end; ++i) {
      step_.for_each_stored_move(keys[i].key(), [&](Square move, const PackedPosition& child) {
        const int rank = owner(child);
        if (rank == me) {
          list.children.push_back({own_record(child), static_cast<std::uint8_t>(move)});
          return;
        }
        // A child another key of the block asked for already is asked once (DistinctKeys).
        const std::size_t request = list.requests[static_cast<std::size_t>(rank)].index_of(child);
        list.remotes.push_back({list.children.size(), rank, request});
        list.children.push_back({{}, static_cast<std::uint8_t>(move)});
      });
      list.first_child.push_back(list.children.size());
    }
  }

  /// Puts the owners' answers into the placeholders of `list`.
  static void fill_answers(ChildList& list, const Received& answers) {
    for (const RemoteChild& remote : list.remotes) {
      const auto rank = static_cast<std::size_t>(remote.owner);
      const std::size_t word = answers.offsets[rank] + list.first_request[rank] + remote.request;
      if (word >= answers.offsets[rank + 1]) {
        throw std::logic_error("distributed strong solver: a rank answered the wrong count");
      }
      list.children[remote.child].record = record_of_word(answers.words[word]);
    }
  }

  const StrongRecord& own_record(const PackedPosition& key) const {
    return layers_[count(key.free)].record_of(key);
  }

  /// Ends the solve: redistributes the positions so that rank r holds the r-th of K
  /// consecutive key ranges: its run of the database (cluster/distributed_database_writer.hpp).
  /// Each rank sends every layer's part in each range, a sorted run, to that range's rank (one
  /// all-to-all exchange a layer); the runs a rank receives are merged when the run is written.
  /// The statistics are the whole table's, on every rank.
  StrongTableRun partition_by_key_range() {
    const std::size_t ranks = ranks_;
    constexpr std::size_t kLayers = kMaxSquares + 1;
    StrongSolveStats stats;
    stats.positions_by_region.assign(kLayers, 0);
    std::vector<std::uint64_t> by_region(kLayers, 0);
    for (std::size_t size = 0; size < kLayers; ++size) {
      by_region[size] = layers_[size].entries().size();
    }
    MPI_Allreduce(by_region.data(), stats.positions_by_region.data(), kLayers, MPI_UINT64_T,
                  MPI_SUM, static_cast<MPI_Comm>(world_));
    int top = 0;
    for (std::size_t size = 0; size < kLayers; ++size) {
      if (stats.positions_by_region[size]) top = static_cast<int>(size);
    }
    stats.positions_by_region.resize(static_cast<std::size_t>(top) + 1);

    // A sorted layer's parts in the K ranges are consecutive, rank after rank: the layer
    // itself is the send buffer. One exchange a layer, each layer freed once sent, so the
    // memory in flight is one layer's, and each exchange is bounded like the backward pass's.
    const std::vector<PackedPosition> bounds = range_bounds();
    std::vector<std::vector<std::size_t>> counts(kLayers, std::vector<std::size_t>(ranks, 0));
    std::vector<std::uint64_t> to_each(ranks, 0), from_each(ranks, 0);
    for (std::size_t size = 0; size < kLayers; ++size) {
      const std::span<const LayerEntry> entries(layers_[size].entries());
      std::size_t begin = 0;
      for (std::size_t rank = 0; rank < ranks; ++rank) {
        const std::size_t end =
            rank + 1 == ranks
                ? entries.size()
                : static_cast<std::size_t>(
                      std::partition_point(
                          entries.begin() + static_cast<std::ptrdiff_t>(begin), entries.end(),
                          [&](const LayerEntry& entry) { return entry.key() < bounds[rank]; }) -
                      entries.begin());
        counts[size][rank] = end - begin;
        to_each[rank] += end - begin;
        begin = end;
      }
    }
    // What each rank will receive in all, so that the run is allocated once.
    MPI_Alltoall(to_each.data(), 1, MPI_UINT64_T, from_each.data(), 1, MPI_UINT64_T,
                 static_cast<MPI_Comm>(world_));
    buffers_ = {};
    std::vector<LayerEntry> received;
    received.reserve(std::accumulate(from_each.begin(), from_each.end(), std::size_t{0}));
    std::vector<std::size_t> run_starts{0};
    for (std::size_t size = 0; size < kLayers; ++size) {
      std::vector<LayerEntry>& entries = layers_[size].entries();
      const std::vector<std::size_t> offsets =
          exchange_items(std::span<const LayerEntry>(entries), counts[size], received);
      layers_[size].release();
      run_starts.insert(run_starts.end(), offsets.begin() + 1, offsets.end());
    }
    return StrongTableRun(std::move(received), std::move(run_starts), std::move(stats));
  }

  /// K - 1 keys cutting the table into K ranges of about equal size, the same on every rank:
  /// quantiles of a sample of every rank's keys (a position's rank is a hash of its key, so
  /// every rank's keys are spread like the whole table's).
  std::vector<PackedPosition> range_bounds() const {
    constexpr std::size_t kSamplesPerRank = 4096;
    std::size_t total = 0;
    for (const SortedLayer& layer : layers_) total += layer.entries().size();
    const std::size_t stride = std::max<std::size_t>(1, total / kSamplesPerRank);
    Words sample;
    for (const SortedLayer& layer : layers_) {
      for (std::size_t i = stride / 2; i < layer.entries().size(); i += stride) {
        sample.push_back(layer.entries()[i].free);
        sample.push_back(layer.entries()[i].snail);
      }
    }
    std::vector<Words> samples;
    boost::mpi::all_gather(world_, sample, samples);
    std::vector<PackedPosition> keys;
    for (const Words& words : samples) {
      for (std::size_t i = 0; i + 1 < words.size(); i += 2) {
        keys.push_back({words[i], static_cast<std::uint8_t>(words[i + 1])});
      }
    }
    std::sort(keys.begin(), keys.end());
    const std::size_t ranks = ranks_;
    std::vector<PackedPosition> bounds(ranks - 1);  // no sample at all: every key to the last
    if (!keys.empty()) {
      for (std::size_t rank = 1; rank < ranks; ++rank) {
        bounds[rank - 1] = keys[rank * keys.size() / ranks];
      }
    }
    return bounds;
  }

  void report(const std::string& line) const {
    if (progress_ && world_.rank() == 0) progress_(line);
  }

  const boost::mpi::communicator& world_;
  // world_.size(), asked once: owner() runs for every child, and the size is an MPI call.
  const std::size_t ranks_;
  const Rastros& rastros_;
  RetrogradeStep step_;
  const std::function<void(const std::string&)>& progress_;
  const StrongSolveControl& control_;
  std::array<SortedLayer, kMaxSquares + 1> layers_;
  // Working memory of the exchanges, reused from layer to layer (see exchange()).
  struct Buffers {
    std::vector<Words> outgoing;  // per rank: children, requests or replies to send
    Words send;                   // `outgoing` end to end, as MPI_Alltoallv wants it
    Received incoming;            // children or requests received
    Received answers;             // records received for this rank's requests
    // Per thread, per rank: the children a forward chunk sends.
    oneapi::tbb::enumerable_thread_specific<std::vector<Words>> thread_outgoing;
    std::vector<ChildList> blocks;  // the backward pass's lists of children
  } buffers_;
};

}  // namespace

StrongTableRun::StrongTableRun(std::vector<LayerEntry> entries, std::vector<std::size_t> run_starts,
                               StrongSolveStats stats)
    : entries_(std::move(entries)), run_starts_(std::move(run_starts)), stats_(std::move(stats)) {}

PackedPosition StrongTableRun::last_key() const {
  const LayerEntry* last = nullptr;
  for (std::size_t run = 0; run + 1 < run_starts_.size(); ++run) {
    if (run_starts_[run] == run_starts_[run + 1]) continue;
    const LayerEntry& candidate = entries_[run_starts_[run + 1] - 1];
    if (!last || key_less(*last, candidate)) last = &candidate;
  }
  return last ? last->key() : PackedPosition{};
}

void StrongTableRun::release() {
  std::vector<LayerEntry>().swap(entries_);
  run_starts_.assign(1, 0);
}

void StrongTableRun::for_each(const Visit& visit) const {
  std::vector<std::span<const LayerEntry>> runs;
  for (std::size_t run = 0; run + 1 < run_starts_.size(); ++run) {
    runs.emplace_back(
        std::span(entries_).subspan(run_starts_[run], run_starts_[run + 1] - run_starts_[run]));
  }
  merge_sorted_runs(runs, [&](const LayerEntry& entry) {
    visit(entry.key(), {entry.record.value, entry.record.remoteness, entry.record.best_move});
  });
}

StrongTableRun solve_strong_distributed(const boost::mpi::communicator& world,
                                        const Rastros& rastros,
                                        const std::function<void(const std::string&)>& progress,
                                        const StrongSolveControl& control) {
  return DistributedSolver(world, rastros, progress, control).solve();
}

void remove_distributed_strong_checkpoint(const std::filesystem::path& directory) {
  if (directory.empty()) return;
  // The state file first: without it the layer files are never trusted again.
  remove_checkpoint(directory / "strong.checkpoint");
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    if (entry.path().filename().string().starts_with("rank-")) {
      remove_strong_checkpoint(entry.path());
    }
  }
  remove_strong_checkpoint(directory);
}

}  // namespace rastros::cluster
