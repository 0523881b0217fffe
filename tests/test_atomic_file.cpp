// core/atomic_file.hpp: a failed write throws and leaves no temporary file and the old contents;
// a successful one leaves only the final file. (Kills at random moments: crash_safety_test.sh.)

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

#include "core/atomic_file.hpp"
#include "temporary_directory.hpp"

namespace rastros {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<unsigned char>;

class AtomicFileTest : public ::testing::Test {
 protected:
  std::vector<std::string> listing() const { return temporary_.listing(); }
  TemporaryDirectory temporary_{"rastros-atomic-test"};
  const fs::path& directory_ = temporary_.path();
};

Bytes read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST_F(AtomicFileTest, ReplacesTheFileAndLeavesNothingElse) {
  const Bytes first = {1, 2, 3};
  const Bytes second(100000, 7);
  write_file_atomically(directory_ / "f", first, "test file");
  write_file_atomically(directory_ / "f", second, "test file");
  EXPECT_EQ(read_bytes(directory_ / "f"), second);
  EXPECT_EQ(listing(), std::vector<std::string>{"f"});
}

TEST_F(AtomicFileTest, FailedRenameLeavesNoTemporaryFile) {
  // The final name is a non-empty directory: everything succeeds up to the rename.
  fs::create_directories(directory_ / "f" / "inside");
  try {
    write_file_atomically(directory_ / "f", Bytes{1, 2, 3}, "test file");
    FAIL() << "the write should have failed";
  } catch (const std::system_error& error) {
    EXPECT_NE(std::string(error.what()).find("rename"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("test file"), std::string::npos) << error.what();
  }
  EXPECT_EQ(listing(), std::vector<std::string>{"f"});
  EXPECT_TRUE(fs::is_directory(directory_ / "f" / "inside"));
}

TEST_F(AtomicFileTest, UnwritableDirectoryLeavesTheOldFile) {
  write_file_atomically(directory_ / "f", Bytes{1, 2, 3}, "test file");
  fs::permissions(directory_, fs::perms::owner_read | fs::perms::owner_exec);
  if (::access(directory_.c_str(), W_OK) == 0) {
    GTEST_SKIP() << "running as root: permissions do not stop the write";
  }
  EXPECT_THROW(write_file_atomically(directory_ / "f", Bytes{4, 5}, "test file"),
               std::system_error);
  EXPECT_EQ(listing(), std::vector<std::string>{"f"});
  EXPECT_EQ(read_bytes(directory_ / "f"), (Bytes{1, 2, 3}));
}

TEST_F(AtomicFileTest, MissingDirectoryCreatesNothing) {
  EXPECT_THROW(write_file_atomically(directory_ / "no" / "f", Bytes{1}, "test file"),
               std::system_error);
  EXPECT_EQ(listing(), std::vector<std::string>{});
}

}  // namespace
}  // namespace rastros
