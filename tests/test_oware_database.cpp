// Oware endgame databases: every record of tiny variants against the naive level-by-level
// sweeps of oware_reference.hpp, loops that neither side leaves, searches beyond the database,
// files (a flipped value refused, a killed build resumed to the same bytes).

#include <gtest/gtest.h>
#include <oneapi/tbb/task_arena.h>

#include <fstream>
#include <iterator>

#include "core/binary_file.hpp"
#include "core/errors.hpp"
#include "games/oware/oware_analysis.hpp"
#include "games/oware/oware_database.hpp"
#include "games/oware/oware_position.hpp"
#include "oware_reference.hpp"
#include "temporary_directory.hpp"

namespace {

using namespace rastros::oware;

OwareState state_of(const std::vector<int>& view) {
  OwareState state;
  for (std::size_t i = 0; i < view.size(); ++i)
    state.houses[i] = static_cast<std::uint8_t>(view[i]);
  return state;
}

std::string bytes_of(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void expect_matches_reference(int houses, int max_seeds) {
  const Oware game(houses, 4);
  const OwareDatabase database = OwareDatabase::build(game, max_seeds);
  const auto reference = oware_reference::ref_solve(houses, max_seeds);
  ASSERT_EQ(database.size(), reference.size());
  int nonzero = 0;
  for (const auto& [view, score] : reference) {
    ASSERT_EQ(database.probe(game, state_of(view)), score)
        << houses << " houses, board " << view[0];
    nonzero += score != 0;
  }
  EXPECT_GT(nonzero, 0);  // the comparison is not between two tables of zeros
}

TEST(OwareDatabase, EveryRecordOfTinyVariantsMatchesTheNaiveSweeps) {
  expect_matches_reference(1, 12);
  expect_matches_reference(2, 12);
  expect_matches_reference(3, 9);
  expect_matches_reference(4, 6);
}

// Levels larger than the parallel loops' grains, so that both threads work on each; the
// attractors do not depend on the order parents are found in.
TEST(OwareDatabase, ParallelBuildGivesTheSameRecordsOnOneAndTwoThreads) {
  const Oware game(4, 4);
  std::vector<OwareDatabase> builds;
  for (const int threads : {1, 2}) {
    oneapi::tbb::task_arena arena(threads);
    arena.execute([&] { builds.push_back(OwareDatabase::build(game, 11)); });
  }
  for (int seeds = 0; seeds <= 11; ++seeds) {
    for (std::uint64_t rank = 0; rank < game.level_size(seeds); ++rank) {
      ASSERT_EQ(builds[0].score_at(seeds, rank), builds[1].score_at(seeds, rank));
    }
  }
}

TEST(OwareDatabase, ALoopNeitherSideLeavesIsWorthZero) {
  // One house a side: every capture would be a grand slam, so nothing is ever captured; the
  // mover with both seeds must feed, and the position comes back for ever.
  const Oware one(1, 1);
  const OwareDatabase database = OwareDatabase::build(one, 4);
  EXPECT_EQ(database.probe(one, state_of({2, 0})), 0);
  EXPECT_EQ(database.probe(one, state_of({1, 1})), 0);
  // No feeding possible: not a loop, the mover takes the board.
  const Oware two(2, 1);
  const OwareDatabase small = OwareDatabase::build(two, 4);
  EXPECT_EQ(small.probe(two, state_of({1, 0, 0, 0})), 1);
  // Two houses, one seed each side in house 2: the seeds chase each other round the ring,
  // a last seed never lands on 1 or 2 (to make 2 or 3), and play goes on for ever.
  EXPECT_EQ(small.probe(two, state_of({0, 1, 0, 1})), 0);
}

TEST(OwareDatabase, SearchBeyondTheDatabaseMatchesTheWholeDatabase) {
  const Oware game(3, 2);
  const OwareDatabase whole = OwareDatabase::build(game, 12);
  const OwareDatabase small = OwareDatabase::build(game, 5);
  for (const std::vector<int>& view : {std::vector<int>{2, 2, 2, 2, 2, 2},
                                       {4, 0, 3, 1, 2, 2},
                                       {0, 5, 1, 0, 3, 3},
                                       {7, 0, 0, 0, 2, 0}}) {
    const auto deep = analyse(game, small, state_of(view), 1'000'000);
    ASSERT_TRUE(deep.has_value());
    EXPECT_EQ(deep->source, "search");
    const auto direct = analyse(game, whole, state_of(view), 1'000'000);
    ASSERT_TRUE(direct.has_value());
    EXPECT_EQ(direct->source, "database");
    EXPECT_EQ(deep->score, direct->score);
    ASSERT_EQ(deep->moves.size(), direct->moves.size());
    for (std::size_t i = 0; i < deep->moves.size(); ++i) {
      EXPECT_EQ(deep->moves[i].score, direct->moves[i].score);
    }
  }
  // Too small a budget: refused, not guessed.
  EXPECT_FALSE(analyse(game, small, state_of({2, 2, 2, 2, 2, 2}), 10).has_value());
}

TEST(OwareDatabase, VerifyCatchesAFlippedValue) {
  const Oware game(3, 4);
  OwareDatabase database = OwareDatabase::build(game, 7);
  EXPECT_EQ(database.verify(game), std::nullopt);
  const int was = database.score_at(6, 100);
  database.set_score(6, 100, was == 0 ? 2 : -was);
  const auto problem = database.verify(game);
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find("6 seeds, rank 100"), std::string::npos) << *problem;
}

TEST(OwareDatabase, ADamagedFileIsRefused) {
  rastros::TemporaryDirectory directory("oware-db");
  const Oware game(2, 4);
  const Oware three(3, 4);
  const auto path = directory.path() / "oware.db";
  OwareDatabase::build(game, 6).save(path);
  EXPECT_NO_THROW(OwareDatabase::load(path, &game));
  EXPECT_THROW(OwareDatabase::load(path, &three), rastros::FileError);
  std::string bytes = bytes_of(path);
  bytes[bytes.size() - 10] ^= 1;
  std::ofstream(path, std::ios::binary) << bytes;
  EXPECT_THROW(OwareDatabase::load(path, &game), rastros::FileError);
}

TEST(OwareDatabase, AKilledBuildResumesToTheSameBytes) {
  rastros::TemporaryDirectory directory("oware-resume");
  const Oware game(3, 4);
  const auto whole = directory.path() / "whole.db";
  const auto resumed = directory.path() / "resumed.db";
  OwareDatabase::build(game, 9).save(whole);
  // The killed build: its checkpoint holds levels 0..6 only.
  BuildOptions first;
  first.checkpoint = directory.path() / "checkpoint";
  OwareDatabase::build(game, 6, first);
  BuildOptions second = first;
  second.resume = true;
  int read_back = 0;
  second.progress = [&](int, std::uint64_t, bool from_checkpoint) { read_back += from_checkpoint; };
  OwareDatabase::build(game, 9, second).save(resumed);
  EXPECT_EQ(read_back, 7);
  EXPECT_EQ(bytes_of(whole), bytes_of(resumed));
}

// Probes of every board of every level through a file read chunk by chunk equal the loaded
// database's (4 houses, 14 seeds: 319,770 boards, 5 chunks), and so do the answers a query
// gives from it; one probe reads one chunk.
TEST(OwareDatabaseFile, ProbesAndAnswersEqualTheLoadedDatabase) {
  rastros::TemporaryDirectory directory("oware-file");
  const Oware game(4, 4);
  const OwareDatabase database = OwareDatabase::build(game, 14);
  const auto path = directory.path() / "oware.odb";
  database.save(path);
  const OwareDatabaseFile file(path, game);
  EXPECT_EQ(file.chunks_read(), 0u);
  const OwareState one = game.level_unrank(13, 4'321);
  EXPECT_EQ(file.probe(game, one), database.probe(game, one));
  EXPECT_EQ(file.chunks_read(), 1u);
  for (int seeds = 0; seeds <= 14; ++seeds) {
    for (std::uint64_t rank = 0; rank < game.level_size(seeds); ++rank) {
      const OwareState state = game.level_unrank(seeds, rank);
      ASSERT_EQ(file.probe(game, state), database.score_at(seeds, rank)) << seeds << "/" << rank;
      if (rank % 997 != 0) continue;
      const auto from_file = answer_from_database(game, file, state);
      const auto searched = analyse(game, database, state, 0);
      ASSERT_TRUE(from_file && searched);
      EXPECT_EQ(from_file->score, searched->score);
      ASSERT_EQ(from_file->moves.size(), searched->moves.size());
      for (std::size_t i = 0; i < searched->moves.size(); ++i) {
        EXPECT_EQ(from_file->moves[i].move, searched->moves[i].move);
        EXPECT_EQ(from_file->moves[i].score, searched->moves[i].score);
      }
    }
  }
  EXPECT_EQ(file.probe(game, game.level_unrank(15, 0)), std::nullopt);
}

// A damaged chunk is refused when a probe reads it (and by load); a damaged chunk table, a
// cut file or another number of houses on opening. A format 1 file (no chunk table) is read.
TEST(OwareDatabaseFile, DamageIsRefusedAndFormat1IsRead) {
  rastros::TemporaryDirectory directory("oware-file-damage");
  const Oware game(4, 4);
  const OwareDatabase database = OwareDatabase::build(game, 14);
  const auto path = directory.path() / "oware.odb";
  database.save(path);
  const std::string bytes = bytes_of(path);
  const std::size_t header = 8 + 4 + 1 + 5 + 8;
  const std::uint64_t payload = database.size();
  ASSERT_EQ(bytes.size(), header + payload + 4 * ((payload + 65535) / 65536) + 4 + 4);
  const auto write = [&](const std::string& content) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << content;
  };

  std::string damaged = bytes;
  damaged[header + 2 * 65536 + 99] ^= 0x01;  // chunk 2
  write(damaged);
  EXPECT_THROW(OwareDatabase::load(path, &game), rastros::FileError);
  {
    const OwareDatabaseFile file(path, game);
    std::optional<std::string> refused;
    for (int seeds = 0; seeds <= 14 && !refused; ++seeds) {
      for (std::uint64_t rank = 0; rank < game.level_size(seeds) && !refused; ++rank) {
        try {
          (void)file.probe(game, game.level_unrank(seeds, rank));
        } catch (const rastros::FileError& error) {
          refused = error.what();
        }
      }
    }
    ASSERT_TRUE(refused.has_value()) << "no probe met the damaged chunk";
    EXPECT_NE(refused->find("chunk 2 checksum mismatch"), std::string::npos) << *refused;
  }
  damaged = bytes;
  damaged[bytes.size() - 12] ^= 0x01;  // the chunk table
  write(damaged);
  EXPECT_THROW(OwareDatabaseFile(path, game), rastros::FileError);
  write(bytes.substr(0, bytes.size() - 5));
  EXPECT_THROW(OwareDatabaseFile(path, game), rastros::FileError);
  write(bytes);
  EXPECT_THROW(OwareDatabaseFile(path, Oware(3, 4)), rastros::FileError);

  // Format 1: the same header with version 1, the levels, the CRC-32 of all before it.
  std::vector<unsigned char> v1(bytes.begin(),
                                bytes.begin() + static_cast<std::ptrdiff_t>(header + payload));
  v1[8] = 1;
  rastros::finish_binary_file(path, v1, "test file");
  const OwareDatabase loaded = OwareDatabase::load(path, &game);
  const OwareDatabaseFile file(path, game);
  for (int seeds = 0; seeds <= 14; ++seeds) {
    for (std::uint64_t rank = 0; rank < game.level_size(seeds); rank += 7) {
      ASSERT_EQ(loaded.score_at(seeds, rank), database.score_at(seeds, rank));
      ASSERT_EQ(file.probe(game, game.level_unrank(seeds, rank)), database.score_at(seeds, rank));
    }
  }
}

}  // namespace
