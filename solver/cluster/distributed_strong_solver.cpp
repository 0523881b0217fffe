#include "cluster/distributed_strong_solver.hpp"

#include <mpi.h>
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_sort.h>

#include <algorithm>
#include <array>
#include <boost/mpi/collectives/all_reduce.hpp>
#include <boost/mpi/collectives/all_to_all.hpp>
#include <boost/mpi/collectives/gather.hpp>
#include <boost/mpi/operations.hpp>
#include <boost/serialization/vector.hpp>
#include <chrono>
#include <exception>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>

#include "core/checkpoint_file.hpp"
#include "core/errors.hpp"
#include "retro/layer_checkpoint.hpp"
#include "retro/retrograde_step.hpp"

namespace rastros::cluster {
namespace {

// Keys travel as two 64-bit words (free mask, snail) and records as one word, so that every
// message is a plain array of integers (Boost.MPI sends those without serialising element by
// element).
using Words = std::vector<std::uint64_t>;
// MPI counts and offsets are ints (and Boost.MPI's gather counts bytes in ints).
constexpr std::size_t kMaxMessageWords = (std::size_t{1} << 31) / sizeof(std::uint64_t) - 1;

struct KeyedRecord {
  PackedPosition key;
  StrongRecord record;
};

bool key_less(const KeyedRecord& a, const KeyedRecord& b) {
  return a.key < b.key;
}

std::uint64_t record_word(const StrongRecord& record) {
  return std::uint64_t{static_cast<std::uint8_t>(record.value)} |
         std::uint64_t{record.remoteness} << 8 | std::uint64_t{record.best_move} << 16;
}
StrongRecord record_of_word(std::uint64_t word) {
  return {static_cast<Value>(word & 0xff), static_cast<std::uint8_t>(word >> 8),
          static_cast<std::uint8_t>(word >> 16)};
}

class DistributedSolver {
 public:
  DistributedSolver(const boost::mpi::communicator& world, const Rastros& rastros,
                    const std::function<void(const std::string&)>& progress,
                    const StrongSolveControl& control)
      : world_(world), rastros_(rastros), step_(rastros), progress_(progress), control_(control) {}

  StrongTable solve() {
    const auto started = std::chrono::steady_clock::now();
    const PackedPosition start = step_.canonicalizer().pack(rastros_.start_position());
    const int top = count(start.free);
    if (owner(start) == world_.rank()) layers_[top].push_back({start, {}});
    const int valued_before = open_checkpoint();
    for (int size = top; size >= 0; --size) {
      check_stop();
      enumerate_layer(size);
    }
    for (int size = 0; size <= top; ++size) {
      check_stop();
      if (size < valued_before) {
        read_layer(size);
      } else {
        value_layer(size);
        save_layer(size);
      }
    }
    StrongTable table = gather_table();
    if (world_.rank() == 0) {
      report(
          "table: " + std::to_string(table.size()) + " positions on " +
          std::to_string(world_.size()) + " ranks in " +
          std::to_string(
              std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()) +
          " s");
    }
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

  std::uint32_t layer_keys_checksum(int size) const {
    std::vector<PackedPosition> keys(layers_[size].size());
    for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = layers_[size][i].key;
    return keys_checksum(keys);
  }

  /// Every rank saves its share of layer `size`; then the root records the layer as valued.
  void save_layer(int size) {
    if (control_.checkpoint_directory.empty()) return;
    on_every_rank("saving the checkpoint", [&] {
      std::vector<StrongRecord> records(layers_[size].size());
      for (std::size_t i = 0; i < records.size(); ++i) records[i] = layers_[size][i].record;
      write_layer_records(rank_directory(), size, layer_keys_checksum(size), records);
    });
    on_every_rank("saving the checkpoint", [&] {
      if (world_.rank() != 0) return;
      write_strong_state(control_.checkpoint_directory, rastros_, size + 1, world_.size());
    });
  }

  void read_layer(int size) {
    on_every_rank("reading the checkpoint", [&] {
      const std::vector<StrongRecord> records = read_layer_records(
          rank_directory(), size, layers_[size].size(), layer_keys_checksum(size));
      for (std::size_t i = 0; i < records.size(); ++i) layers_[size][i].record = records[i];
    });
    report("backward: region " + std::to_string(size) + ": " +
           std::to_string(layers_[size].size()) + " positions on rank 0 read from the checkpoint");
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
    return static_cast<int>(hash % static_cast<std::uint64_t>(world_.size()));
  }

  /// Sends outgoing[r] to rank r and returns what each rank sent here. The words go straight
  /// through MPI_Alltoallv: Boost.MPI's all_to_all would serialise every vector first.
  std::vector<Words> exchange(const std::vector<Words>& outgoing) const {
    const std::size_t ranks = outgoing.size();
    std::vector<int> send_counts(ranks), receive_counts(ranks);
    for (std::size_t rank = 0; rank < ranks; ++rank) {
      send_counts[rank] = static_cast<int>(outgoing[rank].size());
    }
    boost::mpi::all_to_all(world_, send_counts, receive_counts);
    std::vector<int> send_offsets(ranks), receive_offsets(ranks);
    Words send_buffer, receive_buffer;
    std::size_t received = 0;
    for (std::size_t rank = 0; rank < ranks; ++rank) {
      send_offsets[rank] = static_cast<int>(send_buffer.size());
      send_buffer.insert(send_buffer.end(), outgoing[rank].begin(), outgoing[rank].end());
      receive_offsets[rank] = static_cast<int>(received);
      received += static_cast<std::size_t>(receive_counts[rank]);
      // MPI counts and offsets are ints: a layer this large needs more ranks.
      if (send_buffer.size() > kMaxMessageWords || received > kMaxMessageWords) {
        throw std::length_error(
            "distributed strong solver: a layer's exchange exceeds MPI's 2^31 words; use more "
            "ranks");
      }
    }
    receive_buffer.resize(static_cast<std::size_t>(receive_offsets.back() + receive_counts.back()));
    MPI_Alltoallv(send_buffer.data(), send_counts.data(), send_offsets.data(), MPI_UINT64_T,
                  receive_buffer.data(), receive_counts.data(), receive_offsets.data(),
                  MPI_UINT64_T, static_cast<MPI_Comm>(world_));
    std::vector<Words> incoming(ranks);
    for (std::size_t rank = 0; rank < ranks; ++rank) {
      const auto first = receive_buffer.begin() + receive_offsets[rank];
      incoming[rank].assign(first, first + receive_counts[rank]);
    }
    return incoming;
  }

  /// Layer `size` is complete (its keys came from larger layers): sorts it and sends the
  /// children of its keys to their owners.
  void enumerate_layer(int size) {
    std::vector<KeyedRecord>& layer = layers_[size];
    std::sort(layer.begin(), layer.end(), key_less);
    layer.erase(std::unique(layer.begin(), layer.end(),
                            [](const auto& a, const auto& b) { return a.key == b.key; }),
                layer.end());
    std::vector<Words> outgoing(static_cast<std::size_t>(world_.size()));
    for (const KeyedRecord& entry : layer) {
      step_.for_each_stored_child(entry.key, [&](const PackedPosition& child) {
        Words& words = outgoing[static_cast<std::size_t>(owner(child))];
        words.push_back(child.free);
        words.push_back(child.snail);
      });
    }
    for (const Words& words : exchange(outgoing)) {
      for (std::size_t i = 0; i + 1 < words.size(); i += 2) {
        const PackedPosition child{words[i], static_cast<std::uint8_t>(words[i + 1])};
        layers_[count(child.free)].push_back({child, {}});
      }
    }
    report("forward: region " + std::to_string(size) + ": " + std::to_string(layer.size()) +
           " positions on rank 0");
  }

  /// Values the keys of layer `size`. Children this rank owns are looked up directly; the
  /// others are requested from their owners in the order the keys meet them (no sorting), and
  /// the answers are consumed in that same order while valuing.
  void value_layer(int size) {
    std::vector<KeyedRecord>& layer = layers_[size];
    const std::size_t ranks = static_cast<std::size_t>(world_.size());
    const int me = world_.rank();
    struct Slot {
      int owner;
      std::size_t index;
    };
    std::vector<Words> requests(ranks);
    std::vector<Slot> slots;  // remote children, in key-then-move order
    std::vector<std::size_t> first_slot(layer.size() + 1, 0);
    for (std::size_t i = 0; i < layer.size(); ++i) {
      step_.for_each_stored_child(layer[i].key, [&](const PackedPosition& child) {
        const int rank = owner(child);
        if (rank == me) return;
        Words& words = requests[static_cast<std::size_t>(rank)];
        slots.push_back({rank, words.size() / 2});
        words.push_back(child.free);
        words.push_back(child.snail);
      });
      first_slot[i + 1] = slots.size();
    }
    // Answer the others' requests from the layers this rank owns.
    const std::vector<Words> asked = exchange(requests);
    std::vector<Words>().swap(requests);
    std::vector<Words> replies(ranks);
    for (std::size_t rank = 0; rank < ranks; ++rank) {
      replies[rank].reserve(asked[rank].size() / 2);
      for (std::size_t i = 0; i + 1 < asked[rank].size(); i += 2) {
        const PackedPosition key{asked[rank][i], static_cast<std::uint8_t>(asked[rank][i + 1])};
        replies[rank].push_back(record_word(own_record(key)));
      }
    }
    const std::vector<Words> answers = exchange(replies);
    std::vector<StrongRecord> remote(slots.size());
    for (std::size_t j = 0; j < slots.size(); ++j) {
      const Words& answer = answers[static_cast<std::size_t>(slots[j].owner)];
      if (slots[j].index >= answer.size()) {
        throw std::logic_error("distributed strong solver: a rank answered the wrong count");
      }
      remote[j] = record_of_word(answer[slots[j].index]);
    }
    oneapi::tbb::parallel_for(
        oneapi::tbb::blocked_range<std::size_t>(0, layer.size()),
        [&](const oneapi::tbb::blocked_range<std::size_t>& range) {
          for (std::size_t i = range.begin(); i != range.end(); ++i) {
            // value_of asks for the stored children in the order for_each_stored_child met them
            // (or for none, when the side to move can enter its own goal at once).
            std::size_t next = first_slot[i];
            layer[i].record = step_.value_of(layer[i].key, [&](const PackedPosition& child) {
              if (owner(child) == me) return own_record(child);
              if (next == first_slot[i + 1]) {
                throw std::logic_error("distributed strong solver: children met in another order");
              }
              return remote[next++];
            });
          }
        });
    report("backward: region " + std::to_string(size) + ": " + std::to_string(layer.size()) +
           " positions valued on rank 0");
  }

  const StrongRecord& own_record(const PackedPosition& key) const {
    const std::vector<KeyedRecord>& layer = layers_[count(key.free)];
    const auto found = std::lower_bound(layer.begin(), layer.end(), KeyedRecord{key, {}}, key_less);
    if (found == layer.end() || found->key != key) {
      throw std::logic_error("distributed strong solver: a child position was never enumerated");
    }
    return found->record;
  }

  /// Every rank's positions, merged on the root into one sorted table.
  StrongTable gather_table() {
    Words mine;
    std::vector<std::uint64_t> by_region(kMaxSquares + 1, 0);
    for (int size = 0; size <= kMaxSquares; ++size) {
      for (const KeyedRecord& entry : layers_[size]) {
        mine.push_back(entry.key.free);
        mine.push_back(entry.key.snail);
        mine.push_back(record_word(entry.record));
      }
      by_region[static_cast<std::size_t>(size)] = layers_[size].size();
      std::vector<KeyedRecord>().swap(layers_[size]);
    }
    if (mine.size() > kMaxMessageWords / 2) {
      throw std::length_error(
          "distributed strong solver: this rank's share of the table exceeds one MPI message; "
          "use more ranks");
    }
    std::vector<Words> all;
    std::vector<std::vector<std::uint64_t>> all_by_region;
    boost::mpi::gather(world_, mine, all, 0);
    boost::mpi::gather(world_, by_region, all_by_region, 0);
    if (world_.rank() != 0) return {};
    std::vector<KeyedRecord> entries;
    for (const Words& words : all) {
      for (std::size_t i = 0; i + 2 < words.size(); i += 3) {
        entries.push_back(
            {{words[i], static_cast<std::uint8_t>(words[i + 1])}, record_of_word(words[i + 2])});
      }
    }
    oneapi::tbb::parallel_sort(entries.begin(), entries.end(), key_less);
    std::vector<PackedPosition> keys(entries.size());
    std::vector<StrongRecord> records(entries.size());
    for (std::size_t i = 0; i < entries.size(); ++i) {
      keys[i] = entries[i].key;
      records[i] = entries[i].record;
    }
    StrongSolveStats stats;
    int top = 0;
    stats.positions_by_region.assign(kMaxSquares + 1, 0);
    for (const auto& counts : all_by_region) {
      for (std::size_t size = 0; size < counts.size(); ++size) {
        stats.positions_by_region[size] += counts[size];
        if (counts[size]) top = std::max(top, static_cast<int>(size));
      }
    }
    stats.positions_by_region.resize(static_cast<std::size_t>(top) + 1);
    return StrongTable(std::move(keys), std::move(records), std::move(stats));
  }

  void report(const std::string& line) const {
    if (progress_ && world_.rank() == 0) progress_(line);
  }

  const boost::mpi::communicator& world_;
  const Rastros& rastros_;
  RetrogradeStep step_;
  const std::function<void(const std::string&)>& progress_;
  const StrongSolveControl& control_;
  std::array<std::vector<KeyedRecord>, kMaxSquares + 1> layers_;
};

}  // namespace

StrongTable solve_strong_distributed(const boost::mpi::communicator& world, const Rastros& rastros,
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
