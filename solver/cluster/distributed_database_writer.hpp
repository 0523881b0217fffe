#pragma once
// Writing one database file from runs of it held by the ranks of an MPI job, without any rank
// holding the whole (the distributed strong solve's last step).
//
// Rank r holds the r-th run of consecutive keys (rank 0 the smallest; a run may be empty).
//   1. Each rank encodes its run's three payload columns (db/database_file.hpp), its first key
//      relative to the last key of the nearest rank before it that holds any.
//   2. The payload is the keys columns of all ranks end to end, then the values, then the
//      moves. Its 1 MiB deflate pieces (core/parallel_deflate.hpp) are dealt out in groups of
//      consecutive pieces, group g to rank g mod K: the columns do not deflate at the same
//      speed (the values and moves take about twice as long a byte as the keys), so each rank
//      gets some of each. One all-to-all exchange brings each rank the payload bytes of its
//      groups (and the 32 KiB before each), and it deflates them on its threads.
//   3. The root gathers the deflated groups (or, when deflating does not pay, the columns),
//      combines their Adler-32s, frames the file and writes it atomically.
// The file is byte for byte what write_database writes for the whole database in one process.
// What crosses the network is the payload, about 3.4 bytes a position on 6x5, and the
// deflated file on its way to the root. A rank holds its run until it is encoded, then its
// columns and its groups' windows; the root also holds the deflated file (1 byte a position
// on 6x5), twice while it frames it.

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
/// whole database's position count on every rank. Throws std::length_error on every rank when a
/// rank's share of the payload exceeds what one MPI message carries (2^31 bytes: use more ranks),
/// and on the root what write_database throws.
std::uint64_t write_database_distributed(const boost::mpi::communicator& world,
                                         const std::filesystem::path& path,
                                         const DatabaseHeader& header, DatabaseRun& run);

}  // namespace rastros::cluster
