// Checkpoints of strategy and proof builds (db/walk_checkpoint.hpp): a build stopped after some
// plies and resumed gives exactly the database of a build that was never stopped; a resume
// needs --resume, refuses another build's checkpoint and a damaged file; a finished build's
// checkpoint can be removed.

#include <gtest/gtest.h>

#include <atomic>
#include <fstream>

#include "core/binary_file.hpp"
#include "core/errors.hpp"
#include "db/proof_database.hpp"
#include "db/strategy_database.hpp"
#include "rastros/canonical.hpp"
#include "search/solver.hpp"
#include "temporary_directory.hpp"

namespace rastros {
namespace {

Rastros game_6x4() {
  return Rastros(Board(6, 4));
}

Solver solver_for(const Rastros& game, bool value_only, const std::atomic<bool>* stop = nullptr) {
  SolverOptions options;
  options.value_only = value_only;
  SearchCancellation cancellation;
  cancellation.stop = stop;
  return Solver(game, options, cancellation);
}

void expect_same(const Database& a, const Database& b) {
  ASSERT_EQ(a.size(), b.size());
  EXPECT_TRUE(std::equal(a.keys().begin(), a.keys().end(), b.keys().begin()));
  EXPECT_TRUE(std::equal(a.records().begin(), a.records().end(), b.records().begin()));
  EXPECT_EQ(a.header().leaf_squares, b.header().leaf_squares);
  EXPECT_EQ(a.header().kind, b.header().kind);
}

enum class Kind { proof, strategy };

Database build(Kind kind, const Rastros& game, Solver& solver,
               const std::function<void(const std::string&)>& progress, WalkCheckpoint checkpoint) {
  return kind == Kind::proof ? build_proof_database(game, 8, solver, progress, checkpoint)
                             : build_strategy_database(game, 2, solver, progress, checkpoint);
}

// Stops the build after `plies` ply lines, resumes it (from a fresh solver: a resumed process
// has an empty table), and compares with a build that ran through.
void check_stop_and_resume(Kind kind, int plies) {
  const Rastros game = game_6x4();
  const bool value_only = kind == Kind::proof;
  Solver plain_solver = solver_for(game, value_only);
  const Database plain = build(kind, game, plain_solver, {}, {});

  TemporaryDirectory directory("rastros-walk");
  std::atomic<bool> stop{false};
  int lines = 0;
  WalkCheckpoint checkpoint{directory.path(), "", false, &stop};
  {
    Solver solver = solver_for(game, value_only);
    const auto progress = [&](const std::string&) {
      if (++lines == plies) stop = true;
    };
    EXPECT_THROW(build(kind, game, solver, progress, checkpoint), SearchCancelled);
  }
  EXPECT_EQ(lines, plies) << "the build went on after the stop";
  EXPECT_TRUE(std::filesystem::exists(directory.path() / "walk.checkpoint"));

  stop = false;
  checkpoint.resume = true;
  Solver solver = solver_for(game, value_only);
  int resumed_lines = 0;
  const Database resumed = build(
      kind, game, solver, [&](const std::string&) { ++resumed_lines; }, checkpoint);
  expect_same(plain, resumed);
  EXPECT_GT(resumed_lines, 0);
  // The resumed build re-expanded none of the saved plies.
  Solver counting_solver = solver_for(game, value_only);
  int all_lines = 0;
  build(kind, game, counting_solver, [&](const std::string&) { ++all_lines; }, {});
  EXPECT_EQ(resumed_lines + plies, all_lines);

  remove_walk_checkpoint(directory.path());
  EXPECT_FALSE(std::filesystem::exists(directory.path()));
}

TEST(WalkCheckpoint, ProofStoppedAndResumedIsTheSameDatabase) {
  for (int plies : {1, 3, 7}) {
    SCOPED_TRACE(plies);
    check_stop_and_resume(Kind::proof, plies);
  }
}

TEST(WalkCheckpoint, StrategyStoppedAndResumedIsTheSameDatabase) {
  for (int plies : {1, 4}) {
    SCOPED_TRACE(plies);
    check_stop_and_resume(Kind::strategy, plies);
  }
}

// A checkpoint of one ply, left behind by a stopped proof build of 6x4 (leaves of 8 squares).
class SavedWalkTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::atomic<bool> stop{true};  // stops after the first ply
    Solver solver = solver_for(game_, true);
    EXPECT_THROW(build_proof_database(game_, 8, solver, {}, {directory_.path(), "", false, &stop}),
                 SearchCancelled);
  }

  Database resume(int leaf_squares) {
    Solver solver = solver_for(game_, true);
    return build_proof_database(game_, leaf_squares, solver, {},
                                {directory_.path(), "", true, nullptr});
  }

  Rastros game_ = game_6x4();
  TemporaryDirectory directory_{"rastros-walk"};
};

TEST_F(SavedWalkTest, NotResumedWithoutResume) {
  Solver solver = solver_for(game_, true);
  EXPECT_THROW(build_proof_database(game_, 8, solver, {}, {directory_.path(), "", false, nullptr}),
               InputError);
}

TEST_F(SavedWalkTest, AnotherBuildIsRefused) {
  EXPECT_THROW(resume(9), InputError);
  Solver solver = solver_for(game_, false);
  EXPECT_THROW(
      build_strategy_database(game_, 0, solver, {}, {directory_.path(), "", true, nullptr}),
      InputError);
}

TEST_F(SavedWalkTest, DamagedPositionsFileIsRefused) {
  const std::filesystem::path ply = directory_.path() / "walk-ply-00.positions";
  ASSERT_TRUE(std::filesystem::exists(ply));
  {
    std::fstream file(ply, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(30);
    file.put('\x5a');
  }
  EXPECT_THROW(resume(8), FileError);
}

TEST_F(SavedWalkTest, MissingNextFileIsRefused) {
  std::filesystem::remove(directory_.path() / "walk-next-01.positions");
  EXPECT_THROW(resume(8), FileError);
}

// A file with a good checksum that names, as the next ply's, a position already stored (the
// start): no walk leaves that, so it is refused rather than expanded twice.
TEST_F(SavedWalkTest, NextPlyOverlappingTheStoredIsRefused) {
  const PackedPosition start = Canonicalizer(game_.board()).pack(game_.start_position());
  std::vector<unsigned char> bytes = begin_binary_file("RSTRWALK", 1);
  put_le(bytes, 1, 4);  // ply
  put_le(bytes, 1, 8);  // count
  put_le(bytes, start.free, 8);
  bytes.insert(bytes.end(), {start.snail, 255, 0, 255});
  finish_binary_file(directory_.path() / "walk-next-01.positions", bytes, "test");
  try {
    resume(8);
    FAIL() << "resumed";
  } catch (const FileError& error) {
    EXPECT_NE(std::string(error.what()).find("not the positions a walk leaves"), std::string::npos)
        << error.what();
  }
}

TEST_F(SavedWalkTest, ResumedWithoutDamageCompletes) {
  Solver solver = solver_for(game_, true);
  expect_same(build_proof_database(game_, 8, solver), resume(8));
}

}  // namespace
}  // namespace rastros
