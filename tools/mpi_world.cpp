#include "mpi_world.hpp"

#include <cstdlib>
#include <iostream>

#ifdef RASTROS_HAVE_MPI
#include <mpi.h>

#include <boost/mpi/collectives/reduce.hpp>
#include <boost/mpi/environment.hpp>
#include <functional>
#endif

namespace rastros::tools {
namespace {

int rank = 0;
int size = 1;
int local_size = 1;

#ifdef RASTROS_HAVE_MPI
// mpirun (Open MPI, MPICH) and srun set these in every rank's environment.
bool launched_by_mpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"}) {
    if (std::getenv(name)) return true;
  }
  return false;
}

std::unique_ptr<boost::mpi::communicator> world;
#endif

}  // namespace

MpiSession::MpiSession([[maybe_unused]] int& argc, [[maybe_unused]] char**& argv) {
#ifdef RASTROS_HAVE_MPI
  if (!launched_by_mpi()) return;
  // Serialized: on the root, the work dealer's thread talks to MPI while the main thread
  // computes (cluster/work_dealer.hpp); never two threads at once.
  auto environment = std::make_shared<boost::mpi::environment>(
      argc, argv, boost::mpi::threading::serialized, true);
  environment_ = environment;
  world = std::make_unique<boost::mpi::communicator>();
  rank = world->rank();
  size = world->size();
  MPI_Comm local;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local);
  MPI_Comm_size(local, &local_size);
  MPI_Comm_free(&local);
#else
  // Without MPI every rank would run the whole job on its own, each writing the same output.
  if (launched_as_one_of_several_ranks()) {
    std::cerr << "rastros: this build has no MPI (CMake option RASTROS_MPI was off): run it "
                 "without mpirun, or rebuild it with Open MPI and Boost.MPI installed\n";
    std::exit(2);
  }
#endif
}

MpiSession::~MpiSession() {
#ifdef RASTROS_HAVE_MPI
  world.reset();
#endif
}

bool launched_as_one_of_several_ranks() {
  const auto above = [](const char* name, long limit) {
    const char* text = std::getenv(name);
    return text && std::strtol(text, nullptr, 10) > limit;
  };
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MPI_LOCALNRANKS"}) {
    if (above(name, 1)) return true;
  }
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"}) {
    if (above(name, 0)) return true;
  }
  return false;
}

int mpi_rank() {
  return rank;
}
int mpi_size() {
  return size;
}
int mpi_ranks_on_this_machine() {
  return local_size;
}

std::uint64_t mpi_sum_on_root(std::uint64_t value) {
#ifdef RASTROS_HAVE_MPI
  if (size > 1) {
    std::uint64_t sum = 0;
    boost::mpi::reduce(*world, value, sum, std::plus<std::uint64_t>(), 0);
    return sum;
  }
#endif
  return value;
}

void mpi_abort(int status) {
#ifdef RASTROS_HAVE_MPI
  if (size > 1) MPI_Abort(MPI_COMM_WORLD, status);
#endif
  std::exit(status);
}

#ifdef RASTROS_HAVE_MPI
const boost::mpi::communicator& mpi_world() {
  return *world;
}
#endif

}  // namespace rastros::tools
