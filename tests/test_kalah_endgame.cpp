// Kalah endgame databases (games/kalah/kalah_endgame.hpp) and the score engine's table:
// every record against the plain minimax of kalah_reference.hpp, verify() accepting good
// databases and catching a changed record, the file refusing damage, and the table never
// answering for another key.

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>

#include "core/chunk_crcs.hpp"
#include "core/crc32.hpp"
#include "core/errors.hpp"
#include "engine/score_solver.hpp"
#include "engine/score_table.hpp"
#include "games/kalah/kalah.hpp"
#include "games/kalah/kalah_endgame.hpp"
#include "games/kalah/kalah_position.hpp"
#include "kalah_reference.hpp"

namespace {

using namespace rastros;
using namespace rastros::kalah;
using kalah_reference::RefGame;
using kalah_reference::RefRule;

std::vector<int> view_of(const Kalah& game, const KalahState& state) {
  std::vector<int> view;
  for (int i = 0; i < 2 * game.houses(); ++i) view.push_back(state.houses[i]);
  return view;
}

// The reference's future margin of a state: its final margin minus what the stores hold.
int reference_future(const Kalah& game, const KalahState& state) {
  const RefGame ref{
      game.houses(), game.seeds(),
      game.rule() == CaptureRule::standard ? RefRule::standard : RefRule::empty_capture};
  const auto position = kalah_reference::ref_from_view(ref, view_of(game, state));
  return kalah_reference::reference_score(ref, position) -
         kalah_reference::ref_store_margin(ref, position);
}

std::filesystem::path temporary_file(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("rastros_kalah_" + std::to_string(::getpid()) + "_" + name);
}

TEST(KalahEndgame, EveryRecordAgreesWithPlainMinimax) {
  for (const auto rule : {CaptureRule::standard, CaptureRule::empty_capture}) {
    for (const auto& [houses, max_seeds] :
         std::vector<std::pair<int, int>>{{1, 8}, {2, 8}, {3, 7}}) {
      const Kalah game(houses, 4, rule);
      const KalahEndgame database = KalahEndgame::build(game, max_seeds);
      std::uint64_t checked = 0;
      for (int seeds = 0; seeds <= max_seeds; ++seeds) {
        for (std::uint64_t rank = 0; rank < game.level_size(seeds); ++rank) {
          const KalahState state = game.level_unrank(seeds, rank);
          ASSERT_EQ(database.score_at(seeds, rank), reference_future(game, state))
              << game.name() << " seeds " << seeds << " rank " << rank;
          ++checked;
        }
      }
      EXPECT_EQ(checked, database.size());
    }
  }
}

TEST(KalahEndgame, LevelStepsFollowTheRanks) {
  for (int houses = 1; houses <= 4; ++houses) {
    const Kalah game(houses, 3);
    for (int seeds = 0; seeds <= 6; ++seeds) {
      KalahState state = game.level_unrank(seeds, 0);
      for (std::uint64_t rank = 0; rank < game.level_size(seeds); ++rank) {
        if (rank) game.level_next(state);
        ASSERT_EQ(state, game.level_unrank(seeds, rank)) << houses << " houses, " << seeds;
        ASSERT_EQ(game.level_rank(state), rank);
        ASSERT_EQ(game.seeds_in_play(state), seeds);
      }
    }
  }
}

TEST(KalahEndgame, VerifyAcceptsBuiltDatabasesAndCatchesAChangedRecord) {
  const Kalah game(4, 3, CaptureRule::standard);
  const KalahEndgame database = KalahEndgame::build(game, 10);
  EXPECT_EQ(database.verify(game), std::nullopt);

  // One record changed in the file, its checksums repaired (its chunk's and the whole
  // file's): it loads, and verify names it.
  const auto path = temporary_file("changed.kdb");
  database.save(path);
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::size_t header = bytes.find('\n') + 1;
  const std::size_t target = header + 5000;  // a record of level 6 or so
  bytes[target] = static_cast<char>(bytes[target] + 2);
  const std::size_t payload = database.size(), table = bytes.size() - 4 - (header + payload);
  ChunkCrcs chunks;
  chunks.add({reinterpret_cast<const unsigned char*>(bytes.data()) + header, payload});
  const std::vector<unsigned char> repaired = encode_chunk_table(chunks.finish());
  ASSERT_EQ(repaired.size(), table);
  std::copy(repaired.begin(), repaired.end(),
            bytes.begin() + static_cast<std::ptrdiff_t>(header + payload));
  const std::uint32_t crc = crc32_of(std::string_view(bytes).substr(0, bytes.size() - 4));
  for (int i = 0; i < 4; ++i) bytes[bytes.size() - 4 + i] = static_cast<char>(crc >> (8 * i));
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  const KalahEndgame changed = KalahEndgame::load(path, &game);
  const auto error = changed.verify(game);
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("stored"), std::string::npos) << *error;
  std::filesystem::remove(path);
}

TEST(KalahEndgame, FileRoundTripAndRefusals) {
  const Kalah game(3, 3, CaptureRule::empty_capture);
  const KalahEndgame database = KalahEndgame::build(game, 9);
  const auto path = temporary_file("round.kdb");
  database.save(path);
  const KalahEndgame loaded = KalahEndgame::load(path, &game);
  ASSERT_EQ(loaded.max_seeds(), 9);
  ASSERT_EQ(loaded.size(), database.size());
  for (int seeds = 0; seeds <= 9; ++seeds) {
    for (std::uint64_t rank = 0; rank < game.level_size(seeds); ++rank) {
      ASSERT_EQ(loaded.score_at(seeds, rank), database.score_at(seeds, rank));
    }
  }
  // Another rule or number of houses than the game asked for.
  const Kalah other_rule(3, 3, CaptureRule::standard);
  EXPECT_THROW(KalahEndgame::load(path, &other_rule), FileError);
  const Kalah other_houses(4, 3, CaptureRule::empty_capture);
  EXPECT_THROW(KalahEndgame::load(path, &other_houses), FileError);

  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  const auto write = [&](const std::string& content) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << content;
  };
  // Every single flipped bit of a sample of bytes, a cut, a padding: refused.
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    std::string damaged = bytes;
    const std::size_t at = rng() % damaged.size();
    damaged[at] = static_cast<char>(damaged[at] ^ (1 << (rng() % 8)));
    write(damaged);
    EXPECT_THROW(KalahEndgame::load(path, &game), FileError) << "byte " << at;
  }
  write(bytes.substr(0, bytes.size() - 1));
  EXPECT_THROW(KalahEndgame::load(path, &game), FileError);
  write(bytes + "x");
  EXPECT_THROW(KalahEndgame::load(path, &game), FileError);
  write("not a database\n");
  EXPECT_THROW(KalahEndgame::load(path, &game), FileError);
  // A header claiming a huge level is refused by the size check before anything is allocated.
  write("rastros-kalah-endgame 1 houses=8 rules=standard max_seeds=127\n");
  EXPECT_THROW(KalahEndgame::load(path, nullptr), FileError);
  std::filesystem::remove(path);
  EXPECT_THROW(KalahEndgame::load(path, &game), FileError);  // missing
  // A pipe is refused at once instead of blocking in open().
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  EXPECT_THROW(KalahEndgame::load(path, &game), FileError);
  std::filesystem::remove(path);
}

std::string file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void write_file(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// Probes of every state of every level through a file read chunk by chunk equal the loaded
// database's (4 houses, 14 seeds: 319,770 states, 5 chunks); one probe reads one chunk.
TEST(KalahEndgameFile, ProbesEqualTheLoadedDatabase) {
  const Kalah game(4, 3, CaptureRule::standard);
  const KalahEndgame database = KalahEndgame::build(game, 14);
  const auto path = temporary_file("chunked.kdb");
  database.save(path);
  const KalahEndgameFile file(path, game);
  EXPECT_EQ(file.chunks_read(), 0u);
  EXPECT_EQ(file.max_seeds(), 14);
  const KalahState one = game.level_unrank(14, 12'345);
  EXPECT_EQ(file.probe(game, one), database.probe(game, one));
  EXPECT_EQ(file.chunks_read(), 1u);
  for (int seeds = 0; seeds <= 14; ++seeds) {
    for (std::uint64_t rank = 0; rank < game.level_size(seeds); ++rank) {
      const KalahState state = game.level_unrank(seeds, rank);
      ASSERT_EQ(file.probe(game, state), database.score_at(seeds, rank)) << seeds << "/" << rank;
    }
  }
  EXPECT_EQ(file.probe(game, game.level_unrank(15, 0)), std::nullopt);
  std::filesystem::remove(path);
}

// A damaged chunk is refused when a probe reads it (and by load); a damaged chunk table, a
// foreign or cut file on opening. A format 1 file (no chunk table) is still read.
TEST(KalahEndgameFile, DamageIsRefusedAndFormat1IsRead) {
  const Kalah game(4, 4, CaptureRule::standard);  // 735,471 states to 16 seeds: 12 chunks
  const KalahEndgame database = KalahEndgame::build(game, 16);
  const auto path = temporary_file("chunk-damage.kdb");
  database.save(path);
  const std::string bytes = file_bytes(path);
  const std::size_t header = bytes.find('\n') + 1;
  const std::uint64_t payload = database.size();
  ASSERT_EQ(bytes.size(), header + payload + 4 * ((payload + 65535) / 65536) + 4 + 4);

  std::string damaged = bytes;
  damaged[header + 3 * 65536 + 10] ^= 0x01;  // chunk 3
  write_file(path, damaged);
  EXPECT_THROW(KalahEndgame::load(path, &game), FileError);
  {
    const KalahEndgameFile file(path, game);
    EXPECT_EQ(file.probe(game, game.level_unrank(0, 0)),
              database.probe(game, game.level_unrank(0, 0)));
    std::optional<std::string> refused;
    for (int seeds = 0; seeds <= 16 && !refused; ++seeds) {
      for (std::uint64_t rank = 0; rank < game.level_size(seeds) && !refused; ++rank) {
        try {
          (void)file.probe(game, game.level_unrank(seeds, rank));
        } catch (const FileError& error) {
          refused = error.what();
        }
      }
    }
    ASSERT_TRUE(refused.has_value()) << "no probe met the damaged chunk";
    EXPECT_NE(refused->find("chunk 3 checksum mismatch"), std::string::npos) << *refused;
  }
  // The same damage with the whole file's CRC repaired (not the chunk's): load compares the
  // chunks with their table and refuses it, as a query reading that chunk would.
  {
    const std::uint32_t crc = crc32_of(std::string_view(damaged).substr(0, damaged.size() - 4));
    for (int i = 0; i < 4; ++i) damaged[damaged.size() - 4 + i] = static_cast<char>(crc >> (8 * i));
    write_file(path, damaged);
    try {
      (void)KalahEndgame::load(path, &game);
      ADD_FAILURE() << "a damaged chunk behind a repaired file CRC was loaded";
    } catch (const FileError& error) {
      EXPECT_NE(std::string(error.what()).find("chunk checksums that do not match"),
                std::string::npos)
          << error.what();
    }
  }
  damaged = bytes;
  damaged[bytes.size() - 10] ^= 0x01;  // the chunk table
  write_file(path, damaged);
  EXPECT_THROW(KalahEndgameFile(path, game), FileError);
  write_file(path, bytes.substr(0, bytes.size() - 3));
  EXPECT_THROW(KalahEndgameFile(path, game), FileError);
  write_file(path, bytes);
  EXPECT_THROW(KalahEndgameFile(path, Kalah(4, 4, CaptureRule::empty_capture)), FileError);
  EXPECT_THROW(KalahEndgameFile(path, Kalah(3, 4, CaptureRule::standard)), FileError);

  // Format 1: the header line with version 1, the levels, the CRC-32 of all before it.
  std::string v1 = "rastros-kalah-endgame 1 houses=4 rules=standard max_seeds=16\n";
  v1 += bytes.substr(header, payload);
  const std::uint32_t crc = crc32_of(v1);
  for (int i = 0; i < 4; ++i) v1.push_back(static_cast<char>(crc >> (8 * i)));
  write_file(path, v1);
  const KalahEndgame loaded = KalahEndgame::load(path, &game);
  const KalahEndgameFile file(path, game);
  for (int seeds = 0; seeds <= 16; ++seeds) {
    for (std::uint64_t rank = 0; rank < game.level_size(seeds); rank += 7) {
      ASSERT_EQ(loaded.score_at(seeds, rank), database.score_at(seeds, rank));
      ASSERT_EQ(file.probe(game, game.level_unrank(seeds, rank)), database.score_at(seeds, rank));
    }
  }
  std::filesystem::remove(path);
}

TEST(KalahEndgame, SolverWithTheDatabaseAgreesWithoutIt) {
  for (const auto rule : {CaptureRule::standard, CaptureRule::empty_capture}) {
    const Kalah game(4, 3, rule);
    const KalahEndgame database = KalahEndgame::build(game, 12);
    engine::ScoreSolver<Kalah> plain(game, {std::size_t{1} << 20});
    engine::ScoreSolver<Kalah> probed(game, {std::size_t{1} << 20});
    probed.set_probe(12, [&](const KalahState& state) { return database.probe(game, state); });
    std::mt19937 rng(11);
    for (int trial = 0; trial < 60; ++trial) {
      KalahPosition position = start_position(game);
      const int plies = static_cast<int>(rng() % 12);
      for (int ply = 0; ply < plies && !has_ended(game, position); ++ply) {
        const auto moves = game.legal_moves(search_state(game, position));
        position = play(game, position, moves[rng() % moves.size()]);
      }
      const KalahState state = search_state(game, position);
      ASSERT_EQ(probed.score(state), plain.score(state)) << position_string(game, position);
    }
  }
}

TEST(ScoreTable, ProbesGiveBackWhatWasStoredForThatKeyOnly) {
  // The smallest table (one bucket): every key competes for four slots, and a probe may miss
  // but never returns another key's bounds. Each key has a true score (key % 23 - 11); every
  // store is a pair of true bounds on it, as a search's are.
  engine::ScoreTable table(64);
  std::map<std::uint64_t, std::pair<int, int>> held;  // what the table holds for each key
  std::mt19937_64 rng(3);
  for (int i = 0; i < 5000; ++i) {
    const std::uint64_t key = rng() % 64 + 1;
    const int truth = static_cast<int>(key % 23) - 11;
    const int lower = truth - static_cast<int>(rng() % 6);
    const int upper = truth + static_cast<int>(rng() % 6);
    table.store(key, lower, upper, static_cast<int>(key % 6), rng() % 1000);
    engine::ScoreBounds bounds;
    ASSERT_TRUE(table.probe(key, bounds));
    // The new bounds, tightened by what the slot held for the same key.
    EXPECT_GE(bounds.lower, lower);
    EXPECT_LE(bounds.upper, upper);
    EXPECT_LE(bounds.lower, truth);
    EXPECT_GE(bounds.upper, truth);
    held[key] = {bounds.lower, bounds.upper};
    for (const auto& [other, expected] : held) {
      engine::ScoreBounds found;
      if (table.probe(other, found)) {
        EXPECT_EQ(found.lower, expected.first) << other;
        EXPECT_EQ(found.upper, expected.second) << other;
      }
    }
  }
}

TEST(ScoreTable, BoundsOfOneKeyAreIntersected) {
  engine::ScoreTable table(std::size_t{1} << 16);
  table.store(42, -5, 9, 2, 10);
  table.store(42, -7, 3, -1, 10);
  engine::ScoreBounds bounds;
  ASSERT_TRUE(table.probe(42, bounds));
  EXPECT_EQ(bounds.lower, -5);
  EXPECT_EQ(bounds.upper, 3);
  EXPECT_EQ(bounds.best_move, 2);  // kept when the newer store had none
  EXPECT_FALSE(table.probe(43, bounds));
}

}  // namespace
