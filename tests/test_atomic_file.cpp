// core/atomic_file.hpp: a failed write throws and leaves no temporary file and the old contents;
// a successful one leaves only the final file. (Kills at random moments: crash_safety_test.sh.)

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "file_size_limit.hpp"
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

TEST_F(AtomicFileTest, RefusesToReplaceWhatIsNotARegularFile) {
  // A directory, a named pipe: the rename would replace them, not write to them. Refused before
  // any temporary file is made, as bad input (InputError).
  fs::create_directories(directory_ / "d" / "inside");
  ASSERT_EQ(::mkfifo((directory_ / "pipe").c_str(), 0600), 0);
  for (const char* name : {"d", "pipe"}) {
    try {
      write_file_atomically(directory_ / name, Bytes{1, 2, 3}, "test file");
      FAIL() << name << ": the write should have been refused";
    } catch (const InputError& error) {
      EXPECT_NE(std::string(error.what()).find("test file"), std::string::npos) << error.what();
    }
  }
  EXPECT_EQ(listing(), (std::vector<std::string>{"d", "pipe"}));
  EXPECT_TRUE(fs::is_directory(directory_ / "d" / "inside"));
  EXPECT_TRUE(fs::is_fifo(directory_ / "pipe"));
  // Through a link too, and through /proc, even to a regular file (/dev/stdout redirected to
  // one): the descriptor's file is not for replacing.
  fs::create_symlink("pipe", directory_ / "link-to-pipe");
  EXPECT_THROW(write_file_atomically(directory_ / "link-to-pipe", Bytes{1}, "test file"),
               InputError);
  EXPECT_TRUE(fs::is_fifo(directory_ / "pipe"));
  const fs::path regular = directory_ / "regular";
  write_file_atomically(regular, Bytes{1, 2}, "test file");
  const int fd = ::open(regular.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  fs::create_symlink("/proc/self/fd/" + std::to_string(fd), directory_ / "link-to-descriptor");
  EXPECT_THROW(write_file_atomically(directory_ / "link-to-descriptor", Bytes{3}, "test file"),
               InputError);
  ::close(fd);
  EXPECT_EQ(read_bytes(regular), (Bytes{1, 2}));
}

TEST_F(AtomicFileTest, WritesThroughASymbolicLink) {
  // The link stays; the file it names (not written yet, then replaced) holds the bytes.
  fs::create_directory_symlink(directory_, directory_ / "here");
  fs::create_symlink("here/target", directory_ / "link");
  write_file_atomically(directory_ / "link", Bytes{1, 2}, "test file");
  write_file_atomically(directory_ / "link", Bytes{3}, "test file");
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(directory_ / "link")));
  EXPECT_EQ(read_bytes(directory_ / "target"), Bytes{3});
  EXPECT_EQ(listing(), (std::vector<std::string>{"here", "link", "target"}));
  fs::create_symlink("loop", directory_ / "loop");
  EXPECT_THROW(write_file_atomically(directory_ / "loop", Bytes{1}, "test file"), InputError);
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

TEST_F(AtomicFileTest, WriterShowsTheFileOnlyOnceCommitted) {
  write_file_atomically(directory_ / "out", Bytes{9}, "test file");
  {
    AtomicFileWriter writer(directory_ / "out", "output");
    writer.write(std::string_view("first line\n"));
    writer.write(Bytes(70000, 'x'));
    // Written but not committed: the old contents stay under the final name.
    EXPECT_EQ(read_bytes(directory_ / "out"), Bytes{9});
    EXPECT_EQ(listing().size(), 2u);  // and the temporary file beside it
    writer.commit();
  }
  Bytes expected = {'f', 'i', 'r', 's', 't', ' ', 'l', 'i', 'n', 'e', '\n'};
  expected.insert(expected.end(), 70000, 'x');
  EXPECT_EQ(read_bytes(directory_ / "out"), expected);
  EXPECT_EQ(listing(), std::vector<std::string>{"out"});
}

TEST_F(AtomicFileTest, WriterDroppedBeforeCommitLeavesTheOldFile) {
  write_file_atomically(directory_ / "out", Bytes{9}, "test file");
  {
    AtomicFileWriter writer(directory_ / "out", "output");
    writer.write(std::string_view("half of it"));
  }  // an exception or a stop on the way: never committed
  EXPECT_EQ(read_bytes(directory_ / "out"), Bytes{9});
  EXPECT_EQ(listing(), std::vector<std::string>{"out"});
}

TEST_F(AtomicFileTest, FailedRenameThrowsAndLeavesNoTemporaryFile) {
  // The final name turns into a directory with something in it while the file is written:
  // the rename itself fails (a file cannot replace a directory).
  AtomicFileWriter writer(directory_ / "out", "output");
  writer.write(std::string_view("results"));
  fs::create_directory(directory_ / "out");
  std::ofstream(directory_ / "out" / "inside") << "kept";
  try {
    writer.commit();
    ADD_FAILURE() << "the rename should have failed";
  } catch (const std::system_error& error) {
    EXPECT_NE(std::string(error.what()).find("rename failed"), std::string::npos) << error.what();
  }
  EXPECT_EQ(listing(), std::vector<std::string>{"out"});
  EXPECT_TRUE(fs::is_directory(directory_ / "out"));
  EXPECT_TRUE(fs::exists(directory_ / "out" / "inside"));
}

TEST_F(AtomicFileTest, FailedWriteGivesTheWriterUp) {
  write_file_atomically(directory_ / "out", Bytes{9}, "test file");
  {
    FileSizeLimit limit(1000);
    ASSERT_TRUE(limit.active());
    AtomicFileWriter writer(directory_ / "out", "output");
    EXPECT_THROW(writer.write(Bytes(3000, 1)), std::system_error);
    limit.lift();
    // Given up at once: nothing left behind, and what was written cannot be committed.
    EXPECT_EQ(listing(), std::vector<std::string>{"out"});
    EXPECT_THROW(writer.commit(), std::system_error);
    EXPECT_THROW(writer.write(Bytes{1}), std::system_error);
  }
  EXPECT_EQ(read_bytes(directory_ / "out"), Bytes{9});
  EXPECT_EQ(listing(), std::vector<std::string>{"out"});
}

TEST_F(AtomicFileTest, WriterNeverOpensAFileAlreadyThere) {
  // Temporary names are fresh and opened exclusively: a link planted where an earlier
  // version's predictable temporary name (OUT.tmp.PID) was leads nowhere near the output.
  const fs::path planted = directory_ / ("out.tmp." + std::to_string(::getpid()));
  std::ofstream(directory_ / "victim") << "untouched";
  fs::create_symlink(directory_ / "victim", planted);
  AtomicFileWriter writer(directory_ / "out", "output");
  writer.write(std::string_view("results"));
  writer.commit();
  EXPECT_EQ(read_bytes(directory_ / "victim"),
            (Bytes{'u', 'n', 't', 'o', 'u', 'c', 'h', 'e', 'd'}));
  EXPECT_EQ(read_bytes(directory_ / "out"), (Bytes{'r', 'e', 's', 'u', 'l', 't', 's'}));
}

TEST_F(AtomicFileTest, StaleTemporaryFilesOfDeadWritersAreRemoved) {
  // PID 999999999 is above any pid_max (a writer long gone); this process is alive.
  const std::string mine = "out.tmp." + std::to_string(::getpid()) + ".1";
  for (const std::string name : {"out.tmp.999999999.7", "other.tmp.999999999.7",
                                 "out.tmp.999999999", "out.tmp.x.7", mine.c_str()}) {
    std::ofstream(directory_ / name) << "left behind";
  }
  fs::create_symlink(directory_ / "victim", directory_ / "out.tmp.999999998.1");
  write_file_atomically(directory_ / "out", Bytes{1}, "output");
  // Only the dead writer's regular file of this name went; other names, odd shapes, live
  // writers and links stay.
  std::vector<std::string> kept{"other.tmp.999999999.7", "out", mine, "out.tmp.999999998.1",
                                "out.tmp.999999999", "out.tmp.x.7"};
  std::sort(kept.begin(), kept.end());
  EXPECT_EQ(listing(), kept);
}

}  // namespace
}  // namespace rastros
