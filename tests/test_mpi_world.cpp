// The MPI launcher as the tools see it from the environment (tools/mpi_world.hpp): a build
// without MPI refuses to run as one of several ranks, each of which would do the whole job.

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mpi_world.hpp"

namespace rastros::tools {
namespace {

// The variables MPI launchers set, cleared for the test's scope and restored after it.
class LauncherEnvironment {
 public:
  LauncherEnvironment() {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "PMI_SIZE", "PMI_RANK",
                             "PMIX_RANK", "MPI_LOCALNRANKS"}) {
      const char* value = std::getenv(name);
      saved_.emplace_back(name, value ? std::optional<std::string>(value) : std::nullopt);
      unsetenv(name);
    }
  }
  ~LauncherEnvironment() {
    for (const auto& [name, value] : saved_) {
      if (value) {
        setenv(name.c_str(), value->c_str(), 1);
      } else {
        unsetenv(name.c_str());
      }
    }
  }
  LauncherEnvironment(const LauncherEnvironment&) = delete;
  LauncherEnvironment& operator=(const LauncherEnvironment&) = delete;

 private:
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

TEST(MpiWorld, NoLauncherIsOneProcess) {
  const LauncherEnvironment environment;
  EXPECT_FALSE(launched_as_one_of_several_ranks());
}

TEST(MpiWorld, ASingleRankIsOneProcess) {
  const LauncherEnvironment environment;
  setenv("OMPI_COMM_WORLD_SIZE", "1", 1);
  setenv("OMPI_COMM_WORLD_RANK", "0", 1);
  setenv("PMIX_RANK", "0", 1);
  EXPECT_FALSE(launched_as_one_of_several_ranks());
}

TEST(MpiWorld, SeveralRanksAreSeenByEveryLauncher) {
  for (const auto& [name, value] : std::vector<std::pair<const char*, const char*>>{
           {"OMPI_COMM_WORLD_SIZE", "2"},  // Open MPI's mpirun, every rank
           {"OMPI_COMM_WORLD_RANK", "3"},
           {"PMI_SIZE", "4"},  // MPICH's hydra, srun with PMI-2
           {"PMI_RANK", "1"},
           {"PMIX_RANK", "1"},  // PMIx (srun --mpi=pmix): the rank only
           {"MPI_LOCALNRANKS", "2"}}) {
    const LauncherEnvironment environment;
    setenv(name, value, 1);
    EXPECT_TRUE(launched_as_one_of_several_ranks()) << name << "=" << value;
  }
}

}  // namespace
}  // namespace rastros::tools
