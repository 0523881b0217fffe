// The Reversi split job (games/reversi/reversi_split_job.hpp) and what it stands on: the
// square's symmetries against a square-by-square reference, the bounded solve against the
// exact score, the job's answer against the plain solver and a minimax of the rules at every
// split depth, resuming after an interruption, and damaged or foreign checkpoints refused.

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <set>
#include <tuple>

#include "core/errors.hpp"
#include "engine/score_solver.hpp"
#include "games/reversi/reversi_piece_log.hpp"
#include "games/reversi/reversi_solver.hpp"
#include "games/reversi/reversi_split_job.hpp"
#include "games/reversi/reversi_symmetry.hpp"
#include "reversi_reference.hpp"
#include "temporary_directory.hpp"

namespace rastros::reversi {
namespace {

constexpr ReversiSolverOptions kSmallTable{std::size_t{1} << 20};

// Symmetry s square by square: transpose (bit 0), then mirror (bit 1), then flip (bit 2).
Bits reference_image(Bits b, int s, int n) {
  Bits out = 0;
  for (int row = 0; row < n; ++row) {
    for (int column = 0; column < n; ++column) {
      if (!(b >> (8 * row + column) & 1)) continue;
      int r = row, c = column;
      if (s & 1) std::swap(r, c);
      if (s & 2) c = n - 1 - c;
      if (s & 4) r = n - 1 - r;
      out |= Bits{1} << (8 * r + c);
    }
  }
  return out;
}

Bits random_mask(std::mt19937_64& random, int n) {
  return random() & inside_mask(n);
}

TEST(ReversiSymmetry, EachTransformMatchesTheSquareBySquareReference) {
  std::mt19937_64 random(66);
  for (const int n : {4, 6, 8}) {
    for (int trial = 0; trial < 200; ++trial) {
      const Bits b = random_mask(random, n);
      for (int s = 0; s < kSymmetries; ++s) {
        EXPECT_EQ(apply_symmetry(b, s, n), reference_image(b, s, n)) << "n " << n << " s " << s;
      }
    }
    // Single squares: every one of the eight maps the board onto itself, and all differ.
    std::set<std::vector<Bits>> distinct;
    for (int s = 0; s < kSymmetries; ++s) {
      std::vector<Bits> images;
      for (int square = 0; square < 64; ++square) {
        const Bits bit = Bits{1} << square;
        if (!(bit & inside_mask(n))) continue;
        EXPECT_EQ(apply_symmetry(bit, s, n), reference_image(bit, s, n));
        images.push_back(apply_symmetry(bit, s, n));
      }
      distinct.insert(images);
    }
    EXPECT_EQ(distinct.size(), 8u);
  }
}

TEST(ReversiSymmetry, TheStartIsKeptByFourOfTheEight) {
  for (const int n : {4, 6, 8}) {
    const ReversiState start = Reversi(n).start();
    int kept = 0;
    for (int s = 0; s < kSymmetries; ++s) {
      kept += apply_symmetry(start.mine, s, n) == start.mine &&
              apply_symmetry(start.theirs, s, n) == start.theirs;
    }
    EXPECT_EQ(kept, 4) << n;
  }
}

TEST(ReversiSymmetry, ImagesShareTheCanonicalKeyAndTheValue) {
  std::mt19937_64 random(7);
  const Reversi game(4);
  for (int trial = 0; trial < 30; ++trial) {
    const ReversiState state = reference::random_game_state(random, game, 7);
    const CanonicalKey key = canonical_key(state.mine, state.theirs, 4);
    const int value = reference::minimax(reference::from_state(state, 4));
    for (int s = 0; s < kSymmetries; ++s) {
      const ReversiState image{apply_symmetry(state.mine, s, 4),
                               apply_symmetry(state.theirs, s, 4)};
      EXPECT_EQ(canonical_key(image.mine, image.theirs, 4), key);
      EXPECT_EQ(reference::minimax(reference::from_state(image, 4)), value);
    }
  }
}

TEST(ReversiSolver, BoundedScoreIsExactInsideTheWindowAndABoundOutside) {
  std::mt19937_64 random(38);
  const Reversi game(6);
  for (int trial = 0; trial < 12; ++trial) {
    const ReversiState state = reference::random_game_state(random, game, 9);
    const int exact = reference::minimax(reference::from_state(state, 6));
    ReversiSolver solver(game, kSmallTable);
    for (const auto& [alpha, beta] : {std::pair{-36, 36},
                                      {-1, 1},
                                      {exact - 1, exact + 1},
                                      {exact + 2, exact + 10},
                                      {exact - 10, exact - 2}}) {
      const int result = solver.bounded_score(state, alpha, beta);
      if (result <= alpha) {
        EXPECT_LE(exact, result);
      } else if (result >= beta) {
        EXPECT_GE(exact, result);
      } else {
        EXPECT_EQ(result, exact);
      }
    }
  }
}

struct JobRun {
  int score;
  std::uint64_t searched;
  std::uint64_t reused;
};

JobRun run_job(const Reversi& game, const ReversiState& root, const SplitJobOptions& options) {
  ReversiSolver solver(game, kSmallTable);
  ReversiSplitJob job(game, solver, options);
  const int score = job.score(root);
  return {score, job.counters().pieces_searched.load(), job.counters().pieces_reused.load()};
}

TEST(ReversiSplitJob, FourByFourAtEverySplitDepthEqualsTheSolverAndMinimax) {
  const Reversi game(4);
  const int expected = reference::minimax(reference::from_state(game.start(), 4));
  ReversiSolver plain(game, kSmallTable);
  ASSERT_EQ(plain.score(game.start()), expected);
  for (int depth = 0; depth <= 13; ++depth) {
    const TemporaryDirectory directory("split-4x4");
    const JobRun run = run_job(game, game.start(), {directory.path(), depth});
    EXPECT_EQ(run.score, expected) << "depth " << depth;
    EXPECT_GT(run.searched + (depth >= 12 ? 1 : 0), 0u) << depth;
  }
}

TEST(ReversiSplitJob, ValueAgreesWithTheScoresSign) {
  const Reversi game(4);
  const int expected = reference::minimax(reference::from_state(game.start(), 4));
  const TemporaryDirectory directory("split-value");
  ReversiSolver solver(game, kSmallTable);
  ReversiSplitJob job(game, solver, {directory.path(), 3});
  EXPECT_EQ(job.value(game.start()), expected > 0   ? Value::win
                                     : expected < 0 ? Value::loss
                                                    : Value::draw);
}

TEST(ReversiSplitJob, SixBySixPositionsEqualMinimax) {
  std::mt19937_64 random(606);
  const Reversi game(6);
  for (int trial = 0; trial < 6; ++trial) {
    const ReversiState state = reference::random_game_state(random, game, 9);
    const int expected = reference::minimax(reference::from_state(state, 6));
    for (const int depth : {1, 3}) {
      const TemporaryDirectory directory("split-6x6");
      EXPECT_EQ(run_job(game, state, {directory.path(), depth}).score, expected)
          << trial << " depth " << depth;
    }
  }
}

std::set<std::tuple<Bits, Bits, int, int>> record_windows(const std::vector<PieceRecord>& records) {
  std::set<std::tuple<Bits, Bits, int, int>> windows;
  for (const PieceRecord& r : records) windows.insert({r.key.mine, r.key.theirs, r.alpha, r.beta});
  return windows;
}

std::vector<PieceRecord> read_records(const std::filesystem::path& directory, int n) {
  return PieceLog(directory, n, true).records();
}

TEST(ReversiSplitJob, ResumesAfterAnInterruptionWithoutRedoingFinishedPieces) {
  const Reversi game(4);
  const int expected = reference::minimax(reference::from_state(game.start(), 4));
  const TemporaryDirectory directory("split-resume");
  constexpr std::uint64_t kStopAfter = 3;
  EXPECT_THROW(run_job(game, game.start(), {directory.path(), 4, false, kStopAfter}),
               engine::SearchStopped);
  const auto first = read_records(directory.path(), 4);
  ASSERT_EQ(first.size(), kStopAfter);

  const JobRun resumed = run_job(game, game.start(), {directory.path(), 4, true});
  EXPECT_EQ(resumed.score, expected);
  EXPECT_GE(resumed.reused, kStopAfter);
  // No piece the first run finished was searched again in the same window.
  const auto all = read_records(directory.path(), 4);
  ASSERT_EQ(all.size(), first.size() + resumed.searched);
  const auto before = record_windows(first);
  for (std::size_t i = first.size(); i < all.size(); ++i) {
    EXPECT_FALSE(before.contains({all[i].key.mine, all[i].key.theirs, all[i].alpha, all[i].beta}));
  }
  // A finished job run again searches nothing.
  const JobRun again = run_job(game, game.start(), {directory.path(), 4, true});
  EXPECT_EQ(again.score, expected);
  EXPECT_EQ(again.searched, 0u);
}

std::uintmax_t append_bytes(const std::filesystem::path& file, const std::string& bytes) {
  std::ofstream(file, std::ios::binary | std::ios::app) << bytes;
  return std::filesystem::file_size(file);
}

TEST(ReversiSplitJob, ATornLastRecordIsDroppedAndTheJobGoesOn) {
  const Reversi game(4);
  const int expected = reference::minimax(reference::from_state(game.start(), 4));
  for (const std::size_t torn : {std::size_t{11}, std::size_t{32}}) {
    const TemporaryDirectory directory("split-torn");
    EXPECT_THROW(run_job(game, game.start(), {directory.path(), 4, false, 2}),
                 engine::SearchStopped);
    const auto file = directory.path() / kPieceLogName;
    const auto whole = std::filesystem::file_size(file);
    append_bytes(file, std::string(torn, '\x5a'));
    EXPECT_EQ(read_records(directory.path(), 4).size(), 2u);
    EXPECT_EQ(std::filesystem::file_size(file), whole) << "the torn tail is cut off";
    EXPECT_EQ(run_job(game, game.start(), {directory.path(), 4, true}).score, expected);
    EXPECT_EQ(std::filesystem::file_size(file) % 32, whole % 32);
  }
}

void expect_file_error(const std::filesystem::path& directory, int n, const std::string& words) {
  try {
    PieceLog log(directory, n, true);
    ADD_FAILURE() << "accepted";
  } catch (const FileError& error) {
    EXPECT_NE(std::string(error.what()).find(words), std::string::npos) << error.what();
  }
}

TEST(ReversiSplitJob, DamagedForeignAndExistingCheckpointsAreRefused) {
  const Reversi game(4);
  const TemporaryDirectory directory("split-bad");
  EXPECT_THROW(run_job(game, game.start(), {directory.path(), 4, false, 4}), engine::SearchStopped);
  const auto file = directory.path() / kPieceLogName;
  // Started again without --resume: never overwritten.
  EXPECT_THROW(run_job(game, game.start(), {directory.path(), 4, false}), InputError);
  expect_file_error(directory.path(), 6, "written for a 4x4 board, not 6x6");

  std::string bytes;
  {
    std::ifstream in(file, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  const auto rewrite = [&](std::string changed) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << changed;
  };
  std::string middle = bytes;
  middle[20 + 32 + 5] ^= 1;  // the second of four records
  rewrite(middle);
  expect_file_error(directory.path(), 4, "record 2 checksum mismatch");
  std::string header = bytes;
  header[13] ^= 1;
  rewrite(header);
  expect_file_error(directory.path(), 4, "header checksum mismatch");
  rewrite("RVSPLIT");
  expect_file_error(directory.path(), 4, "truncated header");
  rewrite(std::string(40, 'x'));
  expect_file_error(directory.path(), 4, "not a Reversi split-job checkpoint");
}

}  // namespace
}  // namespace rastros::reversi
