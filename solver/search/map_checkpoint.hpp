#pragma once
// The checkpoint of one run of a start-square map (`rastros map --checkpoint DIR`): the file
// DIR/map.checkpoint, read back when resuming, saved after every solved square (so that an
// interruption loses at most the squares in progress), removed once the map is out.

#include <cstdint>
#include <filesystem>
#include <mutex>

#include "search/start_map.hpp"

namespace rastros {

class MapCheckpoint {
 public:
  /// Prepares `directory` and reads what it holds. Throws InputError when it holds an unfinished
  /// map and `resume` is false, or the map of another game. Without a saved map, writes an empty
  /// one at once, so a stop that comes before any square is solved still leaves a checkpoint
  /// that marks the map unfinished and names its game.
  MapCheckpoint(std::filesystem::path directory, const Rastros& rastros, bool value_only,
                bool resume);

  /// The progress of the earlier runs: the squares solved, their nodes and seconds.
  const MapProgress& earlier() const { return earlier_; }
  const std::filesystem::path& directory() const { return directory_; }

  /// Saves a newly solved square with this run's nodes and seconds so far. Thread-safe.
  void save(const StartSquareOutcome& result, std::uint64_t run_nodes, double run_seconds);

  /// Removes the checkpoint, and its directory when that is left empty: for a finished map.
  void remove() const;

 private:
  std::filesystem::path directory_;
  std::filesystem::path path_;
  const Rastros& rastros_;
  bool value_only_;
  MapProgress earlier_;
  std::mutex mutex_;
  MapProgress progress_;  // earlier_ and this run's squares
};

}  // namespace rastros
