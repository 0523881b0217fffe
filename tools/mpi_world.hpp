#pragma once
// The MPI job the command runs in, when it was started by mpirun (or srun) in a build with
// MPI; otherwise a single process. Commands that can spread work over ranks (map, batch) ask
// for the communicator; every other command runs on the root alone.

#include <cstdint>
#include <memory>

#ifdef RASTROS_HAVE_MPI
#include <boost/mpi/communicator.hpp>
#endif

namespace rastros::tools {

/// Starts MPI when the environment shows an MPI launcher (mpirun, srun); no-op otherwise.
/// Lives for the whole of main().
class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

 private:
  std::shared_ptr<void> environment_;
};

/// Whether an MPI launcher started this process as one of several ranks: from the environment
/// (a world size above 1, or a rank above 0; PMIx tells only the rank), so that a build without
/// MPI can refuse to run as N copies of the whole job writing the same output.
bool launched_as_one_of_several_ranks();

/// This process's rank (0 without MPI) and the number of ranks (1 without MPI).
int mpi_rank();
int mpi_size();
/// Ranks sharing this machine (1 without MPI): the default thread count divides the cores
/// among them.
int mpi_ranks_on_this_machine();
/// The sum of `value` over all ranks, on the root (the value itself without MPI).
std::uint64_t mpi_sum_on_root(std::uint64_t value);
/// Ends every rank of the job after an error on one of them (no-op without MPI).
[[noreturn]] void mpi_abort(int status);

#ifdef RASTROS_HAVE_MPI
/// The job's communicator; valid only when mpi_size() > 1.
const boost::mpi::communicator& mpi_world();
#endif

}  // namespace rastros::tools
