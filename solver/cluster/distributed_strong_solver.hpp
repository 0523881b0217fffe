#pragma once
// Strong solving over the ranks of an MPI job (`mpirun -np K rastros solve --db FILE`).
//
// Each position belongs to one rank, chosen by a hash of its key, and only that rank stores it,
// so the layers' memory divides by K. Layer by layer, as in retro/strong_solver.hpp:
//   forward   each rank expands the keys it owns and sends every child to the child's owner
//             (one all-to-all exchange per layer);
//   backward  each rank asks the owners for the records of its keys' children (all-to-all of
//             the requested keys, then of the records), then values its keys.
// At the end the root gathers every rank's keys and records into the one sorted table (the
// database file needs it whole; the root's memory is the table's, 19 bytes a position, while
// solving takes 16 bytes a position divided over the ranks).
// The table equals the one-process solve's, record for record.

#include <boost/mpi/communicator.hpp>
#include <functional>
#include <string>

#include "retro/strong_solver.hpp"

namespace rastros::cluster {

/// Runs on every rank. Returns the whole table on the root, an empty one elsewhere.
/// `progress` is called on the root only.
StrongTable solve_strong_distributed(const boost::mpi::communicator& world, const Rastros& rastros,
                                     const std::function<void(const std::string&)>& progress = {});

}  // namespace rastros::cluster
