#include "retro/strong_solver.hpp"

#include <oneapi/tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "core/checkpoint_file.hpp"
#include "core/errors.hpp"
#include "rastros/canonical.hpp"
#include "retro/layer_checkpoint.hpp"
#include "retro/retrograde_step.hpp"
#include "retro/sorted_layer.hpp"

namespace rastros {
namespace {

using Layers = std::array<SortedLayer, kMaxSquares + 1>;

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

class RetrogradeSolver {
 public:
  RetrogradeSolver(const Rastros& rastros, const std::function<void(const std::string&)>& progress,
                   const StrongSolveControl& control)
      : control_(control), rastros_(rastros), step_(rastros), progress_(progress) {}

  StrongTable solve() {
    const Clock::time_point start = Clock::now();
    StrongSolveStats stats;
    const PackedPosition start_key = step_.canonicalizer().pack(rastros_.start_position());
    const int top = count(start_key.free);
    layers_[top].entries().push_back(LayerEntry::of(start_key));

    const int valued_before = open_checkpoint();
    for (int size = top; size >= 0; --size) {
      check_stop();
      enumerate_layer(size, stats);
    }
    stats.forward_seconds = seconds_since(start);

    const Clock::time_point backward_start = Clock::now();
    for (int size = 0; size <= top; ++size) {
      check_stop();
      if (size < valued_before) {
        read_layer(size);
      } else {
        value_layer(size);
        save_layer(size);
      }
    }
    stats.backward_seconds = seconds_since(backward_start);

    stats.positions_by_region.assign(static_cast<std::size_t>(top) + 1, 0);
    for (int size = 0; size <= top; ++size) {
      stats.positions_by_region[static_cast<std::size_t>(size)] = layers_[size].entries().size();
    }
    const Clock::time_point table_start = Clock::now();
    std::vector<PackedPosition> keys;
    std::vector<StrongRecord> records;
    merge_layers(keys, records);
    stats.table_seconds = seconds_since(table_start);
    stats.total_seconds = seconds_since(start);
    report("table: " + std::to_string(keys.size()) + " positions in " +
           std::to_string(stats.total_seconds) + " s (" + stats.phase_times() + ")");
    return StrongTable(std::move(keys), std::move(records), std::move(stats));
  }

 private:
  // -- Checkpoints (retro/layer_checkpoint.hpp) --

  /// Checks the checkpoint directory; returns how many layers it holds valued (0 for none).
  int open_checkpoint() {
    if (control_.checkpoint_directory.empty()) return 0;
    prepare_checkpoint_directory(control_.checkpoint_directory);
    const int valued =
        valued_layers_to_resume(control_.checkpoint_directory, rastros_, control_.resume);
    if (valued > 0) report("resume: " + std::to_string(valued) + " layers valued before");
    return valued;
  }

  /// Saves layer `size`'s records, then records that every layer up to it is valued.
  void save_layer(int size) {
    if (control_.checkpoint_directory.empty()) return;
    write_layer_records(control_.checkpoint_directory, size, layers_[size].keys_checksum(),
                        layers_[size].records());
    write_strong_state(control_.checkpoint_directory, rastros_, size + 1);
  }

  void read_layer(int size) {
    SortedLayer& layer = layers_[size];
    layer.set_records(read_layer_records(control_.checkpoint_directory, size,
                                         layer.entries().size(), layer.keys_checksum()));
    report("backward: region " + std::to_string(size) + ": " +
           std::to_string(layer.entries().size()) + " positions read from the checkpoint");
  }

  void check_stop() const {
    if (control_.stop && control_.stop->load(std::memory_order_relaxed)) throw SolveStopped();
  }

  /// Completes layer `size` (every parent is in a larger layer, already expanded) and sends the
  /// children of its keys to the smaller layers.
  void enumerate_layer(int size, StrongSolveStats& stats) {
    SortedLayer& layer = layers_[size];
    layer.finish();
    const std::vector<LayerEntry>& keys = layer.entries();
    if (keys.empty()) return;
    for (std::size_t begin = 0; begin < keys.size(); begin += kExpansionChunk) {
      const std::size_t end = std::min(keys.size(), begin + kExpansionChunk);
      parallel_for_ranges(begin, end, [&](std::size_t first, std::size_t last) {
        Buckets& buckets = buckets_.local();
        for (std::size_t i = first; i != last; ++i) expand(keys[i], buckets);
      });
      for (int child_size = 0; child_size < size; ++child_size) collect_bucket(child_size, stats);
    }
    report("forward: region " + std::to_string(size) + ": " + std::to_string(keys.size()) +
           " positions");
  }

  /// Every child of a key that is a position still in play: moves into a goal end the game and
  /// children with an empty region are stuck, so neither is stored.
  void expand(const LayerEntry& entry,
              std::array<std::vector<LayerEntry>, kMaxSquares + 1>& buckets) const {
    step_.for_each_stored_child(entry.key(), [&](const PackedPosition& child) {
      buckets[count(child.free)].push_back(LayerEntry::of(child));
    });
  }

  /// Moves the children every thread gathered for one layer into that layer as a new run.
  void collect_bucket(int child_size, StrongSolveStats& stats) {
    std::size_t gathered = 0;
    for (const Buckets& buckets : buckets_) gathered += buckets[child_size].size();
    if (gathered == 0) return;
    std::vector<LayerEntry>& entries = layers_[child_size].entries();
    const std::size_t from = entries.size();
    entries.reserve(from + gathered);
    for (Buckets& buckets : buckets_) {
      std::vector<LayerEntry>& bucket = buckets[child_size];
      entries.insert(entries.end(), bucket.begin(), bucket.end());
      bucket.clear();
    }
    stats.children_generated += gathered;
    layers_[child_size].close_run(from);
  }

  /// Values every key of layer `size` from its children, all in smaller, valued layers.
  void value_layer(int size) {
    std::vector<LayerEntry>& keys = layers_[size].entries();
    if (keys.empty()) return;
    parallel_for_ranges(0, keys.size(), [&](std::size_t first, std::size_t last) {
      for (std::size_t i = first; i != last; ++i) keys[i].record = value_of(keys[i]);
    });
    report("backward: region " + std::to_string(size) + ": " + std::to_string(keys.size()) +
           " positions valued");
  }

  /// The record of a key from its children, all in smaller, valued layers.
  StrongRecord value_of(const LayerEntry& entry) const {
    return step_.value_of(entry.key(), [&](const PackedPosition& child) {
      return layers_[count(child.free)].record_of(child);
    });
  }

  /// One sorted table from the layers (each sorted already), their memory released after.
  void merge_layers(std::vector<PackedPosition>& keys, std::vector<StrongRecord>& records) {
    std::size_t total = 0;
    std::vector<std::span<const LayerEntry>> runs;
    for (const SortedLayer& layer : layers_) {
      total += layer.entries().size();
      runs.emplace_back(layer.entries());
    }
    keys.clear();
    records.clear();
    keys.reserve(total);
    records.reserve(total);
    merge_sorted_runs(runs, [&](const LayerEntry& entry) {
      keys.push_back(entry.key());
      records.push_back(entry.record);
    });
    for (SortedLayer& layer : layers_) layer.release();
  }

  void report(const std::string& line) const {
    if (progress_) progress_(line);
  }

  using Buckets = std::array<std::vector<LayerEntry>, kMaxSquares + 1>;

  const StrongSolveControl& control_;
  const Rastros& rastros_;
  RetrogradeStep step_;
  const std::function<void(const std::string&)>& progress_;
  Layers layers_;
  oneapi::tbb::enumerable_thread_specific<Buckets> buckets_;
};

}  // namespace

int StrongSolveStats::layer_count() const {
  return static_cast<int>(std::count_if(positions_by_region.begin(), positions_by_region.end(),
                                        [](std::uint64_t n) { return n > 0; }));
}

std::uint64_t StrongSolveStats::position_count() const {
  std::uint64_t positions = 0;
  for (const std::uint64_t count : positions_by_region) positions += count;
  return positions;
}

std::string StrongSolveStats::phase_times() const {
  std::ostringstream text;
  text << std::fixed << std::setprecision(2) << "forward " << forward_seconds << " s, backward "
       << backward_seconds << " s, table " << table_seconds << " s";
  return text.str();
}

StrongTable::StrongTable(std::vector<PackedPosition> keys, std::vector<StrongRecord> records,
                         StrongSolveStats stats)
    : keys_(std::move(keys)), records_(std::move(records)), stats_(std::move(stats)) {
  if (keys_.size() != records_.size()) {
    throw std::invalid_argument("strong table: keys and records differ in number");
  }
}

const StrongRecord* StrongTable::find(const PackedPosition& key) const {
  const auto found = std::lower_bound(keys_.begin(), keys_.end(), key);
  if (found == keys_.end() || *found != key) return nullptr;
  return &records_[static_cast<std::size_t>(found - keys_.begin())];
}

StrongTable solve_strong(const Rastros& rastros,
                         const std::function<void(const std::string&)>& progress,
                         const StrongSolveControl& control) {
  return RetrogradeSolver(rastros, progress, control).solve();
}

void remove_strong_checkpoint(const std::filesystem::path& directory) {
  if (directory.empty()) return;
  // The state file first: without it the layer files are never trusted again.
  remove_checkpoint(directory / "strong.checkpoint");
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("layer-") || name.starts_with("strong.checkpoint")) {
      std::filesystem::remove(entry.path(), error);
    }
  }
  std::filesystem::remove(directory, error);  // only if empty
}

}  // namespace rastros
