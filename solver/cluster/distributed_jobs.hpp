#pragma once
// Maps and batches spread over the ranks of an MPI job (`mpirun -np K rastros map|batch`),
// producing exactly what the single-process versions produce. Items are dealt dynamically
// (cluster/work_dealer.hpp): a start square per item for maps, a chunk of lines for batches.
// Every rank keeps its own solver(s) and table(s); the root alone reads the input, writes the
// output and the checkpoints.

#include <boost/mpi/communicator.hpp>

#include "batch/batch_runner.hpp"
#include "search/start_map.hpp"

namespace rastros::cluster {

/// solve_start_map over the ranks. `control.known`, `on_solved` and `stop` are used on the root
/// only. Returns the squares in square order on the root (only those solved, after a stop);
/// nothing on the other ranks.
std::vector<StartSquareOutcome> solve_start_map_distributed(const boost::mpi::communicator& world,
                                                            const Rastros& rastros, Solver& solver,
                                                            const StartMapControl& control);

/// run_batch over the ranks. `reader`, `cursor`, `callbacks.commit` and `stop` are used on the
/// root only (pass any reader elsewhere); `callbacks.format` runs on every rank. Chunks are
/// committed in input order. Returns the final cursor on the root.
BatchCursor run_batch_distributed(const boost::mpi::communicator& world, LineReader& reader,
                                  BatchCursor cursor, const BatchOptions& options,
                                  BatchSolvers& solvers, const BatchCallbacks& callbacks,
                                  const std::atomic<bool>& stop);

}  // namespace rastros::cluster
