#pragma once
// Checkpoints of a long proof-number search (`rastros solve --algorithm proof-number
// --checkpoint DIR`), so that a run of hours survives Ctrl-C, SIGTERM, a crash or a reboot.
//
// df-pn keeps its whole state in its table: every finished result (proven, disproven, or
// proof and disproof numbers of a finished visit) is there, and a search restarted from the
// root on that table walks straight back down to where the work stopped. So the checkpoint is
//   DIR/search.table.N     the table's memory, raw, written atomically (core/atomic_file.hpp);
//                          N counts the saves
//   DIR/search.checkpoint  a text checkpoint (core/checkpoint_file.hpp), written after the
//                          table: what is being solved ("search": board, steps, rules, start,
//                          position, table size), the nodes so far, the elapsed seconds, and
//                          the name, size and CRC-32 of the table file it goes with.
// Only once the new text checkpoint is in place are older table files removed, so a crash at
// any moment leaves a consistent pair (the disk holds two tables during a save, and after a
// kill between its two writes until the next save). The identity includes the table layout's
// version, so a table of another layout is never read as this one. Saves happen every
// few minutes of search time, at points where the table holds only finished results.

#include <cstdint>
#include <filesystem>
#include <string>

#include "search/proof_number_search.hpp"

namespace rastros {

struct SearchProgress {
  std::uint64_t nodes = 0;
  double seconds = 0;
};

class SearchCheckpoint {
 public:
  /// `identity` names the search (what a resume must match). Creates `directory`. Without
  /// `resume`, a directory that already holds a checkpoint is refused (InputError).
  SearchCheckpoint(std::filesystem::path directory, std::string identity, bool resume);

  /// With --resume: loads the saved table into `search` and returns the progress it records,
  /// or a zero progress when there is nothing saved yet. Throws InputError when the checkpoint
  /// is of another search, FileError when it is damaged (checksum, size, fields).
  SearchProgress restore(ProofNumberSearch& search) const;

  /// Saves `search`'s table, then the text checkpoint. Throws std::system_error on I/O failure.
  void save(const ProofNumberSearch& search, const SearchProgress& progress) const;

  /// Removes the checkpoint once the search has finished (and the directory, when empty).
  /// Never throws: the answer matters more than the clean-up.
  void remove() const;

  const std::filesystem::path& directory() const { return directory_; }

 private:
  std::filesystem::path directory_;
  std::filesystem::path state_path_;
  void remove_tables_except(const std::string& kept) const;

  std::string identity_;
  mutable std::uint64_t generation_ = 0;  // N of the last table saved or restored
};

}  // namespace rastros
