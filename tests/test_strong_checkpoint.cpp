// Checkpoints of the strong solver: a solve stopped between layers and resumed gives the same
// table as one run straight through; damaged or foreign checkpoints are refused.

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>

#include "core/errors.hpp"
#include "retro/strong_solver.hpp"
#include "temporary_directory.hpp"

namespace rastros {
namespace {

// Solves with checkpoints, stopping once `stop_after` layers have been valued.
void solve_until_stopped(const Rastros& game, const std::filesystem::path& directory,
                         int stop_after, bool resume) {
  std::atomic<bool> stop{false};
  int valued = 0;
  StrongSolveControl control{directory, resume, &stop};
  const auto progress = [&](const std::string& line) {
    if (line.starts_with("backward:") && ++valued >= stop_after) stop = true;
  };
  EXPECT_THROW(solve_strong(game, progress, control), SolveStopped);
}

TEST(StrongCheckpoint, StoppedAndResumedEqualsOneRun) {
  const Rastros game{Board(5, 4)};
  const StrongTable straight = solve_strong(game);
  for (int stop_after : {1, 5, 12}) {
    TemporaryDirectory directory{"rastros-strong-checkpoint", TemporaryDirectory::Create::no};
    solve_until_stopped(game, directory.path(), stop_after, false);
    EXPECT_TRUE(std::filesystem::exists(directory.path() / "strong.checkpoint"));
    // Stopped again after more layers, then to the end.
    solve_until_stopped(game, directory.path(), stop_after + 3, true);
    std::vector<std::string> lines;
    const StrongTable resumed = solve_strong(
        game, [&](const std::string& line) { lines.push_back(line); },
        StrongSolveControl{directory.path(), true, nullptr});
    EXPECT_EQ(resumed.keys(), straight.keys()) << "stopped after " << stop_after;
    EXPECT_EQ(resumed.records(), straight.records()) << "stopped after " << stop_after;
    const auto read_back = std::count_if(lines.begin(), lines.end(), [](const std::string& line) {
      return line.find("read from the checkpoint") != std::string::npos;
    });
    EXPECT_GE(read_back, stop_after) << "the resumed solve valued everything again";
    remove_strong_checkpoint(directory.path());
    EXPECT_FALSE(std::filesystem::exists(directory.path()));
  }
}

TEST(StrongCheckpoint, RefusesForeignDamagedOrUnrequestedCheckpoints) {
  const Rastros game{Board(4, 4)};
  TemporaryDirectory directory{"rastros-strong-checkpoint", TemporaryDirectory::Create::no};
  solve_until_stopped(game, directory.path(), 4, false);
  // Without --resume an unfinished checkpoint is not overwritten.
  EXPECT_THROW(solve_strong(game, {}, {directory.path(), false, nullptr}), InputError);
  // Another game (another start square).
  EXPECT_THROW(solve_strong(Rastros(Board(4, 4), 5), {}, {directory.path(), true, nullptr}),
               InputError);
  // A flipped byte in a layer file.
  const auto layer = directory.path() / "layer-03.records";
  ASSERT_TRUE(std::filesystem::exists(layer));
  {
    std::fstream file(layer, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(30);
    file.put('\x7f');
  }
  EXPECT_THROW(solve_strong(game, {}, {directory.path(), true, nullptr}), FileError);
  // A missing layer file.
  std::filesystem::remove(layer);
  EXPECT_THROW(solve_strong(game, {}, {directory.path(), true, nullptr}), FileError);
}

}  // namespace
}  // namespace rastros
