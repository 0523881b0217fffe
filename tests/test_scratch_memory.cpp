// Scratch memory (core/scratch_memory.hpp): large blocks become mapped files, unlinked at once,
// in the directory set; small ones and everything without a directory stay in memory; an
// Oware database whose levels are solved in scratch files is the one solved in memory.

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/scratch_memory.hpp"
#include "games/oware/oware_database.hpp"
#include "temporary_directory.hpp"

namespace rastros::scratch_test {
namespace {

// Sets the scratch directory while it lives, none after.
class ScratchIn {
 public:
  explicit ScratchIn(const std::filesystem::path& directory,
                     std::size_t min_bytes = kScratchMinBytes) {
    set_scratch_directory(directory, min_bytes);
  }
  ~ScratchIn() { set_scratch_directory({}); }
  ScratchIn(const ScratchIn&) = delete;
  ScratchIn& operator=(const ScratchIn&) = delete;
};

// The lines of /proc/self/maps that map a deleted file under `directory`.
int deleted_mappings_in(const std::filesystem::path& directory) {
  std::ifstream maps("/proc/self/maps");
  int found = 0;
  for (std::string line; std::getline(maps, line);) {
    found += line.find(directory.string()) != std::string::npos &&
             line.find("(deleted)") != std::string::npos;
  }
  return found;
}

TEST(ScratchMemory, LargeBlocksAreUnlinkedFilesInTheDirectory) {
  const TemporaryDirectory directory("rastros-scratch-test");
  const ScratchIn scratch(directory.path());
  EXPECT_EQ(scratch_directory(), directory.path());
  {
    std::vector<std::uint32_t, ScratchAllocator<std::uint32_t>> large(kScratchMinBytes);
    std::vector<std::uint32_t, ScratchAllocator<std::uint32_t>> small(16);
    EXPECT_TRUE(scratch_is_mapped(large.data()));
    EXPECT_FALSE(scratch_is_mapped(small.data()));
    EXPECT_EQ(deleted_mappings_in(directory.path()), 1);
    EXPECT_TRUE(directory.listing().empty());  // unlinked as soon as made
    for (std::size_t i = 0; i < large.size(); i += 4096) large[i] = static_cast<std::uint32_t>(i);
    for (std::size_t i = 0; i < large.size(); i += 4096) ASSERT_EQ(large[i], i);
    large.resize(3 * kScratchMinBytes);  // a new block, the old one given back
    EXPECT_TRUE(scratch_is_mapped(large.data()));
    EXPECT_EQ(large[4096], 4096u);
    EXPECT_EQ(deleted_mappings_in(directory.path()), 1);
  }
  EXPECT_EQ(deleted_mappings_in(directory.path()), 0);
}

TEST(ScratchMemory, WithoutADirectoryBlocksStayInMemory) {
  std::vector<std::uint8_t, ScratchAllocator<std::uint8_t>> large(2 * kScratchMinBytes, 7);
  EXPECT_FALSE(scratch_is_mapped(large.data()));
  EXPECT_EQ(large.back(), 7);
}

TEST(ScratchMemory, AMissingDirectoryOrAFileIsRefused) {
  const TemporaryDirectory directory("rastros-scratch-test");
  EXPECT_THROW(set_scratch_directory(directory.path() / "missing"), InputError);
  std::ofstream(directory.path() / "file") << "x";
  EXPECT_THROW(set_scratch_directory(directory.path() / "file"), InputError);
  EXPECT_TRUE(scratch_directory().empty());
}

TEST(ScratchMemory, AnOwareDatabaseSolvedInScratchFilesIsTheSame) {
  const oware::Oware game(6, 1);
  const int max_seeds = 9;
  oware::BuildOptions generated;
  generated.level_memory = 0;
  const oware::OwareDatabase in_memory = oware::OwareDatabase::build(game, max_seeds, generated);
  const TemporaryDirectory directory("rastros-scratch-test");
  const ScratchIn scratch(directory.path(), 4096);  // level 9 holds 167,960 boards
  const std::uint64_t before = scratch_blocks_mapped();
  const oware::OwareDatabase in_files = oware::OwareDatabase::build(game, max_seeds, generated);
  EXPECT_GT(scratch_blocks_mapped(), before + 20);
  for (int seeds = 0; seeds <= max_seeds; ++seeds) {
    for (std::uint64_t rank = 0; rank < game.level_size(seeds); ++rank) {
      ASSERT_EQ(in_files.score_at(seeds, rank), in_memory.score_at(seeds, rank)) << seeds;
    }
  }
  EXPECT_TRUE(directory.listing().empty());
}

}  // namespace
}  // namespace rastros::scratch_test
