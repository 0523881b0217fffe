#pragma once
// One block of memory shared by the ranks of an MPI job that run on the same machine (MPI-3
// shared-memory windows), for a transposition table they all search with.
//
// Under `mpirun -np K rastros map` each rank used to search with a table of its own, so the K
// ranks of one machine re-searched what one table shared by K threads reuses: the 7x7
// value-only map took 98.1 M nodes on two ranks against 86.4 M on one. The table is lock-free
// and its slots are checked against torn writes (search/transposition_table.hpp), so processes
// can share it as threads do. Ranks on other machines get their own block: a cluster of
// single-rank nodes is unchanged.

#include <mpi.h>

#include <boost/mpi/communicator.hpp>
#include <cstddef>

namespace rastros::cluster {

class NodeSharedMemory {
 public:
  /// Collective over `world`. Every rank gets a zero-filled, 64-byte aligned block of `bytes`
  /// shared with the other ranks on its machine, or, when the machine's shared-memory file
  /// systems (/dev/shm and the temporary directory) have less than twice `bytes` free,
  /// data() == nullptr on all of that machine's ranks: they fall back to tables of their own.
  /// RASTROS_SHARED_TABLE=0 in the first rank's environment asks for that fallback too.
  NodeSharedMemory(const boost::mpi::communicator& world, std::size_t bytes);
  /// Leaves the window alone: freeing it is collective, and an error on one rank must not
  /// leave it waiting here for ranks that are still working (the job then ends by MPI_Abort).
  ~NodeSharedMemory() = default;
  NodeSharedMemory(const NodeSharedMemory&) = delete;
  NodeSharedMemory& operator=(const NodeSharedMemory&) = delete;

  void* data() const { return data_; }

  /// Collective over the ranks of this machine, once they are all done with the block.
  void release();

 private:
  MPI_Comm node_ = MPI_COMM_NULL;  // this machine's ranks
  MPI_Win window_ = MPI_WIN_NULL;
  void* data_ = nullptr;
};

}  // namespace rastros::cluster
