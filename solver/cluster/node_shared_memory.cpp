#include "cluster/node_shared_memory.hpp"

#include <sys/statvfs.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace rastros::cluster {
namespace {

constexpr std::size_t kAlignment = 64;  // a table bucket

/// Free bytes of the file system holding `path` (0 when it cannot be asked).
std::uint64_t free_bytes(const char* path) {
  struct statvfs status {};
  if (statvfs(path, &status) != 0) return 0;
  return std::uint64_t{status.f_bavail} * status.f_frsize;
}

/// Whether the machine can back `bytes` of shared memory: Open MPI maps its shared segments
/// from files in /dev/shm or the temporary directory, and a page it cannot back is a SIGBUS
/// on first touch, not an error, so room is checked before.
bool room_for(std::size_t bytes) {
  const char* temporary = std::getenv("TMPDIR");
  const std::uint64_t needed = 2 * std::uint64_t{bytes};
  return free_bytes("/dev/shm") >= needed &&
         free_bytes(temporary && *temporary ? temporary : "/tmp") >= needed;
}

}  // namespace

NodeSharedMemory::NodeSharedMemory(const boost::mpi::communicator& world, std::size_t bytes) {
  MPI_Comm_split_type(static_cast<MPI_Comm>(world), MPI_COMM_TYPE_SHARED, world.rank(),
                      MPI_INFO_NULL, &node_);
  int node_rank = 0;
  int node_size = 1;
  MPI_Comm_rank(node_, &node_rank);
  MPI_Comm_size(node_, &node_size);
  const char* wanted = std::getenv("RASTROS_SHARED_TABLE");  // "0": every rank its own table
  const bool refused = wanted && std::string(wanted) == "0";
  int share = node_size > 1 && node_rank == 0 && !refused && room_for(bytes + kAlignment) ? 1 : 0;
  MPI_Bcast(&share, 1, MPI_INT, 0, node_);
  if (!share) return;
  // The machine's first rank holds the block; the others map it.
  void* base = nullptr;
  const MPI_Aint size = node_rank == 0 ? static_cast<MPI_Aint>(bytes + kAlignment) : 0;
  MPI_Win_allocate_shared(size, 1, MPI_INFO_NULL, node_, &base, &window_);
  MPI_Aint held = 0;
  int unit = 0;
  MPI_Win_shared_query(window_, 0, &held, &unit, &base);
  const auto address = reinterpret_cast<std::uintptr_t>(base);
  data_ = reinterpret_cast<void*>((address + kAlignment - 1) & ~std::uintptr_t{kAlignment - 1});
  if (node_rank == 0) std::memset(data_, 0, bytes);
  MPI_Barrier(node_);  // no rank reads the block before it is zeroed
}

void NodeSharedMemory::release() {
  if (window_ != MPI_WIN_NULL) MPI_Win_free(&window_);
  if (node_ != MPI_COMM_NULL) MPI_Comm_free(&node_);
  data_ = nullptr;
}

}  // namespace rastros::cluster
