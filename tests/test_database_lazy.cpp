// DatabaseReader (db/database_reader.hpp): a database file read a block at a time. Its answers
// against the whole file loaded by read_database (every record of the shipped 5x5 database, a
// sample of the 7x7 strategy file, queries from random games), block edges, the cache, damaged
// blocks and indexes refused when they are read, headers claiming more than the file holds
// refused before anything is allocated for them, FIFOs and devices refused without blocking,
// and format 1 files, which have no index, read whole.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/crc32.hpp"
#include "core/errors.hpp"
#include "db/database_file.hpp"
#include "db/database_query.hpp"
#include "db/database_reader.hpp"
#include "rastros/canonical.hpp"
#include "rastros/rastros.hpp"
#include "temporary_directory.hpp"

namespace rastros {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<unsigned char>;

const fs::path kData = RASTROS_DATA_DIR;

void write_bytes(const fs::path& path, const Bytes& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

long peak_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

template <class T>
T get_le(const Bytes& bytes, std::size_t at) {
  T value = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) value |= static_cast<T>(bytes[at + i]) << (8 * i);
  return value;
}

template <class T>
void put_le(Bytes& bytes, std::size_t at, T value) {
  for (std::size_t i = 0; i < sizeof(T); ++i) {
    bytes[at + i] = static_cast<unsigned char>(value >> (8 * i));
  }
}

// Where the parts of a format 2 image lie (database_file.hpp), read from the image itself.
struct Parts {
  std::size_t header_length = 0;
  std::size_t index_offset = 0;
  std::size_t blocks_offset = 0;
  std::size_t block_count = 0;
  std::vector<std::size_t> block_offset;  // of each block, and last the end of the blocks
};

Parts parts_of(const Bytes& image) {
  Parts parts;
  parts.header_length = get_le<std::uint32_t>(image, 20);
  parts.index_offset = 24 + parts.header_length;
  const std::string text(image.begin() + 24, image.begin() + 24 + parts.header_length);
  const std::size_t stored_bytes = std::stoull(text.substr(text.find_last_of(' ') + 1));
  parts.blocks_offset = image.size() - 4 - stored_bytes;
  parts.block_count = (parts.blocks_offset - 4 - parts.index_offset) / 24;
  parts.block_offset.push_back(parts.blocks_offset);
  for (std::size_t j = 0; j < parts.block_count; ++j) {
    parts.block_offset.push_back(parts.block_offset.back() +
                                 get_le<std::uint32_t>(image, parts.index_offset + 24 * j + 16));
  }
  return parts;
}

// The index's CRC and the whole file's made to match the bytes again.
void fix_checksums(Bytes& image) {
  const Parts parts = parts_of(image);
  const std::size_t index_end = parts.blocks_offset - 4;
  put_le<std::uint32_t>(image, index_end, crc32_of(std::span(image).first(index_end)));
  put_le<std::uint32_t>(image, image.size() - 4,
                        crc32_of(std::span(image).first(image.size() - 4)));
}

// The FileError message of `action`, or "" when it throws none.
template <class Action>
std::string error_of(Action action) {
  try {
    action();
  } catch (const FileError& error) {
    return error.what();
  }
  return "";
}

DatabaseHeader header_for(const Board& board) {
  DatabaseHeader header;
  header.width = board.width();
  header.height = board.height();
  header.steps = board.steps();
  header.start = board.default_start();
  return header;
}

// `n` distinct random keys of `board` with valid records.
Database random_database(const Board& board, std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::set<PackedPosition> keys;
  while (keys.size() < n) {
    keys.insert({rng() & board.all_squares(), static_cast<std::uint8_t>(rng() % 128)});
  }
  std::vector<PackedPosition> sorted(keys.begin(), keys.end());
  std::vector<DatabaseRecord> records;
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    const bool win = rng() % 2;
    records.push_back({win ? Value::win : Value::loss, static_cast<std::uint8_t>(rng() % 64),
                       static_cast<std::uint8_t>(rng() % board.square_count())});
  }
  return Database(header_for(board), std::move(sorted), std::move(records));
}

// Every key of `whole` found by `reader` with its record, and keys next to them (which the
// database may or may not hold) answered as `whole` answers them.
void expect_same_answers(const Database& whole, const DatabaseReader& reader, std::size_t stride) {
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < whole.size(); i += stride) {
    const PackedPosition key = whole.keys()[i];
    const std::optional<DatabaseRecord> found = reader.find(key);
    wrong += !found || *found != whole.records()[i];
    for (const PackedPosition near :
         {PackedPosition{key.free, static_cast<std::uint8_t>(key.snail + 1)},
          PackedPosition{key.free - 1, key.snail}, PackedPosition{key.free + 1, 0}}) {
      const DatabaseRecord* expected = whole.find(near);
      const std::optional<DatabaseRecord> answer = reader.find(near);
      wrong += expected ? (!answer || *answer != *expected) : answer.has_value();
    }
  }
  EXPECT_EQ(wrong, 0u);
}

// -- Answers ----------------------------------------------------------------------------------

TEST(DatabaseReader, EveryRecordOfThe5x5DatabaseAsTheWholeLoad) {
  const fs::path path = kData / "5x5-standard.rdb";
  const Database whole = read_database(path);
  const DatabaseReader reader(path);
  ASSERT_TRUE(reader.reads_blocks());
  EXPECT_EQ(reader.header(), whole.header());
  EXPECT_EQ(reader.size(), whole.size());
  EXPECT_EQ(reader.blocks_read(), 0u);  // opening reads no block
  expect_same_answers(whole, reader, 1);
  EXPECT_FALSE(reader.find({0, 0}));
  EXPECT_FALSE(reader.find({~SquareMask{0}, 255}));
  // The cache holds all of this small file: each block was read once.
  EXPECT_EQ(reader.blocks_read(), reader.block_count());
}

TEST(DatabaseReader, QueriesFromRandomGamesAsTheWholeLoad) {
  for (const char* name : {"5x5-standard.rdb", "7x7-standard-strategy.rdb"}) {
    const fs::path path = kData / name;
    const Database whole = read_database(path);
    const DatabaseReader reader(path);
    expect_same_answers(whole, reader, 997);
    const DatabaseQuery from_whole(whole);
    const DatabaseQuery from_blocks(reader);
    const Rastros& game = from_whole.game();
    std::mt19937_64 rng(7);
    std::size_t answered = 0;
    for (int games = 0; games < 200; ++games) {
      Position position = game.start_position();
      while (!game.has_ended(position)) {
        const std::optional<DatabaseAnswer> expected = from_whole.answer(position);
        const std::optional<DatabaseAnswer> answer = from_blocks.answer(position);
        ASSERT_EQ(answer.has_value(), expected.has_value());
        if (expected) {
          ++answered;
          EXPECT_EQ(score_of(answer->outcome), score_of(expected->outcome));
          EXPECT_EQ(answer->best_moves, expected->best_moves);
          ASSERT_EQ(answer->children.size(), expected->children.size());
          for (std::size_t i = 0; i < expected->children.size(); ++i) {
            EXPECT_EQ(answer->children[i].move, expected->children[i].move);
            EXPECT_EQ(score_of(answer->children[i].outcome),
                      score_of(expected->children[i].outcome));
          }
        }
        const SquareSet moves = game.legal_moves(position);
        SquareMask rest = moves.mask();
        for (int skip = static_cast<int>(rng() % moves.size()); skip > 0; --skip) rest &= rest - 1;
        position = game.play(position, lowest_square(rest));
      }
    }
    EXPECT_GT(answered, 200u) << name;
  }
}

TEST(DatabaseReader, AFirstQueryReadsOnlyTheBlocksItNeeds) {
  const fs::path path = kData / "8x8-standard-proof.rdb";
  const auto started = std::chrono::steady_clock::now();
  const DatabaseReader reader(path);
  const DatabaseQuery query(reader);
  const std::optional<DatabaseAnswer> answer = query.answer(query.game().start_position());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->outcome.value, Value::loss);  // data/README.md: player 2 wins 8x8
  EXPECT_GT(reader.block_count(), 1000u);
  EXPECT_LE(reader.blocks_read(), 9u);  // the start and its eight moves
  // Well under a second even on a loaded machine or in a sanitizer build (the whole load takes
  // about ten).
  EXPECT_LT(seconds, 2.0);
}

TEST(DatabaseReader, BlockEdgesAndSizes) {
  const TemporaryDirectory directory("rastros-lazy-test");
  for (std::size_t n : {0u, 1u, 6u, 7u, 8u, 49u, 1000u}) {
    const Database database = random_database(Board(5, 5), n, n + 1);
    for (std::uint32_t block_positions : {1u, 7u, kDatabaseBlockPositions}) {
      const fs::path path = directory.path() / "db.rdb";
      write_bytes(path, encode_database(database, block_positions));
      const DatabaseReader reader(path);
      EXPECT_EQ(reader.block_count(), (n + block_positions - 1) / block_positions);
      EXPECT_EQ(reader.size(), n);
      expect_same_answers(database, reader, 1);
      expect_same_answers(database, reader, 1);  // from the cache
      EXPECT_EQ(reader.blocks_read(), reader.block_count());
      EXPECT_FALSE(reader.find({0, 0}) && n == 0);
      expect_same_answers(read_database(path), reader, 1);
    }
  }
}

TEST(DatabaseReader, ASmallCacheStillAnswersAndThreadsAgree) {
  const fs::path path = kData / "5x5-standard.rdb";
  const Database whole = read_database(path);
  DatabaseReaderOptions options;
  options.cache_bytes = 1;  // one block at a time
  const DatabaseReader reader(path, std::nullopt, options);
  expect_same_answers(whole, reader, 101);
  std::atomic<std::size_t> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937_64 rng(t);
      for (int probe = 0; probe < 200; ++probe) {
        const std::size_t i = rng() % whole.size();
        const std::optional<DatabaseRecord> found = reader.find(whole.keys()[i]);
        if (!found || *found != whole.records()[i]) ++wrong;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0u);
  // Blocks left the cache and were read again.
  EXPECT_GT(reader.blocks_read(), reader.block_count());
}

// -- Damaged files ----------------------------------------------------------------------------

TEST(DatabaseReader, ADamagedBlockIsRefusedWhenALookupReadsIt) {
  const TemporaryDirectory directory("rastros-lazy-test");
  const Database database = random_database(Board(6, 6), 5000, 3);
  const Bytes image = encode_database(database, 1000);
  const Parts parts = parts_of(image);
  ASSERT_EQ(parts.block_count, 5u);
  const fs::path path = directory.path() / "damaged.rdb";
  for (std::size_t block = 0; block < parts.block_count; ++block) {
    Bytes damaged = image;
    damaged[(parts.block_offset[block] + parts.block_offset[block + 1]) / 2] ^= 0x10;
    write_bytes(path, damaged);
    const DatabaseReader reader(path);  // the header and the index are intact
    for (std::size_t other = 0; other < parts.block_count; ++other) {
      const std::size_t i = other * 1000 + 500;
      const std::string message = error_of([&] { reader.find(database.keys()[i]); });
      if (other == block) {
        EXPECT_NE(
            message.find("checksum mismatch (corrupt) in block " + std::to_string(block) + " of 5"),
            std::string::npos)
            << message;
      } else {
        EXPECT_EQ(message, "") << "block " << other << " is intact";
        EXPECT_EQ(reader.find(database.keys()[i]), database.records()[i]);
      }
    }
    // Refused again, not remembered as read.
    EXPECT_NE(error_of([&] { reader.find(database.keys()[block * 1000]); }), "");
    // read_database reads everything and checks the whole file first.
    EXPECT_NE(error_of([&] { read_database(path); }).find("checksum mismatch (corrupt)"),
              std::string::npos);

    // The same damage behind matching checksums (a buggy writer): refused or read, never worse.
    put_le<std::uint32_t>(
        damaged, parts.index_offset + 24 * block + 20,
        crc32_of(std::span(damaged).subspan(
            parts.block_offset[block], parts.block_offset[block + 1] - parts.block_offset[block])));
    fix_checksums(damaged);
    write_bytes(path, damaged);
    const DatabaseReader fixed(path);
    for (std::size_t i = block * 1000; i < block * 1000 + 1000; i += 37) {
      error_of([&] { fixed.find(database.keys()[i]); });
    }
  }
}

TEST(DatabaseReader, ADamagedHeaderOrIndexIsRefusedAtOpen) {
  const TemporaryDirectory directory("rastros-lazy-test");
  const Database database = random_database(Board(6, 6), 3000, 4);
  const Bytes image = encode_database(database, 1000);
  const Parts parts = parts_of(image);
  const fs::path path = directory.path() / "damaged.rdb";
  for (std::size_t at = 24; at < parts.blocks_offset; ++at) {
    Bytes damaged = image;
    damaged[at] ^= 0x01;
    write_bytes(path, damaged);
    const std::string message = error_of([&] { DatabaseReader reader(path); });
    EXPECT_NE(message, "") << "offset " << at;
    if (at >= parts.index_offset) {
      EXPECT_NE(message.find("checksum mismatch (corrupt) in the header or block index"),
                std::string::npos)
          << message;
    }
  }
}

TEST(DatabaseReader, ForeignTruncatedAndOtherKindFilesAreRefusedAtOpen) {
  const TemporaryDirectory directory("rastros-lazy-test");
  const fs::path path = directory.path() / "db.rdb";
  const Bytes image = encode_database(random_database(Board(5, 5), 100, 5), 30);
  const auto open_error = [&](const Bytes& bytes, std::optional<DatabaseKind> kind = {}) {
    write_bytes(path, bytes);
    return error_of([&] { DatabaseReader reader(path, kind); });
  };
  EXPECT_EQ(open_error(image), "");
  EXPECT_NE(open_error(Bytes(image.begin(), image.end() - 1)).find("truncated"), std::string::npos);
  EXPECT_NE(open_error(Bytes(image.begin(), image.begin() + 10)).find("truncated"),
            std::string::npos);
  Bytes longer = image;
  longer.push_back(0);
  EXPECT_NE(open_error(longer).find("bytes more than its header says"), std::string::npos);
  EXPECT_NE(open_error({'h', 'e', 'l', 'l', 'o'}).find("bad magic"), std::string::npos);
  Bytes v7 = image;
  v7[8] = 7;
  EXPECT_NE(open_error(v7).find("format version 7, this build reads 1 and 2"), std::string::npos);
  EXPECT_NE(
      open_error(image, DatabaseKind::strategy).find("is a strong database, expected strategy"),
      std::string::npos);
  EXPECT_NE(error_of([&] { DatabaseReader reader(directory.path() / "none.rdb"); }).find("missing"),
            std::string::npos);
  EXPECT_NE(error_of([&] { DatabaseReader reader(directory.path()); }).find("not a regular file"),
            std::string::npos);
}

// -- Claims beyond the file -------------------------------------------------------------------

// A format 2 file whose header claims `positions` positions, everything else as written and
// every checksum matching.
Bytes claiming_positions(const Bytes& image, const std::string& positions) {
  const Parts parts = parts_of(image);
  std::string text(image.begin() + 24, image.begin() + 24 + parts.header_length);
  // "... kind count book_depth block_positions stored_bytes\n": the count is the fourth word
  // from the end for a strong database.
  std::vector<std::size_t> spaces;
  for (std::size_t at = 0; at < text.size(); ++at) {
    if (text[at] == ' ') spaces.push_back(at);
  }
  const std::size_t begin = spaces[spaces.size() - 4] + 1;
  const std::size_t end = spaces[spaces.size() - 3];
  text.replace(begin, end - begin, positions);
  // Built as a string: growing a 24-byte vector trips GCC 12's -Warray-bounds.
  std::string whole(image.begin(), image.begin() + 24);
  whole += text;
  whole.append(image.begin() + 24 + static_cast<std::ptrdiff_t>(parts.header_length), image.end());
  Bytes edited(whole.begin(), whole.end());
  put_le<std::uint32_t>(edited, 20, static_cast<std::uint32_t>(text.size()));
  put_le<std::uint64_t>(edited, 12, edited.size());
  fix_checksums(edited);
  return edited;
}

TEST(DatabaseReader, AHeaderClaimingMoreThanTheFileHoldsIsRefusedBeforeAllocating) {
  const TemporaryDirectory directory("rastros-lazy-test");
  const fs::path path = directory.path() / "claims.rdb";
  // About 1 MB of file.
  const Database database = random_database(Board(8, 8), 200000, 6);
  const Bytes image = encode_database(database);
  ASSERT_GT(image.size(), 800000u);
  ASSERT_EQ(claiming_positions(image, std::to_string(database.size())), image);
  const long before = peak_rss_kib();
  for (const char* claim : {"1000000000", "18446744073709551615", "65536", "0"}) {
    write_bytes(path, claiming_positions(image, claim));
    const auto started = std::chrono::steady_clock::now();
    EXPECT_NE(error_of([&] { DatabaseReader reader(path); }).find("corrupt header"),
              std::string::npos)
        << claim;
    EXPECT_NE(error_of([&] { read_database(path); }).find("corrupt header"), std::string::npos)
        << claim;
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(),
              2.0);
  }
  // One position more than the file holds, in the same number of blocks: the index cannot tell,
  // so the last block is refused when it is read.
  write_bytes(path, claiming_positions(image, std::to_string(database.size() + 1)));
  const DatabaseReader reader(path);
  EXPECT_EQ(reader.find(database.keys()[0]), database.records()[0]);
  EXPECT_NE(error_of([&] { reader.find(database.keys().back()); }).find("corrupt payload"),
            std::string::npos);
  EXPECT_NE(error_of([&] { read_database(path); }).find("corrupt payload"), std::string::npos);
  EXPECT_LT(peak_rss_kib() - before, 64 * 1024) << "KiB of peak memory grew by the claims";
}

// A real format 1 file (a 3x3 strong database written by an earlier build): 36 positions.
const Bytes kFormat1 = {
    0x89, 0x52, 0x44, 0x42, 0x0d, 0x0a, 0x1a, 0x0a, 0x01, 0x00, 0x00, 0x00, 0xc6, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x3b, 0x00, 0x00, 0x00, 0x32, 0x32, 0x20, 0x73, 0x65, 0x72, 0x69, 0x61,
    0x6c, 0x69, 0x7a, 0x61, 0x74, 0x69, 0x6f, 0x6e, 0x3a, 0x3a, 0x61, 0x72, 0x63, 0x68, 0x69, 0x76,
    0x65, 0x20, 0x31, 0x38, 0x20, 0x33, 0x20, 0x33, 0x20, 0x30, 0x20, 0x34, 0x20, 0x30, 0x20, 0x30,
    0x20, 0x33, 0x36, 0x20, 0x30, 0x20, 0x31, 0x20, 0x36, 0x37, 0x20, 0x31, 0x33, 0x39, 0x20, 0x31,
    0x31, 0x31, 0x0a, 0x78, 0x9c, 0x1d, 0x89, 0xc1, 0x11, 0xc2, 0x40, 0x0c, 0x03, 0xcf, 0x96, 0x6f,
    0xcc, 0xef, 0x68, 0x01, 0x1a, 0xa1, 0x16, 0xde, 0x3c, 0xd2, 0x42, 0x84, 0xa9, 0x98, 0x1f, 0x21,
    0x89, 0x71, 0x18, 0x8d, 0x66, 0x56, 0x2b, 0xea, 0x6c, 0x6d, 0x03, 0x6d, 0xf7, 0x1d, 0x2f, 0x5b,
    0x27, 0xbe, 0x35, 0x3d, 0x7b, 0x8e, 0xf5, 0x62, 0xe9, 0x1f, 0xa1, 0x61, 0x1f, 0x6d, 0xbb, 0xf1,
    0x9a, 0xfe, 0xed, 0xc8, 0xb1, 0xdc, 0xe3, 0xb4, 0x94, 0xd6, 0xc2, 0x07, 0x6d, 0x3e, 0xf3, 0x49,
    0x32, 0x2a, 0xc2, 0x08, 0x55, 0x25, 0x35, 0x22, 0x78, 0xc8, 0xff, 0xb0, 0x22, 0x40, 0x2a, 0x10,
    0x71, 0xa9, 0xaa, 0x42, 0x54, 0xda, 0x21, 0x00, 0xef, 0x90, 0x5e, 0x6f, 0xfb, 0x01, 0x7e, 0x76,
    0x29, 0xc5, 0xee, 0x53, 0xeb, 0xee};

TEST(DatabaseReader, AFormat1PayloadClaimingAGigabyteIsRefusedWithoutAllocatingIt) {
  // Format 1's header claims the payload's size; its stream is inflated into memory that grows
  // with what it yields. A 1 MB stream (of incompressible bytes) claiming 0.9 GB of payload.
  const std::uint32_t header_length = get_le<std::uint32_t>(kFormat1, 20);
  std::string text(kFormat1.begin() + 24, kFormat1.begin() + 24 + header_length);
  // "... count book_depth codec key_bytes payload_bytes stored_bytes\n"
  std::vector<std::string> words;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = text.find_first_of(" \n", at);
    words.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  Bytes noise(1 << 20);
  std::mt19937_64 rng(9);
  for (unsigned char& byte : noise) byte = static_cast<unsigned char>(rng());
  Bytes stream(compressBound(noise.size()));
  uLongf stream_size = stream.size();
  ASSERT_EQ(compress(stream.data(), &stream_size, noise.data(), noise.size()), Z_OK);
  stream.resize(stream_size);
  const std::uint64_t positions = 300000000;
  words[words.size() - 6] = std::to_string(positions);
  words[words.size() - 4] = "1";
  words[words.size() - 3] = std::to_string(positions);
  words[words.size() - 2] = std::to_string(3 * positions);
  words[words.size() - 1] = std::to_string(stream.size());
  text.clear();
  for (const std::string& word : words) text += (text.empty() ? "" : " ") + word;
  text += "\n";
  std::string whole(kFormat1.begin(), kFormat1.begin() + 24);
  whole += text;
  whole.append(stream.begin(), stream.end());
  whole.append(4, '\0');
  Bytes file(whole.begin(), whole.end());
  put_le<std::uint32_t>(file, 20, static_cast<std::uint32_t>(text.size()));
  put_le<std::uint64_t>(file, 12, file.size());
  put_le<std::uint32_t>(file, file.size() - 4, crc32_of(std::span(file).first(file.size() - 4)));

  const TemporaryDirectory directory("rastros-lazy-test");
  const fs::path path = directory.path() / "v1-claims.rdb";
  write_bytes(path, file);
  const long before = peak_rss_kib();
  const auto started = std::chrono::steady_clock::now();
  EXPECT_NE(error_of([&] { read_database(path); }).find("corrupt payload (zlib)"),
            std::string::npos);
  EXPECT_NE(error_of([&] { DatabaseReader reader(path); }).find("corrupt payload (zlib)"),
            std::string::npos);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), 2.0);
  EXPECT_LT(peak_rss_kib() - before, 64 * 1024) << "KiB of peak memory grew by the claim";
}

TEST(DatabaseReader, Format1FilesAreReadWhole) {
  const TemporaryDirectory directory("rastros-lazy-test");
  const fs::path path = directory.path() / "v1.rdb";
  write_bytes(path, kFormat1);
  const Database whole = read_database(path);
  EXPECT_EQ(whole.size(), 36u);
  EXPECT_EQ(whole.header().format_version, 1u);
  const DatabaseReader reader(path);
  EXPECT_FALSE(reader.reads_blocks());
  EXPECT_EQ(reader.header(), whole.header());
  expect_same_answers(whole, reader, 1);
  // Written again, it is a format 2 file with the same records.
  write_database(path, whole);
  const DatabaseReader again(path);
  EXPECT_TRUE(again.reads_blocks());
  EXPECT_EQ(again.header().format_version, kDatabaseFormatVersion);
  expect_same_answers(whole, again, 1);
  const DatabaseQuery query(again);
  EXPECT_TRUE(query.answer(query.game().start_position()));
}

// -- Not a file -------------------------------------------------------------------------------

TEST(DatabaseReader, AFifoOrADeviceIsRefusedWithoutBlocking) {
  const TemporaryDirectory directory("rastros-lazy-test");
  const fs::path fifo = directory.path() / "fifo.rdb";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // Should an open block on the FIFO (no writer), a watchdog opens it for writing after 10 s
  // and closes it again, so that the test fails instead of hanging.
  std::atomic<bool> done{false};
  std::thread watchdog([&] {
    for (int tick = 0; tick < 1000 && !done; ++tick) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (done) return;
    const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0) ::close(fd);
  });
  const auto started = std::chrono::steady_clock::now();
  const std::string lazy = error_of([&] { DatabaseReader reader(fifo); });
  const std::string whole = error_of([&] { read_database(fifo); });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  done = true;
  watchdog.join();
  EXPECT_NE(lazy.find("not a regular file"), std::string::npos) << lazy;
  EXPECT_NE(whole.find("not a regular file"), std::string::npos) << whole;
  EXPECT_LT(seconds, 5.0);
  for (const char* device : {"/dev/null", "/dev/zero"}) {
    if (!fs::exists(device)) continue;
    EXPECT_NE(error_of([&] { DatabaseReader reader(device); }).find("not a regular file"),
              std::string::npos)
        << device;
  }
}

}  // namespace
}  // namespace rastros
