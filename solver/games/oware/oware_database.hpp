#pragma once
// Oware endgame databases by seeds on the board: rule 7's score (the net the side to move
// captures from here on) of every board of M houses a side with at most K seeds, one signed
// byte a board, indexed by Oware::level_rank (a perfect ranking of the seed distribution).
// The seeds each house started with do not matter: only M does.
//
// Level s is built once the levels below it are known: a capture of g seeds leads to level
// s - g, and the moves that capture nothing stay in level s, whose graph has cycles; it is
// solved by oware_level_solver.hpp, its graph stored or generated (oware_level.hpp) as memory
// allows. Each level is built in parallel (TBB).
//
// On disk (save/load, core/binary_file.hpp), format 2: magic, format version, the game name,
// M and K, the levels one after the other, a CRC-32 of each 64 KiB of the levels with the
// table's own CRC (core/chunk_crcs.hpp), and a CRC-32 of everything before it, written through
// a temporary file and a rename. load() reads and checks it all; OwareDatabaseFile reads the
// header and the table and then only the chunks its probes fall in (a query answered from the
// file alone). Format 1 files (no chunk table) are still read, whole. A checkpoint directory keeps
// each finished level in a file of its own, so that a killed build resumes after its last finished
// level.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "games/oware/oware.hpp"
#include "games/oware/oware_level.hpp"

namespace rastros::oware {

/// The most seeds a database can hold (a score is a signed byte).
inline constexpr int kMaxDatabaseSeeds = 127;

struct BuildOptions {
  /// Where each finished level is kept (empty: nowhere).
  std::filesystem::path checkpoint;
  /// Reads the levels already in `checkpoint` instead of building them again.
  bool resume = false;
  /// A level whose graph stored would take more (oware_level.hpp) is solved with its moves
  /// generated: slower, but about 5 bytes a board and its frontiers.
  std::uint64_t level_memory = kDefaultLevelMemory;
  /// Solves one level in place of solve_one_level: a build over MPI ranks passes the
  /// cluster's (cluster/distributed_oware_level.hpp), which every rank calls together.
  std::function<std::vector<std::int8_t>(int seeds, const LowerLevels& lower)> solve_level;
  /// Whether this process writes the finished levels to `checkpoint` (one rank of a build over
  /// MPI does; the others read them on --resume, from a directory they all see).
  bool writes_checkpoint = true;
  /// Told, for each level, whether this process found it in the checkpoint (with `resume`):
  /// a build over MPI checks there that every rank found the same, and throws if not.
  std::function<void(int seeds, bool found)> agree_on_checkpoint;
  /// Told each finished level, its size and whether it was read from the checkpoint.
  std::function<void(int seeds, std::uint64_t states, bool resumed)> progress;
  /// Told as a level is solved in this process (not by `solve_level`), on the building thread:
  /// LevelProgress's thresholds, for a progress line within a long level.
  std::function<void(int seeds, int threshold, std::uint64_t decided)> level_progress;
};

class OwareDatabase {
 public:
  /// Builds every level from 0 to `max_seeds` for `game`'s houses. Throws InputError for a
  /// K out of range, FileError for a checkpoint level that is damaged or of other houses.
  static OwareDatabase build(const Oware& game, int max_seeds, const BuildOptions& options = {});

  /// States of every level from 0 to `max_seeds` seeds.
  static std::uint64_t states_up_to(const Oware& game, int max_seeds);
  /// The values of level `seeds` computed from `lower` (levels 0..seeds-1): what build() and
  /// verify() both do for one level, within `level_memory` as BuildOptions says.
  static std::vector<std::int8_t> solve_one_level(
      const Oware& game, int seeds, const std::vector<std::vector<std::int8_t>>& lower,
      std::uint64_t level_memory = kDefaultLevelMemory, const LevelProgress& progress = {});

  /// Reads a file written by save(). Throws FileError when it is not one, is damaged, or (when
  /// `game` is given) is of other houses.
  static OwareDatabase load(const std::filesystem::path& path, const Oware* game = nullptr);
  void save(const std::filesystem::path& path) const;

  int houses() const { return houses_; }
  int max_seeds() const { return max_seeds_; }
  std::uint64_t size() const;

  /// The score of `state` when it has at most max_seeds() seeds on the board.
  std::optional<int> probe(const Oware& game, const OwareState& state) const {
    const int seeds = game.seeds_in_play(state);
    if (seeds > max_seeds_) return std::nullopt;
    return levels_[seeds][game.level_rank(state)];
  }
  int score_at(int seeds, std::uint64_t rank) const { return levels_[seeds][rank]; }
  /// Every position of level `seeds` (by rank): its distance to its exit as
  /// oware_level_solver.hpp defines it, the level solved again from the levels below. Throws
  /// FileError when the values found are not the stored ones (a file that fails verify).
  std::vector<std::uint16_t> distances(const Oware& game, int seeds) const;
  /// For tests: changes one record (as a damaged or wrongly built file would have it).
  void set_score(int seeds, std::uint64_t rank, int score) {
    levels_[seeds][rank] = static_cast<std::int8_t>(score);
  }

  /// Recomputes every level from the rules and the levels below it, as stored, and compares:
  /// the first differing record ("12 seeds, rank 345: stored 2, recomputed 0"), or nothing.
  /// By induction on the levels a database that passes holds the rules' values, cycles
  /// included. `game` must have the database's houses.
  std::optional<std::string> verify(const Oware& game) const;

  /// States by seeds and by score: counts[seeds][score + seeds].
  std::vector<std::vector<std::uint64_t>> score_counts() const;

 private:
  int houses_ = 0;
  int max_seeds_ = -1;
  std::vector<std::vector<std::int8_t>> levels_;
};

/// A database file opened for a few probes: opening it reads the header and the chunk table;
/// each probe reads and checks the 64 KiB chunk it falls in, once. Thread-safe. A format 1
/// file is read whole on opening.
class OwareDatabaseFile {
 public:
  /// Throws FileError as OwareDatabase::load does for what the header and the size show, and
  /// for a damaged chunk table.
  OwareDatabaseFile(const std::filesystem::path& path, const Oware& game);
  ~OwareDatabaseFile();

  int max_seeds() const;
  /// As OwareDatabase::probe. Throws FileError when the chunk read is damaged.
  std::optional<int> probe(const Oware& game, const OwareState& state) const;
  /// Chunks read from the file so far (a format 1 file: 0).
  std::size_t chunks_read() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rastros::oware
