#pragma once
// Writing one database file from runs of it held by the ranks of an MPI job, without any rank
// holding the whole (the distributed strong solve's last step).
//
// Rank r holds the r-th run of consecutive keys (rank 0 the smallest; a run may be empty).
//   1. Each rank encodes its run's three payload columns (db/database_file.hpp), its first key
//      relative to the last key of the nearest rank before it that holds any.
//   2. The payload is the keys columns of all ranks end to end, then the values, then the
//      moves. Its 1 MiB deflate pieces (core/parallel_deflate.hpp) are dealt out in K
//      consecutive shares; one all-to-all exchange brings each rank the payload bytes of its
//      share (and the 32 KiB before it), and it deflates them on its threads.
//   3. The root gathers the deflated shares (or, when deflating does not pay, the columns),
//      combines the shares' Adler-32s, frames the file and writes it atomically.
// The file is byte for byte what write_database writes for the whole database in one process.
// What crosses the network is the payload, about 3.4 bytes a position on 6x5, and the
// deflated file on its way to the root; no rank holds more than its run and its share.

#include <boost/mpi/communicator.hpp>
#include <filesystem>

#include "db/database_file.hpp"

namespace rastros::cluster {

/// Runs on every rank. `run` is this rank's run of the database (its header names the whole
/// database's game and kind; its position count is the run's). The root writes `path`.
/// Returns the whole database's position count on every rank. Throws std::length_error on
/// every rank when a rank's share of the payload exceeds what one MPI message carries
/// (2^31 bytes: use more ranks), and on the root what write_database throws.
std::uint64_t write_database_distributed(const boost::mpi::communicator& world,
                                         const std::filesystem::path& path, const Database& run);

}  // namespace rastros::cluster
