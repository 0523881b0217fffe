#pragma once
// Checkpoints of the breadth-first walk that builds strategy and proof databases
// (db/strategy_walk.hpp), so that a build of hours survives a crash or Ctrl-C and resumes at
// the last finished ply (the 8x8 proof: 33 minutes on 2 threads, 15 of them for the start's
// value, which the walk saves before its first ply). After each ply the walk writes
//
//   DIR/walk-ply-NN.positions    the positions ply NN expanded, in key order, with records
//   DIR/walk-next-NN.positions   the positions ply NN is to expand, with their known values
//   DIR/walk.checkpoint          core/checkpoint_file.hpp, kind "walk": what is being built
//                                and how many plies are done ("plies P": ply files 0..P-1
//                                and next-P are whole)
//
// each atomically, the state file last: a crash between leaves the previous state, whose files
// are untouched. The positions files are binary, little-endian:
//
//   magic "RSTRWALK" | u32 format version | u32 ply | u64 count
//   | count x (u64 free mask, u8 snail, u8 value (255: not known), u8 remoteness, u8 move)
//   | u32 CRC-32 of every byte before it

#include <atomic>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "db/database_file.hpp"
#include "rastros/position.hpp"

namespace rastros {

/// Where a walk saves its plies. An empty directory: no checkpoint.
struct WalkCheckpoint {
  std::filesystem::path directory;
  /// What is being built (game, database kind and parameters): a checkpoint of anything else
  /// is refused instead of resumed.
  std::string identity;
  /// Continue a walk saved in the directory; without it, finding one there is an error.
  bool resume = false;
  /// Checked after each ply is saved: the walk then throws SearchCancelled.
  const std::atomic<bool>* stop = nullptr;

  bool enabled() const { return !directory.empty(); }
};

/// A position to expand, and its value for the side to move when the walk already knows it
/// (a proof knows the value of each position it names; a strategy database solves them).
struct WalkNode {
  PackedPosition key;
  std::optional<Value> value;
};

/// One expanded position and its record.
struct StoredPosition {
  PackedPosition key;
  DatabaseRecord record;
};

/// What a checkpoint holds: every position expanded in plies 0..plies-1 (in key order) and the
/// positions ply `plies` is to expand.
struct SavedWalk {
  int plies = 0;
  std::vector<StoredPosition> stored;
  std::vector<WalkNode> next;
};

/// The walk saved under `checkpoint`, nullopt when there is none. Throws InputError when there
/// is one but no `resume`, or it is of another build; FileError when a file is damaged.
std::optional<SavedWalk> read_walk_checkpoint(const WalkCheckpoint& checkpoint);

/// Saves that plies 0..ply-1 are done: `expanded` is ply ply-1's positions (none when `ply` is
/// 0), `next` the positions ply `ply` is to expand.
void save_walk_ply(const WalkCheckpoint& checkpoint, int ply,
                   const std::vector<StoredPosition>& expanded, const std::vector<WalkNode>& next);

/// Removes a walk's checkpoint files, then the directory if that leaves it empty.
void remove_walk_checkpoint(const std::filesystem::path& directory);

}  // namespace rastros
