// The score database file (engine/score_database_file.hpp): what a reader answers block by
// block equals the records written, for keys held and keys not held; a reader reads only the
// blocks it is asked for; a format 1 file (written here byte by byte from its layout) is still
// read; damaged, cut short and foreign files are refused, a damaged block when it is read.

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/binary_file.hpp"
#include "core/errors.hpp"
#include "engine/score_database_file.hpp"

namespace rastros::engine {
namespace {

std::filesystem::path temporary(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("rastros_score_file_" +
          std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" + name);
}

/// `count` distinct ascending keys with gaps from 1 to beyond 2^21 (LEB128 codes of one to
/// four bytes) and scores over the whole signed byte.
ScoreRecords random_records(std::size_t count, std::uint32_t seed) {
  std::mt19937_64 random(seed);
  ScoreRecords records;
  std::uint64_t key = random() % 1000;
  for (std::size_t i = 0; i < count; ++i) {
    records.keys.push_back(key);
    records.scores.push_back(static_cast<std::int8_t>(static_cast<int>(random() % 256) - 128));
    const int width = static_cast<int>(random() % 4);
    key += 1 + random() % (std::uint64_t{1} << (7 * width + 1));
  }
  if (count > 2) records.keys.back() = UINT64_MAX;  // the largest key a file can hold
  return records;
}

std::string read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void write_bytes(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

/// Every key held and the keys on either side of each answered as the records answer them.
void expect_same_answers(const ScoreLookup& lookup, const ScoreRecords& records) {
  for (std::size_t i = 0; i < records.keys.size(); ++i) {
    const std::uint64_t key = records.keys[i];
    ASSERT_EQ(lookup.find(key), std::optional<int>(records.scores[i])) << "key " << key;
    if (key > 0) {
      ASSERT_EQ(lookup.find(key - 1), records.find(key - 1)) << "key " << key - 1;
    }
    if (key < UINT64_MAX) {
      ASSERT_EQ(lookup.find(key + 1), records.find(key + 1)) << "key " << key + 1;
    }
  }
  EXPECT_EQ(lookup.find(0), records.find(0));
  EXPECT_EQ(lookup.find(UINT64_MAX), records.find(UINT64_MAX));
}

TEST(ScoreDatabaseFile, AReaderAnswersAsTheRecordsWritten) {
  for (const std::uint32_t block : {1u, 7u, 4096u}) {
    for (const std::size_t count :
         {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{8}, std::size_t{10'000}}) {
      SCOPED_TRACE("block " + std::to_string(block) + ", count " + std::to_string(count));
      const ScoreRecords records =
          random_records(count, block * 31 + static_cast<std::uint32_t>(count));
      const auto path = temporary("answers.rsdb");
      save_score_database(path, {"reversi", "4x4", records}, block);
      const ScoreDatabaseReader reader(path, "reversi", "4x4");
      EXPECT_EQ(reader.size(), count);
      expect_same_answers(reader, records);
      const ScoreDatabaseFile whole = load_score_database(path, "reversi", "4x4");
      EXPECT_EQ(whole.records.keys, records.keys);
      EXPECT_EQ(whole.records.scores, records.scores);
      std::filesystem::remove(path);
    }
  }
}

TEST(ScoreDatabaseFile, AReaderReadsOnlyTheBlocksAskedFor) {
  const ScoreRecords records = random_records(100'000, 5);
  const auto path = temporary("lazy.rsdb");
  save_score_database(path, {"congkak", "(5,4)", records});
  const ScoreDatabaseReader reader(path, "congkak", "(5,4)");
  EXPECT_EQ(reader.blocks_read(), 0u);
  EXPECT_EQ(reader.find(records.keys[50'000]), records.scores[50'000]);
  EXPECT_EQ(reader.blocks_read(), 1u);
  EXPECT_EQ(reader.find(records.keys[50'001]), records.scores[50'001]);  // the same block
  EXPECT_EQ(reader.blocks_read(), 1u);
  EXPECT_EQ(reader.find(records.keys[99'999]), records.scores[99'999]);
  EXPECT_EQ(reader.blocks_read(), 2u);
  if (records.keys[0] > 0) {  // below every block: answered from the index alone
    EXPECT_FALSE(reader.find(records.keys[0] - 1).has_value());
    EXPECT_EQ(reader.blocks_read(), 2u);
  }
  std::filesystem::remove(path);
}

// One reader shared by two threads (a server's workers): every answer right, no race (this
// test runs under ThreadSanitizer).
TEST(ScoreDatabaseFile, TwoThreadsShareOneReader) {
  const ScoreRecords records = random_records(30'000, 17);
  const auto path = temporary("shared.rsdb");
  save_score_database(path, {"reversi", "4x4", records}, 64);
  const ScoreDatabaseReader reader(path, "reversi", "4x4");
  std::atomic<int> wrong{0};
  const auto read_all = [&](std::size_t first) {
    for (std::size_t n = 0; n < records.keys.size(); ++n) {
      const std::size_t i = (first + n * 7919) % records.keys.size();
      if (reader.find(records.keys[i]) != std::optional<int>(records.scores[i])) ++wrong;
    }
  };
  std::thread other(read_all, 1);
  read_all(0);
  other.join();
  EXPECT_EQ(wrong.load(), 0);
  std::filesystem::remove(path);
}

/// A format 1 file: the keys' gaps and the scores in one run after the count.
void save_format_1(const std::filesystem::path& path, const ScoreRecords& records) {
  std::vector<unsigned char> bytes = begin_binary_file("RSCOREDB", 1);
  for (const std::string name : {"reversi", "4x4"}) {
    bytes.push_back(static_cast<unsigned char>(name.size()));
    bytes.insert(bytes.end(), name.begin(), name.end());
  }
  put_le(bytes, records.keys.size(), 8);
  std::uint64_t previous = 0;
  for (const std::uint64_t key : records.keys) {
    for (std::uint64_t gap = key - previous;; gap >>= 7) {
      bytes.push_back(static_cast<unsigned char>((gap & 0x7f) | (gap >= 0x80 ? 0x80 : 0)));
      if (gap < 0x80) break;
    }
    previous = key;
  }
  for (const std::int8_t score : records.scores) bytes.push_back(static_cast<unsigned char>(score));
  finish_binary_file(path, std::move(bytes), "test file");
}

TEST(ScoreDatabaseFile, AFormat1FileIsStillRead) {
  const ScoreRecords records = random_records(3'000, 9);
  const auto path = temporary("format1.rsdb");
  save_format_1(path, records);
  const ScoreDatabaseReader reader(path, "reversi", "4x4");
  expect_same_answers(reader, records);
  EXPECT_EQ(load_score_database(path, "reversi", "4x4").records.keys, records.keys);
  std::filesystem::remove(path);
}

TEST(ScoreDatabaseFile, DamagedCutShortAndForeignFilesAreRefused) {
  const ScoreRecords records = random_records(20'000, 11);
  const auto path = temporary("damaged.rsdb");
  save_score_database(path, {"congkak", "(4,4)", records});
  EXPECT_THROW(ScoreDatabaseReader(path, "congkak", "(4,3)"), FileError);
  EXPECT_THROW(ScoreDatabaseReader(path, "reversi", "(4,4)"), FileError);
  EXPECT_THROW(load_score_database(path, "congkak", "(5,4)"), FileError);
  const std::string bytes = read_bytes(path);

  // A byte of the header or the index: refused on opening. A byte of a block: opening works,
  // the block is refused when a key falls in it, and reading the whole file refuses it.
  // magic and version (12), "congkak" and "(4,4)" with their lengths (14), count, records a
  // block and blocks (20): the index starts at byte 46.
  const std::size_t index_at = 50, block_at = bytes.size() - 100;
  for (const std::size_t at : {std::size_t{9}, index_at, block_at}) {
    std::string damaged = bytes;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x10);
    write_bytes(path, damaged);
    EXPECT_THROW(load_score_database(path, "congkak", "(4,4)"), FileError) << "byte " << at;
    if (at != block_at) {
      try {
        const ScoreDatabaseReader reader(path, "congkak", "(4,4)");
        ADD_FAILURE() << "byte " << at << ": a damaged header was opened";
      } catch (const FileError& error) {
        if (at == index_at) {
          EXPECT_NE(std::string(error.what()).find("header checksum mismatch"), std::string::npos)
              << error.what();
        }
      }
      continue;
    }
    const ScoreDatabaseReader reader(path, "congkak", "(4,4)");
    EXPECT_EQ(reader.find(records.keys[0]), records.scores[0]);
    try {
      (void)reader.find(records.keys.back());
      ADD_FAILURE() << "a damaged block was answered";
    } catch (const FileError& error) {
      EXPECT_NE(std::string(error.what()).find("block 4: checksum mismatch"), std::string::npos)
          << error.what();
    }
  }
  for (const std::size_t size :
       {std::size_t{0}, std::size_t{30}, bytes.size() / 2, bytes.size() - 1}) {
    write_bytes(path, bytes.substr(0, size));
    EXPECT_THROW(ScoreDatabaseReader(path, "congkak", "(4,4)"), FileError) << size << " bytes";
    EXPECT_THROW(load_score_database(path, "congkak", "(4,4)"), FileError) << size << " bytes";
  }
  std::filesystem::remove(path);
  EXPECT_THROW(ScoreDatabaseReader(path, "congkak", "(4,4)"), FileError);
}

TEST(ScoreDatabaseFile, TheRecordBytesAreTheFilesLessItsHeader) {
  const ScoreRecords records = random_records(10'000, 13);
  const auto path = temporary("bytes.rsdb");
  save_score_database(path, {"reversi", "4x4", records});
  // magic, version, two names, count, records a block, blocks, header CRC, file CRC
  const std::size_t header = 8 + 4 + (1 + 7) + (1 + 3) + 8 + 4 + 8 + 4 + 4;
  EXPECT_EQ(std::filesystem::file_size(path), header + encoded_record_bytes(records));
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace rastros::engine
