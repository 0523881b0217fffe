#pragma once
// Strong solving over the ranks of an MPI job (`mpirun -np K rastros solve --db FILE`).
//
// Each position belongs to one rank, chosen by a hash of its key, and only that rank stores it,
// so the layers' memory divides by K. Layer by layer, as in retro/strong_solver.hpp:
//   forward   each rank expands the keys it owns, 2^19 at a time, and sends every child to the
//             child's owner (one all-to-all exchange per chunk); what a rank receives joins its
//             layers as sorted duplicate-free runs (retro/sorted_layer.hpp);
//   backward  each rank lists its keys' children once: the records of those it owns are looked
//             up at once, the others are asked of their owners (all-to-all of the requested
//             keys, each asked once a block of keys, then of the records); then it values its
//             keys from the list.
// Within a rank, the expansion of a chunk, the listing of children (by blocks of keys), the
// answers to requests and the valuing run on all of the rank's threads (TBB).
// At the end the positions are redistributed by key range (K - 1 bounds, quantiles of a sample
// of every rank's keys): each rank sends each layer's part in the r-th range to rank r, one
// all-to-all exchange. The sorted runs a rank receives are its run of the database, merged as
// the ranks write the file together (cluster/distributed_database_writer.hpp). The exchange
// goes a layer at a time, each layer freed once sent, so a rank holds its 16 bytes a position
// once, plus one layer in flight. No rank ever holds the whole table.
// The runs end to end equal the one-process solve's, record for record.

#include <boost/mpi/communicator.hpp>
#include <filesystem>
#include <functional>
#include <string>

#include "cluster/distributed_database_writer.hpp"
#include "retro/sorted_layer.hpp"
#include "retro/strong_solver.hpp"

namespace rastros::cluster {

/// One rank's run of a distributed strong solve's table: the positions of the rank-th of K
/// consecutive key ranges (rank 0 the smallest keys), held as the sorted runs the ranks sent
/// it, one a rank and layer, and merged as they are visited (a merge the rank would otherwise
/// make into arrays, only to read them once); and the whole table's statistics.
class StrongTableRun final : public DatabaseRun {
 public:
  StrongTableRun() = default;
  /// `entries` holds the runs end to end; run i is [run_starts[i], run_starts[i + 1]).
  StrongTableRun(std::vector<LayerEntry> entries, std::vector<std::size_t> run_starts,
                 StrongSolveStats stats);

  std::uint64_t size() const override { return entries_.size(); }
  PackedPosition last_key() const override;
  void for_each(const Visit& visit) const override;
  void release() override;
  const StrongSolveStats& stats() const { return stats_; }
  StrongSolveStats& stats() { return stats_; }

 private:
  std::vector<LayerEntry> entries_;
  std::vector<std::size_t> run_starts_;
  StrongSolveStats stats_;
};

/// Runs on every rank. Returns this rank's run of the table, with the whole table's
/// statistics. `progress` is called on the root only.
///
/// Checkpoints (`control.checkpoint_directory`, which every rank must see: a shared file
/// system on a cluster): after each valued layer every rank saves the records it owns in
/// DIR/rank-R/ (retro/layer_checkpoint.hpp's layer files), then, once all have, the root
/// records in DIR/strong.checkpoint how many layers are valued and on how many ranks. A resume
/// needs the same number of ranks (a position's owner depends on it); the forward pass is
/// redone and each rank reads its own layers back. The stop flag is checked between layers
/// on every rank and the ranks agree (any rank stopped: all stop, SolveStopped everywhere).
/// Errors reading a checkpoint are agreed on too: every rank throws, the one that found the
/// problem with its message.
StrongTableRun solve_strong_distributed(
    const boost::mpi::communicator& world, const Rastros& rastros,
    const std::function<void(const std::string&)>& progress = {},
    const StrongSolveControl& control = {});

/// Removes a distributed strong solve's checkpoint (the state file, then every rank's layers).
void remove_distributed_strong_checkpoint(const std::filesystem::path& directory);

}  // namespace rastros::cluster
