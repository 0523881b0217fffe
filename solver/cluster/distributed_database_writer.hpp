#pragma once
// Writing one database file from runs of it held by the ranks of an MPI job, without any rank
// holding the whole (the distributed strong solve's last step).
//
// Rank r holds the r-th run of consecutive keys (rank 0 the smallest; a run may be empty). The
// file's blocks (db/database_file.hpp) hold kDatabaseBlockPositions positions each, counted from
// the first position of the whole database, so a block may begin in one rank's run and end in
// the next ones'.
//   1. The ranks share their run sizes (where each run starts in the whole) and last keys.
//   2. Each rank encodes the columns of the blocks that begin in its run. The positions at the
//      head of its run that belong to a block begun by an earlier rank (fewer than a block) are
//      shared with every rank in one all-gather; the rank whose run holds that block's start
//      appends them, in rank order, to its last block.
//   3. Each rank deflates its blocks on its threads, and the root gathers the stored blocks,
//      frames the file and writes it atomically.
// The file is byte for byte what write_database writes for the whole database in one process.
// What crosses the network is the heads (under a block a rank) and the stored blocks on their
// way to the root. A rank holds its run until it is encoded, then its blocks' columns (about
// 3.4 bytes a position on 6x5) and stored blocks; the root also holds the stored file (1 byte a
// position on 6x5), twice while it frames it.

#include <boost/mpi/communicator.hpp>
#include <cstdint>
#include <filesystem>
#include <functional>

#include "db/database_file.hpp"

namespace rastros::cluster {

/// One rank's run of the database being written.
class DatabaseRun {
 public:
  using Visit = std::function<void(const PackedPosition& key, const DatabaseRecord& record)>;

  virtual ~DatabaseRun() = default;
  /// Positions in the run.
  virtual std::uint64_t size() const = 0;
  /// The run's largest key; asked only when the run is not empty.
  virtual PackedPosition last_key() const = 0;
  /// Calls `visit` for every position of the run, in increasing key order.
  virtual void for_each(const Visit& visit) const = 0;
  /// Frees the run's memory: the writer has encoded it and needs it no more.
  virtual void release() = 0;
};

/// Runs on every rank. `header` describes the whole database (its position count is ignored:
/// the file gets the runs' total). The run is released once encoded. The root writes `path`.
/// Throws std::invalid_argument, before anything is written, when a run's keys are not
/// increasing or a record is out of range (what the Database constructor refuses). Returns the
/// whole database's position count on every rank. Throws on the root what write_database throws.
std::uint64_t write_database_distributed(const boost::mpi::communicator& world,
                                         const std::filesystem::path& path,
                                         const DatabaseHeader& header, DatabaseRun& run);

}  // namespace rastros::cluster
