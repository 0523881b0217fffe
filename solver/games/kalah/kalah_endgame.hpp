#pragma once
// Kalah endgame databases by seeds in play: the exact score (what the side to move gains from
// here on) of every state with at most K seeds left in the houses, for one number of houses
// and one capture rule (the number of seeds a house started with does not matter: only the
// houses do).
//
// Seeds never come back from a store, so a move leads to a state with as many seeds in play or
// fewer. Levels are built from 0 seeds up; within a level, a move that banks nothing only
// carries the mover's seeds toward its store, so the moves inside a level never cycle and each
// state's value is found by recursion on its same-level children (memoised in the level).
// Each level is one byte a state, indexed by Kalah::level_rank (a perfect ranking of the seed
// counts), and is built in parallel (TBB).
//
// On disk (save/load), format 2: a header line naming the format, game, houses, rule and K,
// then the levels, then a CRC-32 of each 64 KiB of the levels (core/chunk_crcs.hpp) with the
// table's own CRC-32, then a CRC-32 of everything before it; written through a temporary file
// and a rename. load() reads and checks it all (as a search needs every level);
// KalahEndgameFile reads the header and the chunk table and then only the chunks its probes
// fall in, so that a query answered from the file alone takes milliseconds whatever its size.
// Format 1 files (no chunk table) are still read, whole.

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "games/kalah/kalah.hpp"

namespace rastros::kalah {

class KalahEndgame {
 public:
  /// Builds every level from 0 to `max_seeds` for `game`'s houses and rule. `progress` (may be
  /// empty) is told each finished level and its size.
  static KalahEndgame build(
      const Kalah& game, int max_seeds,
      const std::function<void(int seeds, std::uint64_t states)>& progress = {});

  /// States of every level from 0 to `max_seeds` seeds of `game`'s houses.
  static std::uint64_t states_up_to(const Kalah& game, int max_seeds);
  /// The most seeds whose database holds at most `max_states` states.
  static int seeds_within(const Kalah& game, std::uint64_t max_states);
  /// Bytes build() needs at its peak: the levels below the last, plus the last twice (as it
  /// fills and as it is kept).
  static std::uint64_t build_bytes(const Kalah& game, int max_seeds);

  /// Reads a file written by save(). Throws FileError when it is not one, is damaged, or is of
  /// another number of houses or rule than `game` (checked when given).
  static KalahEndgame load(const std::filesystem::path& path, const Kalah* game = nullptr);
  void save(const std::filesystem::path& path) const;

  int houses() const { return houses_; }
  CaptureRule rule() const { return rule_; }
  int max_seeds() const { return max_seeds_; }
  /// States stored, all levels together.
  std::uint64_t size() const;

  /// The score of `state` when it has at most max_seeds() seeds in play.
  std::optional<int> probe(const Kalah& game, const KalahState& state) const {
    const int seeds = game.seeds_in_play(state);
    if (seeds > max_seeds_) return std::nullopt;
    return levels_[seeds][game.level_rank(state)];
  }
  int score_at(int seeds, std::uint64_t rank) const { return levels_[seeds][rank]; }

  /// Checks every record against its children's records (its score must be the best of
  /// gain +/- child over its moves, and an ended state's its houses' margin). Every move keeps
  /// or lowers the seeds in play and never cycles within a level, so a database that passes is
  /// right by induction. Returns the first wrong record found ("12 seeds, rank 345: ..."), or
  /// nothing. `game` must have the database's houses and rule.
  std::optional<std::string> verify(const Kalah& game) const;

  /// States by seeds in play and by score: counts[seeds][score + seeds].
  std::vector<std::vector<std::uint64_t>> score_counts() const;

 private:
  int houses_ = 0;
  CaptureRule rule_ = CaptureRule::standard;
  int max_seeds_ = -1;
  std::vector<std::vector<std::int8_t>> levels_;
};

/// An endgame database file opened for a few probes (a query answered from the file alone):
/// opening it reads the header and the chunk table; each probe reads and checks the 64 KiB
/// chunk it falls in, once. Thread-safe. A format 1 file is read whole on opening.
class KalahEndgameFile {
 public:
  /// Throws FileError as KalahEndgame::load does for what the header and the size show, and
  /// for a damaged chunk table.
  KalahEndgameFile(const std::filesystem::path& path, const Kalah& game);
  ~KalahEndgameFile();

  int max_seeds() const;
  /// As KalahEndgame::probe. Throws FileError when the chunk read is damaged.
  std::optional<int> probe(const Kalah& game, const KalahState& state) const;
  /// Chunks read from the file so far (a format 1 file: 0).
  std::size_t chunks_read() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rastros::kalah
