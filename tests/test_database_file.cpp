// The .rdb database file: write -> read round trips, lookups, every kind of damaged file
// rejected with FileError naming the problem, atomic writes, and bytes per position.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <boost/crc.hpp>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "core/errors.hpp"
#include "db/database_file.hpp"
#include "file_size_limit.hpp"
#include "rastros/canonical.hpp"
#include "rastros/rastros.hpp"
#include "temporary_directory.hpp"

namespace rastros {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<unsigned char>;

// A fresh directory per test, removed afterwards.
class DatabaseFileTest : public ::testing::Test {
 protected:
  fs::path file(const std::string& name) const { return directory_ / name; }
  std::vector<std::string> directory_listing() const { return temporary_.listing(); }
  TemporaryDirectory temporary_{"rastros-db-test"};
  const fs::path& directory_ = temporary_.path();
};

Bytes read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_bytes(const fs::path& path, const Bytes& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

// Rewrites the trailing CRC-32 so that a deliberate edit passes the checksum and reaches the
// check behind it.
void fix_checksum(Bytes& bytes) {
  boost::crc_32_type crc;
  crc.process_bytes(bytes.data(), bytes.size() - 4);
  const std::uint32_t checksum = crc.checksum();
  for (int i = 0; i < 4; ++i)
    bytes[bytes.size() - 4 + i] = static_cast<unsigned char>(checksum >> (8 * i));
}

DatabaseHeader header_for(const Board& board, DatabaseKind kind = DatabaseKind::strong) {
  DatabaseHeader header;
  header.width = board.width();
  header.height = board.height();
  header.steps = board.steps();
  header.start = board.default_start();
  header.kind = kind;
  return header;
}

// A record that is valid for `key`: a win in an odd number of plies, a loss in an even one, a
// best move to a neighbouring square most of the time (as real moves are).
DatabaseRecord random_record(const Board& board, const PackedPosition& key, std::mt19937_64& rng) {
  DatabaseRecord record;
  const int roll = static_cast<int>(rng() % 8);
  const int free_count = std::max(1, count(key.free));
  if (roll == 0) {
    record.value = Value::draw;
  } else {
    record.value = roll % 2 ? Value::win : Value::loss;
    const int remoteness = static_cast<int>(rng() % std::min(free_count, 63));
    record.remoteness =
        static_cast<std::uint8_t>(record.value == Value::win ? remoteness | 1 : remoteness & ~1);
  }
  const Square snail = key.snail & 0x7f;
  const SquareMask steps = snail < board.square_count() ? board.neighbours(snail) : 0;
  const int pick = static_cast<int>(rng() % 16);
  if (pick == 0) {
    record.best_move = DatabaseRecord::kNoMove;
  } else if (pick == 1 || steps == 0) {
    record.best_move = static_cast<std::uint8_t>(rng() % board.square_count());
  } else {
    SquareMask rest = steps;
    for (int skip = static_cast<int>(rng() % count(steps)); skip > 0; --skip) rest &= rest - 1;
    record.best_move = static_cast<std::uint8_t>(lowest_square(rest));
  }
  return record;
}

// n distinct random keys over the whole key space of `board` (any free mask, any snail byte
// below 128), with a few at the extremes so the 72-bit arithmetic is exercised.
Database random_database(const Board& board, std::size_t n, std::uint64_t seed,
                         DatabaseKind kind = DatabaseKind::strong) {
  std::mt19937_64 rng(seed);
  std::set<PackedPosition> keys;
  if (n >= 4) {
    keys.insert({0, 0});
    keys.insert({board.all_squares(), static_cast<std::uint8_t>(board.square_count() - 1)});
    keys.insert({board.all_squares(), 0x80});
    keys.insert({board.all_squares() >> 1, 0x7f});
  }
  while (keys.size() < n) {
    keys.insert({rng() & board.all_squares(), static_cast<std::uint8_t>(rng() % 128)});
  }
  std::vector<PackedPosition> sorted(keys.begin(), keys.end());
  std::vector<DatabaseRecord> records;
  for (const PackedPosition& key : sorted) records.push_back(random_record(board, key, rng));
  DatabaseHeader header = header_for(board, kind);
  if (kind == DatabaseKind::strategy) header.book_depth = 7;
  return Database(header, std::move(sorted), std::move(records));
}

// Canonical keys of the non-final positions of random games: the kind of key set a real
// database holds.
Database sampled_database(const Board& board, std::size_t n, std::uint64_t seed) {
  const Rastros game(board);
  const Canonicalizer canonicalizer(board);
  std::mt19937_64 rng(seed);
  std::set<PackedPosition> keys;
  while (keys.size() < n) {
    Position position = game.start_position();
    while (!game.has_ended(position) && keys.size() < n) {
      keys.insert(canonicalizer.pack(position));
      const SquareSet moves = game.legal_moves(position);
      SquareMask rest = moves.mask();
      for (int skip = static_cast<int>(rng() % moves.size()); skip > 0; --skip) rest &= rest - 1;
      position = game.play(position, lowest_square(rest));
    }
  }
  std::vector<PackedPosition> sorted(keys.begin(), keys.end());
  std::vector<DatabaseRecord> records;
  for (const PackedPosition& key : sorted) records.push_back(random_record(board, key, rng));
  return Database(header_for(board), std::move(sorted), std::move(records));
}

void expect_same(const Database& a, const Database& b) {
  EXPECT_EQ(a.header(), b.header());
  ASSERT_EQ(a.size(), b.size());
  EXPECT_TRUE(std::equal(a.keys().begin(), a.keys().end(), b.keys().begin()));
  EXPECT_TRUE(std::equal(a.records().begin(), a.records().end(), b.records().begin()));
}

// The FileError message of reading `path`, or "" when it reads without error.
std::string read_error(const fs::path& path, std::optional<DatabaseKind> kind = std::nullopt) {
  try {
    read_database(path, kind);
  } catch (const FileError& error) {
    return error.what();
  }
  return "";
}

// -- Round trips and lookups ------------------------------------------------------------------

TEST_F(DatabaseFileTest, RoundTripRandom5x5) {
  for (std::size_t n : {1u, 2u, 3u, 100u, 5000u}) {
    const Database database = random_database(Board(5, 5), n, n);
    write_database(file("db.rdb"), database);
    expect_same(database, read_database(file("db.rdb")));
  }
}

// How the distributed strong solve writes (cluster/distributed_database_writer.hpp): each block
// encoded a position at a time, whichever runs its positions come from, and stored from its
// columns; the blocks framed give encode_database's bytes for the whole, at any block size.
TEST(DatabaseFileParts, BlocksStoredFromTheirColumnsMakeTheWholeFile) {
  for (const Database& database :
       {random_database(Board(8, 8), 20000, 5), sampled_database(Board(5, 5), 3000, 6),
        random_database(Board(4, 4), 1, 7), random_database(Board(4, 4), 0, 8)}) {
    const std::size_t n = database.size();
    for (std::uint32_t block_positions : {1u, 7u, 1000u, 2999u, 3000u, kDatabaseBlockPositions}) {
      std::vector<StoredBlock> blocks;
      for (std::size_t begin = 0; begin < n; begin += block_positions) {
        const std::size_t end = std::min<std::size_t>(n, begin + block_positions);
        ColumnEncoder encoder(database.header(), nullptr);
        for (std::size_t i = begin; i < end; ++i) {
          encoder.add(database.keys()[i], database.records()[i]);
        }
        blocks.push_back(store_block(database.keys()[begin], std::move(encoder).finish()));
        const StoredBlock direct =
            store_block(database.header(), database.keys().subspan(begin, end - begin),
                        database.records().subspan(begin, end - begin));
        EXPECT_EQ(direct.bytes, blocks.back().bytes);
        EXPECT_EQ(direct.crc, blocks.back().crc);
      }
      const Bytes image = database_file_image(database.header(), blocks, block_positions);
      EXPECT_EQ(image, encode_database(database, block_positions))
          << n << " keys in blocks of " << block_positions;
      expect_same(database, decode_database(image, "blocks.rdb"));
      if (!blocks.empty()) {
        blocks.pop_back();
        EXPECT_THROW(database_file_image(database.header(), blocks, block_positions),
                     std::invalid_argument);
      }
    }
  }
}

// The distributed writer never holds a Database, so the encoder makes its checks: a file
// read_database would refuse is never written.
TEST(DatabaseFileParts, EncoderRefusesWhatTheDatabaseRefuses) {
  const Database database = random_database(Board(5, 5), 10, 3);
  const PackedPosition first = database.keys()[0];
  const DatabaseRecord record = database.records()[0];
  {
    ColumnEncoder encoder(database.header(), &first);
    EXPECT_THROW(encoder.add(first, record), std::invalid_argument);  // not above `previous`
  }
  {
    ColumnEncoder encoder(database.header(), nullptr);
    encoder.add(database.keys()[1], record);
    EXPECT_THROW(encoder.add(first, record), std::invalid_argument);  // decreasing
    DatabaseRecord far = record;
    far.remoteness = 64;
    EXPECT_THROW(encoder.add(database.keys()[2], far), std::invalid_argument);
    DatabaseRecord off_board = record;
    off_board.best_move = 25;
    EXPECT_THROW(encoder.add(database.keys()[3], off_board), std::invalid_argument);
  }
  DatabaseHeader bad = database.header();
  bad.width = 1;
  EXPECT_THROW(ColumnEncoder(bad, nullptr), std::invalid_argument);
}

TEST_F(DatabaseFileTest, RoundTripRandom8x8UsesAll72KeyBits) {
  const Database database = random_database(Board(8, 8), 20000, 88);
  EXPECT_EQ(database.keys().back().free >> 63, 1u);
  write_database(file("db.rdb"), database);
  expect_same(database, read_database(file("db.rdb"), DatabaseKind::strong));
}

TEST_F(DatabaseFileTest, RoundTripKeepsEveryHeaderField) {
  DatabaseHeader header = header_for(Board(6, 4, StepSet::orthogonal), DatabaseKind::strategy);
  header.start = 9;
  header.rules = StuckRule::draws;
  header.book_depth = 12;
  const Board board(6, 4, StepSet::orthogonal);
  std::mt19937_64 rng(5);
  std::vector<PackedPosition> keys = {{0b1011, 4}, {0b1011, 9}, {0xffff, 2}};
  std::vector<DatabaseRecord> records;
  for (const auto& key : keys) records.push_back(random_record(board, key, rng));
  const Database database(header, keys, records);
  write_database(file("db.rdb"), database);
  const Database loaded = read_database(file("db.rdb"), DatabaseKind::strategy);
  expect_same(database, loaded);
  EXPECT_EQ(loaded.header().format_version, kDatabaseFormatVersion);
  EXPECT_EQ(loaded.header().position_count, 3u);
  EXPECT_EQ(loaded.header().book_depth, 12);
  EXPECT_EQ(loaded.header().rules, StuckRule::draws);
  EXPECT_EQ(loaded.header().steps, StepSet::orthogonal);
}

TEST_F(DatabaseFileTest, RoundTripEmpty) {
  const Database database(header_for(Board(7, 7)), {}, {});
  write_database(file("empty.rdb"), database);
  const Database loaded = read_database(file("empty.rdb"));
  expect_same(database, loaded);
  EXPECT_EQ(loaded.size(), 0u);
  EXPECT_EQ(loaded.find({0, 0}), nullptr);
}

TEST_F(DatabaseFileTest, EveryMoveEncodingRoundTrips) {
  // Every snail square (with and without the side-to-move bit of unsymmetrised keys) with every
  // best move: the eight steps, far squares, and no move. Looping over `free` outermost keeps
  // the keys sorted.
  const Board board(8, 8);
  std::vector<PackedPosition> keys;
  std::vector<DatabaseRecord> records;
  for (int move = 0; move <= 64; ++move) {
    for (int snail_byte = 0; snail_byte < 256; ++snail_byte) {
      if ((snail_byte & 0x7f) >= 64) continue;
      keys.push_back({static_cast<SquareMask>(move + 1), static_cast<std::uint8_t>(snail_byte)});
      records.push_back(
          {Value::loss, 2, static_cast<std::uint8_t>(move == 64 ? DatabaseRecord::kNoMove : move)});
    }
  }
  const Database database(header_for(board), keys, records);
  write_database(file("moves.rdb"), database);
  expect_same(database, read_database(file("moves.rdb")));
}

TEST_F(DatabaseFileTest, FindsEveryKeyAndNothingElse) {
  const Database database = random_database(Board(5, 5), 10000, 3);
  write_database(file("db.rdb"), database);
  const Database loaded = read_database(file("db.rdb"));
  for (std::size_t i = 0; i < loaded.size(); ++i) {
    const DatabaseRecord* record = loaded.find(database.keys()[i]);
    ASSERT_NE(record, nullptr);
    EXPECT_EQ(*record, database.records()[i]);
  }
  const std::set<PackedPosition> present(database.keys().begin(), database.keys().end());
  std::mt19937_64 rng(4);
  for (int probe = 0; probe < 20000; ++probe) {
    const PackedPosition key{rng() & Board(5, 5).all_squares(),
                             static_cast<std::uint8_t>(rng() % 256)};
    EXPECT_EQ(loaded.find(key) != nullptr, present.count(key) == 1);
  }
  // Just outside both ends.
  EXPECT_EQ(loaded.find({0, 0}) != nullptr, present.count({0, 0}) == 1);
  EXPECT_EQ(loaded.find({~SquareMask{0}, 255}), nullptr);
}

TEST(Database, RejectsInconsistentContents) {
  const DatabaseHeader header = header_for(Board(5, 5));
  EXPECT_THROW(Database(header, {{1, 0}}, {}), std::invalid_argument);
  EXPECT_THROW(Database(header, {{2, 0}, {1, 0}}, {{}, {}}), std::invalid_argument);
  EXPECT_THROW(Database(header, {{1, 0}, {1, 0}}, {{}, {}}), std::invalid_argument);
  EXPECT_THROW(Database(header, {{1, 0}}, {{Value::win, 64, 0}}), std::invalid_argument);
  EXPECT_THROW(Database(header, {{1, 0}}, {{Value::win, 1, 25}}), std::invalid_argument);
  EXPECT_THROW(Database(header, {{1, 0}}, {{static_cast<Value>(3), 1, 0}}), std::invalid_argument);
  DatabaseHeader goal_start = header;
  goal_start.start = 0;
  EXPECT_THROW(Database(goal_start, {}, {}), std::invalid_argument);
  EXPECT_EQ(Database(header, {{1, 0}, {1, 1}}, {{}, {}}).header().position_count, 2u);
}

// -- Damaged files ----------------------------------------------------------------------------

TEST_F(DatabaseFileTest, MissingFile) {
  const std::string message = read_error(file("nothing.rdb"));
  EXPECT_NE(message.find("missing"), std::string::npos) << message;
  EXPECT_NE(message.find("nothing.rdb"), std::string::npos) << message;
}

TEST_F(DatabaseFileTest, DirectoryIsNotADatabase) {
  EXPECT_NE(read_error(directory_), "");
}

TEST_F(DatabaseFileTest, TruncatedAtEveryOffset) {
  for (std::size_t n : {0u, 40u}) {  // raw and zlib-compressed payloads
    const Database database = random_database(Board(5, 5), n, 11);
    write_database(file("db.rdb"), database);
    const Bytes whole = read_bytes(file("db.rdb"));
    for (std::size_t length = 0; length < whole.size(); ++length) {
      write_bytes(file("cut.rdb"), Bytes(whole.begin(), whole.begin() + length));
      const std::string message = read_error(file("cut.rdb"));
      EXPECT_NE(message.find("truncated"), std::string::npos)
          << "n " << n << ", length " << length << ": " << message;
    }
  }
}

TEST_F(DatabaseFileTest, TruncatedLargeFile) {
  write_database(file("db.rdb"), random_database(Board(8, 8), 50000, 12));
  const Bytes whole = read_bytes(file("db.rdb"));
  for (std::size_t length : {whole.size() / 3, whole.size() / 2, whole.size() - 1}) {
    write_bytes(file("cut.rdb"), Bytes(whole.begin(), whole.begin() + length));
    EXPECT_NE(read_error(file("cut.rdb")).find("truncated"), std::string::npos) << length;
  }
}

TEST_F(DatabaseFileTest, EveryFlippedByteIsRejected) {
  for (std::size_t n : {0u, 3u, 60u}) {
    write_database(file("db.rdb"), random_database(Board(5, 5), n, 21));
    const Bytes whole = read_bytes(file("db.rdb"));
    for (std::size_t offset = 0; offset < whole.size(); ++offset) {
      for (unsigned char flip : {0x01, 0x80, 0xff}) {
        Bytes damaged = whole;
        damaged[offset] ^= flip;
        write_bytes(file("bad.rdb"), damaged);
        const std::string message = read_error(file("bad.rdb"));
        // The preamble's own fields are judged before the checksum, so each has its message.
        const char* expected = offset < 8    ? "bad magic"
                               : offset < 12 ? "format version"
                               : offset < 20 ? ""
                                             : "checksum mismatch (corrupt)";
        EXPECT_NE(message, "") << "offset " << offset << " flip " << int{flip};
        EXPECT_NE(message.find(expected), std::string::npos)
            << "offset " << offset << " flip " << int{flip} << ": " << message;
      }
    }
  }
}

TEST_F(DatabaseFileTest, EditsBehindAValidChecksumNeverCrash) {
  // A buggy writer could produce a well-checksummed file with nonsense inside: every such edit
  // either reads as some database or is refused with FileError, never anything worse.
  write_database(file("db.rdb"), random_database(Board(5, 5), 30, 31));
  const Bytes whole = read_bytes(file("db.rdb"));
  int refused = 0;
  for (std::size_t offset = 20; offset + 4 < whole.size(); ++offset) {
    for (unsigned char flip : {0x01, 0x10, 0xff}) {
      Bytes damaged = whole;
      damaged[offset] ^= flip;
      fix_checksum(damaged);
      write_bytes(file("bad.rdb"), damaged);
      refused += read_error(file("bad.rdb")) != "";
    }
  }
  EXPECT_GT(refused, 0);
}

TEST_F(DatabaseFileTest, WrongMagic) {
  write_database(file("db.rdb"), random_database(Board(5, 5), 10, 41));
  Bytes bytes = read_bytes(file("db.rdb"));
  bytes[1] = 'X';
  fix_checksum(bytes);
  write_bytes(file("bad.rdb"), bytes);
  EXPECT_NE(read_error(file("bad.rdb")).find("not a rastros database (bad magic)"),
            std::string::npos);
  write_bytes(file("text.rdb"), Bytes{'h', 'e', 'l', 'l', 'o', '\n'});
  EXPECT_NE(read_error(file("text.rdb")).find("bad magic"), std::string::npos);
}

TEST_F(DatabaseFileTest, WrongVersion) {
  write_database(file("db.rdb"), random_database(Board(5, 5), 10, 42));
  Bytes bytes = read_bytes(file("db.rdb"));
  bytes[8] = 7;  // a well-formed file from another build: version 7, checksum intact
  fix_checksum(bytes);
  write_bytes(file("v7.rdb"), bytes);
  EXPECT_NE(read_error(file("v7.rdb"))
                .find("format version 7, this build reads " +
                      std::to_string(kOldestDatabaseFormatVersion) + " and " +
                      std::to_string(kDatabaseFormatVersion)),
            std::string::npos)
      << read_error(file("v7.rdb"));
}

TEST_F(DatabaseFileTest, WrongKind) {
  write_database(file("strategy.rdb"),
                 random_database(Board(5, 5), 10, 43, DatabaseKind::strategy));
  write_database(file("strong.rdb"), random_database(Board(5, 5), 10, 44));
  EXPECT_NE(read_error(file("strategy.rdb"), DatabaseKind::strong)
                .find("is a strategy database, expected strong"),
            std::string::npos);
  EXPECT_NE(read_error(file("strong.rdb"), DatabaseKind::strategy)
                .find("is a strong database, expected strategy"),
            std::string::npos);
  EXPECT_EQ(read_error(file("strategy.rdb"), DatabaseKind::strategy), "");
  EXPECT_EQ(read_error(file("strategy.rdb")), "");
}

TEST_F(DatabaseFileTest, TrailingBytes) {
  write_database(file("db.rdb"), random_database(Board(5, 5), 10, 45));
  Bytes bytes = read_bytes(file("db.rdb"));
  bytes.push_back(0);
  write_bytes(file("long.rdb"), bytes);
  EXPECT_NE(read_error(file("long.rdb")).find("corrupt"), std::string::npos);
}

// -- Writing ----------------------------------------------------------------------------------

TEST_F(DatabaseFileTest, WriteLeavesOnlyTheFinalFileAndReplacesAnOldOne) {
  write_database(file("db.rdb"), random_database(Board(5, 5), 100, 51));
  const Database second = random_database(Board(5, 5), 200, 52);
  write_database(file("db.rdb"), second);
  EXPECT_EQ(directory_listing(), std::vector<std::string>{"db.rdb"});
  expect_same(second, read_database(file("db.rdb")));
}

TEST_F(DatabaseFileTest, WriteIntoMissingDirectoryFails) {
  EXPECT_THROW(write_database(file("no/such/dir/db.rdb"), random_database(Board(5, 5), 10, 53)),
               std::system_error);
  EXPECT_EQ(directory_listing(), std::vector<std::string>{});
}

TEST_F(DatabaseFileTest, FailedWriteLeavesNoFileAndKeepsTheOldOne) {
  // A real failure in the middle of writing: a file size limit (file_size_limit.hpp).
  const Database old_database = random_database(Board(5, 5), 10, 54);
  write_database(file("db.rdb"), old_database);
  const Database big = random_database(Board(8, 8), 50000, 55);

  bool threw = false;
  {
    const FileSizeLimit limit(4096);
    ASSERT_TRUE(limit.active());
    try {
      write_database(file("db.rdb"), big);
      write_database(file("new.rdb"), big);
    } catch (const std::system_error&) {
      threw = true;
    }
  }

  EXPECT_TRUE(threw);
  EXPECT_EQ(directory_listing(), std::vector<std::string>{"db.rdb"});
  expect_same(old_database, read_database(file("db.rdb")));

  // And with no old file: nothing at all under the final name.
  fs::remove(file("db.rdb"));
  {
    const FileSizeLimit limit(4096);
    ASSERT_TRUE(limit.active());
    EXPECT_THROW(write_database(file("db.rdb"), big), std::system_error);
  }
  EXPECT_EQ(directory_listing(), std::vector<std::string>{});
}

// -- Size ------------------------------------------------------------------------------------

TEST_F(DatabaseFileTest, BytesPerPositionOfSampledKeys) {
  // 100k canonical keys met by random 5x5 games: sparser than a strong database's complete
  // layers, so a pessimistic sample for the key column.
  constexpr std::size_t kPositions = 100000;
  const Database database = sampled_database(Board(5, 5), kPositions, 61);
  write_database(file("sample.rdb"), database);
  const double bytes_per_position =
      static_cast<double>(fs::file_size(file("sample.rdb"))) / kPositions;
  std::printf("5x5 sample of %zu positions: %.3f bytes per position\n", kPositions,
              bytes_per_position);
  RecordProperty("bytes_per_position", std::to_string(bytes_per_position));
  EXPECT_LE(bytes_per_position, 4.0);
  expect_same(database, read_database(file("sample.rdb")));
}

}  // namespace
}  // namespace rastros
