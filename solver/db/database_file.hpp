#pragma once
// Solved-position databases in memory and on disk (.rdb files).
//
// A database maps canonical position keys (PackedPosition, see rastros/position.hpp) to a value,
// a remoteness and a best move. Two kinds share the format:
//   strong    every position reachable from the start, each with its exact record;
//   strategy  only the positions one side's winning strategy can reach (plus an opening book
//             to `book_depth` plies), enough to play perfectly but not to answer every query.
//   proof     a certificate of the start's value alone, for boards whose remoteness is out of
//             reach (8x8): the positions one side's winning strategy reaches, value only
//             (remoteness 0), minus the small endgames that `rastros verify` solves itself
//             (regions of at most `leaf_squares` squares; see db/proof_database.hpp).
//
// File layout (all integers little-endian; format version 2):
//
//   offset  size  field
//        0     8  magic "\x89RDB\r\n\x1a\n"   (PNG-style: catches text-mode and 7-bit mangling)
//        8     4  format version
//       12     8  file size in bytes, this whole file including the checksum
//       20     4  header length H
//       24     H  header: Boost.Serialization *text* archive of the board, start, rules, steps,
//                 kind, position count n, book depth, the positions a block holds (B) and the
//                 bytes of the blocks end to end (S)
//     24+H  24*K  block index, K = ceil(n / B) entries, one a block:
//                     0  8  the block's first key: free mask
//                     8  1                         snail byte
//                     9  1  codec: 0 stored raw, 1 raw deflate (RFC 1951)
//                    10  2  zero
//                    12  4  bytes of the block's keys column
//                    16  4  bytes of the block as stored
//                    20  4  CRC-32 of the block as stored
//        I     4  CRC-32 of every byte before it (preamble, header and index), I = 24+H+24K
//      I+4     S  the blocks, end to end in key order
//    end-4     4  CRC-32 (boost::crc_32_type, the zlib/PNG polynomial) of every byte before it
//
// Magic, version and size sit in a fixed binary preamble rather than in the archive so that a
// reader of any version can tell "not ours", "another version" and "truncated" apart before it
// trusts a single byte of what follows. The header is a text archive because it is tiny (about
// 100 bytes) and text archives, unlike Boost's binary ones, do not depend on the writer's word
// size or endianness, and a newer Boost still reads them.
//
// Block j holds positions j*B .. min(n, (j+1)*B) - 1, so a reader that has read the preamble,
// the header and the index (checked by their own CRC) can answer a key by reading and
// inflating the one block whose range holds it, and trust that block once its own CRC matches
// (db/database_reader.hpp). The whole-file CRC is what read_database, which reads everything,
// checks. A block is stored deflated when that is smaller, else raw. Its payload, for its m
// positions, is three columns (a column of like bytes compresses far better than interleaved
// records):
//   keys      m LEB128 varints. A key is the 72-bit integer free * 256 + snail, which sorts like
//             PackedPosition; the block's first is stored whole (and equals the index's), each
//             next one as (key - previous - 1).
//   values    m bytes: value << 6 | remoteness  (remoteness <= 63: a game on 64 squares has at
//             most 63 plies; draws store 0).
//   moves     m bytes: the best move relative to the snail, because it is almost always a step
//             to a neighbour: 0..8 = (dx + 1) + 3 * (dy + 1) for a step, except 4 (dx = dy = 0)
//             which means "no move" (255 in memory); 16 + square for any other square.
//             Proof databases store a move only where the side to move wins.
//
// Format version 1 (still read, whole: read_database, and DatabaseReader loads it whole) had no
// index: its header ended with the payload's codec, key column bytes, payload bytes and stored
// bytes, and the payload was the three columns of all n positions in one raw or zlib stream.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "core/value.hpp"
#include "rastros/board.hpp"
#include "rastros/position.hpp"
#include "rastros/rastros.hpp"

namespace rastros {

/// The format version this build writes.
inline constexpr std::uint32_t kDatabaseFormatVersion = 2;
/// The oldest version it reads (1 has no block index, so it is always read whole).
inline constexpr std::uint32_t kOldestDatabaseFormatVersion = 1;

/// Positions a block holds. Small enough that a block is inflated and decoded in about a
/// millisecond (a query reads at most nine: a position and its children), large enough that
/// the blocks compress within a few per cent of one stream (deflate's 32 KiB window finds most
/// of its matches inside a block of this size).
inline constexpr std::uint32_t kDatabaseBlockPositions = 1 << 16;
/// The most a file may claim a block holds: bounds what reading one block allocates.
inline constexpr std::uint32_t kMaxDatabaseBlockPositions = 1 << 20;

enum class DatabaseKind : std::uint8_t { strong, strategy, proof };

std::string_view kind_name(DatabaseKind kind);

/// What a database knows about one position, for the side to move.
struct DatabaseRecord {
  static constexpr std::uint8_t kNoMove = 255;

  Value value = Value::draw;
  std::uint8_t remoteness = 0;       // plies to the end; 0 for draws; at most 63
  std::uint8_t best_move = kNoMove;  // destination square, or kNoMove (an ended position)

  friend bool operator==(const DatabaseRecord&, const DatabaseRecord&) = default;
};

/// The game a database solves and what it holds.
struct DatabaseHeader {
  // Set by read_database to the file's version; write_database always writes
  // kDatabaseFormatVersion.
  std::uint32_t format_version = kDatabaseFormatVersion;
  int width = 7;
  int height = 7;
  StepSet steps = StepSet::king;
  Square start = 24;
  StuckRule rules = StuckRule::loses;
  DatabaseKind kind = DatabaseKind::strong;
  std::uint64_t position_count = 0;  // kept equal to the number of keys by Database
  int book_depth = 0;                // strategy databases: plies of the opening book
  int leaf_squares = 0;              // proof databases: regions this small are left to verify

  friend bool operator==(const DatabaseHeader&, const DatabaseHeader&) = default;
};

/// Sorted keys and their records. Keys live in one sorted array; a small "fence" array holding
/// every kFenceStride-th key (a few hundred KB for millions of positions, so it stays in cache)
/// narrows a lookup to one block of kFenceStride keys (a handful of cache lines) before the
/// binary search, which keeps find() well under a microsecond on large databases.
class Database {
 public:
  Database() = default;
  /// Throws std::invalid_argument when the sizes differ, the keys are not strictly increasing,
  /// or a record is out of range (value, remoteness > 63, move off the board).
  Database(DatabaseHeader header, std::vector<PackedPosition> keys,
           std::vector<DatabaseRecord> records);

  const DatabaseHeader& header() const { return header_; }
  std::size_t size() const { return keys_.size(); }
  std::span<const PackedPosition> keys() const { return keys_; }
  std::span<const DatabaseRecord> records() const { return records_; }

  /// The record of `key`, or nullptr when the database does not hold it.
  const DatabaseRecord* find(const PackedPosition& key) const;

 private:
  static constexpr std::size_t kFenceStride = 64;

  DatabaseHeader header_;
  std::vector<PackedPosition> keys_;
  std::vector<DatabaseRecord> records_;
  std::vector<PackedPosition> fence_;  // keys_[0], keys_[kFenceStride], keys_[2 * kFenceStride]...
};

/// Writes `database` to a temporary file in the same directory, fsyncs it, renames it over
/// `path` and fsyncs the directory, so `path` holds either the old file or the complete new one,
/// never a partial write. Throws std::system_error (after removing the temporary file) when any
/// step fails; that is an I/O failure, not an unusable database, so it is not a FileError.
void write_database(const std::filesystem::path& path, const Database& database);

/// Reads and fully verifies a database: every byte, the whole-file checksum first. Throws
/// FileError naming the file and the problem: "missing", "not a regular file", "truncated",
/// "checksum mismatch (corrupt)", "not a rastros database (bad magic)", "format version N, this
/// build reads 1 and 2", "is a strategy database, expected strong", or "corrupt header/payload"
/// for a file with a valid checksum whose contents make no sense. Sizes the file claims are
/// checked against what it holds before anything is allocated for them.
Database read_database(const std::filesystem::path& path,
                       std::optional<DatabaseKind> expected_kind = std::nullopt);

/// The bytes write_database stores for `database`, its blocks of `block_positions` positions
/// (other sizes than the default are for tests).
std::vector<unsigned char> encode_database(const Database& database,
                                           std::uint32_t block_positions = kDatabaseBlockPositions);

// -- A file from parts (the distributed strong solve: cluster/distributed_database_writer.hpp)

/// The payload's three columns for a run of consecutive keys of a database. `previous` is the
/// key just before the run, whose successor the run's first key is stored relative to; nullptr
/// when the run starts the database (or a block: a block stores its first key whole).
struct PayloadColumns {
  std::vector<unsigned char> keys;
  std::vector<unsigned char> values;
  std::vector<unsigned char> moves;
};
PayloadColumns encode_columns(const DatabaseHeader& header, std::span<const PackedPosition> keys,
                              std::span<const DatabaseRecord> records,
                              const PackedPosition* previous);

/// encode_columns a position at a time, for runs that are not held as arrays.
class ColumnEncoder {
 public:
  /// Throws std::invalid_argument for a header the Database constructor refuses.
  ColumnEncoder(const DatabaseHeader& header, const PackedPosition* previous);
  void reserve(std::size_t positions);
  /// Keys must come in increasing order, each above `previous`; throws std::invalid_argument
  /// when one does not, or when the record is out of range (as the Database constructor does).
  void add(const PackedPosition& key, const DatabaseRecord& record);
  PayloadColumns finish() && { return std::move(columns_); }

 private:
  DatabaseHeader header_;
  PackedPosition previous_;
  bool has_previous_ = false;
  PayloadColumns columns_;
};

/// The zlib level of blocks (zlib's default, 6). On the complete 5x5 and 6x5 key sets it is
/// within 0.5% of level 9 in size, at a fraction of the time; Huffman-only is several times
/// faster again but a quarter larger, because LZ matches capture the repeated key gaps of dense
/// layers.
inline constexpr int kPayloadDeflateLevel = -1;

/// One block as stored: its first key, and its columns deflated (raw deflate) when that is
/// smaller, else as they are.
struct StoredBlock {
  PackedPosition first_key;
  bool compressed = false;
  std::uint32_t key_bytes = 0;  // the keys column before compression
  std::uint32_t crc = 0;        // CRC-32 of `bytes`
  std::vector<unsigned char> bytes;
};

/// The stored block of consecutive keys (at most kMaxDatabaseBlockPositions, at least one) of a
/// database with `header`. Throws std::invalid_argument as ColumnEncoder does. Deterministic:
/// the same keys give the same bytes on any machine with the same zlib.
StoredBlock store_block(const DatabaseHeader& header, std::span<const PackedPosition> keys,
                        std::span<const DatabaseRecord> records);
/// The same from the block's columns (encode_columns of its keys with no `previous`, or a
/// ColumnEncoder's) and its first key.
StoredBlock store_block(const PackedPosition& first_key, PayloadColumns columns);

/// The file image of a database with `header` (its position_count that of the whole database)
/// whose positions, in blocks of `block_positions`, are `blocks`: what encode_database returns
/// for the database those parts come from. Throws std::invalid_argument when the number of
/// blocks is not what the position count and the block size make.
std::vector<unsigned char> database_file_image(
    const DatabaseHeader& header, std::span<const StoredBlock> blocks,
    std::uint32_t block_positions = kDatabaseBlockPositions);

/// read_database on a file image already in memory (tests and fuzzing); `name` only names the
/// file in messages. Throws FileError exactly as read_database does.
Database decode_database(std::span<const unsigned char> bytes, const std::filesystem::path& name,
                         std::optional<DatabaseKind> expected_kind = std::nullopt);

}  // namespace rastros
