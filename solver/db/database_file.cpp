#include "db/database_file.hpp"

#include <fcntl.h>
#include <oneapi/tbb/parallel_for.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <boost/archive/text_iarchive.hpp>
#include <boost/archive/text_oarchive.hpp>
#include <cerrno>
#include <climits>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>

#include "core/atomic_file.hpp"
#include "core/crc32.hpp"
#include "core/errors.hpp"
#include "core/thread_sanitizer.hpp"
#include "db/database_format.hpp"

namespace rastros {

std::string_view kind_name(DatabaseKind kind) {
  switch (kind) {
    case DatabaseKind::strong:
      return "strong";
    case DatabaseKind::strategy:
      return "strategy";
    case DatabaseKind::proof:
      return "proof";
  }
  return "unknown";
}

// ---------------------------------------------------------------------------------------------
// In memory

namespace {

bool header_is_valid(const DatabaseHeader& db) {
  return db.width >= 2 && db.height >= 2 && db.width <= kMaxFiles &&
         db.width * db.height <= kMaxSquares && db.start > 0 &&
         db.start < db.width * db.height - 1 &&
         static_cast<int>(db.steps) <= static_cast<int>(StepSet::orthogonal) &&
         static_cast<int>(db.rules) <= static_cast<int>(StuckRule::draws) &&
         static_cast<int>(db.kind) <= static_cast<int>(DatabaseKind::proof) && db.book_depth >= 0 &&
         db.leaf_squares >= 0 && db.leaf_squares <= kMaxSquares &&
         (db.kind == DatabaseKind::proof || db.leaf_squares == 0);
}

void check_record(const DatabaseHeader& header, const DatabaseRecord& record) {
  if (static_cast<unsigned>(record.value) > static_cast<unsigned>(Value::win)) {
    throw std::invalid_argument("database record: value out of range");
  }
  if (record.remoteness > 63) throw std::invalid_argument("database record: remoteness > 63");
  if (record.best_move != DatabaseRecord::kNoMove &&
      record.best_move >= header.width * header.height) {
    throw std::invalid_argument("database record: best move off the board");
  }
}

}  // namespace

Database::Database(DatabaseHeader header, std::vector<PackedPosition> keys,
                   std::vector<DatabaseRecord> records)
    : header_(header), keys_(std::move(keys)), records_(std::move(records)) {
  // Checked here so that write_database never produces a file read_database would refuse.
  if (!header_is_valid(header_)) throw std::invalid_argument("database: invalid header");
  if (keys_.size() != records_.size()) {
    throw std::invalid_argument("database: keys and records differ in number");
  }
  for (std::size_t i = 1; i < keys_.size(); ++i) {
    if (!(keys_[i - 1] < keys_[i])) {
      throw std::invalid_argument("database: keys not strictly increasing");
    }
  }
  for (const DatabaseRecord& record : records_) check_record(header_, record);
  header_.position_count = keys_.size();
  fence_.reserve(keys_.size() / kFenceStride + 1);
  for (std::size_t i = 0; i < keys_.size(); i += kFenceStride) fence_.push_back(keys_[i]);
}

const DatabaseRecord* Database::find(const PackedPosition& key) const {
  // The last fence entry <= key starts the only block that can hold the key.
  const auto after = std::upper_bound(fence_.begin(), fence_.end(), key);
  if (after == fence_.begin()) return nullptr;
  const std::size_t first = static_cast<std::size_t>(after - fence_.begin() - 1) * kFenceStride;
  const std::size_t last = std::min(first + kFenceStride, keys_.size());
  const auto begin = keys_.begin() + static_cast<std::ptrdiff_t>(first);
  const auto end = keys_.begin() + static_cast<std::ptrdiff_t>(last);
  const auto found = std::lower_bound(begin, end, key);
  if (found == end || *found != key) return nullptr;
  return &records_[static_cast<std::size_t>(found - keys_.begin())];
}

// ---------------------------------------------------------------------------------------------
// On disk

namespace database_format {

void fail(const std::filesystem::path& path, const std::string& problem) {
  throw FileError("database " + path.string() + ": " + problem);
}

}  // namespace database_format

using namespace database_format;

namespace {

constexpr std::array<unsigned char, 8> kMagic = {0x89, 'R', 'D', 'B', '\r', '\n', 0x1a, '\n'};
constexpr std::size_t kVersionOffset = 8;
constexpr std::size_t kSizeOffset = 12;
constexpr std::size_t kHeaderLengthOffset = 20;

constexpr std::uint64_t kMaxDeflateRatio = 1032;
// A key takes at most 11 varint bytes (11 groups of 7 bits cover 72 bits).
constexpr std::uint64_t kMaxKeyBytes = 11;

// A 72-bit key as one integer, so consecutive keys differ by a small number.
using WideKey = unsigned __int128;
constexpr WideKey kWideKeyLimit = WideKey{1} << 72;

WideKey wide(const PackedPosition& key) {
  return (WideKey{key.free} << 8) | key.snail;
}
PackedPosition narrow(WideKey key) {
  return {static_cast<SquareMask>(key >> 8), static_cast<std::uint8_t>(key & 0xff)};
}

// Enums go through plain integers so the archive does not depend on their underlying types.
template <class Archive>
void serialize(Archive& archive, FileHeader& header, std::uint32_t version) {
  auto as_int = [&archive](auto& field) {
    int number = static_cast<int>(field);
    archive& number;
    field = static_cast<std::remove_reference_t<decltype(field)>>(number);
  };
  DatabaseHeader& db = header.database;
  archive& db.width& db.height;
  as_int(db.steps);
  archive& db.start;
  as_int(db.rules);
  as_int(db.kind);
  archive& db.position_count& db.book_depth;
  // Only proof databases have leaves; leaving the field out of the others keeps their headers
  // what earlier builds wrote.
  if (db.kind == DatabaseKind::proof) archive& db.leaf_squares;
  if (version == 1) {
    as_int(header.codec);
    archive& header.key_bytes& header.payload_bytes& header.stored_bytes;
  } else {
    archive& header.block_positions& header.stored_bytes;
  }
}

template <class T>
void put_le(unsigned char* out, T value) {
  for (std::size_t i = 0; i < sizeof(T); ++i) out[i] = static_cast<unsigned char>(value >> (8 * i));
}

template <class T>
T get_le(const unsigned char* in) {
  T value = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) value |= static_cast<T>(in[i]) << (8 * i);
  return value;
}

// -- Records and moves ------------------------------------------------------------------------

constexpr std::uint8_t kNoMoveCode = 4;  // the "step" dx = dy = 0
constexpr std::uint8_t kAbsoluteMoveCode = 16;

std::uint8_t encode_move(int width, int squares, int snail, std::uint8_t move) {
  if (move == DatabaseRecord::kNoMove) return kNoMoveCode;
  if (snail < squares) {
    const int dx = move % width - snail % width;
    const int dy = move / width - snail / width;
    if (dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1 && (dx != 0 || dy != 0)) {
      return static_cast<std::uint8_t>((dx + 1) + 3 * (dy + 1));
    }
  }
  return static_cast<std::uint8_t>(kAbsoluteMoveCode + move);
}

// Returns false for a code that names no square of the board.
bool decode_move(int width, int height, int snail, std::uint8_t code, std::uint8_t& move) {
  const int squares = width * height;
  if (code == kNoMoveCode) {
    move = DatabaseRecord::kNoMove;
    return true;
  }
  if (code >= kAbsoluteMoveCode) {
    if (code - kAbsoluteMoveCode >= squares) return false;
    move = static_cast<std::uint8_t>(code - kAbsoluteMoveCode);
    return true;
  }
  if (code > 8 || snail >= squares) return false;
  const int file = snail % width + code % 3 - 1;
  const int rank = snail / width + code / 3 - 1;
  if (file < 0 || file >= width || rank < 0 || rank >= height) return false;
  move = static_cast<std::uint8_t>(rank * width + file);
  return true;
}

// The snail byte's square; the top bit is the side to move in keys packed without symmetry.
int snail_square(const PackedPosition& key) {
  return key.snail & 0x7f;
}

// -- Payload ----------------------------------------------------------------------------------

void put_varint(std::vector<unsigned char>& out, WideKey value) {
  while (value >= 0x80) {
    out.push_back(static_cast<unsigned char>(value | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<unsigned char>(value));
}

// Decodes the three columns of `n` positions (the keys column `key_bytes` long, the first key
// whole) into keys[0..n) and records[0..n). The keys must increase strictly and stay below
// `limit`; the records must be valid for the header's board.
void decode_columns(const std::filesystem::path& path, const DatabaseHeader& db,
                    std::span<const unsigned char> payload, std::size_t key_bytes, std::size_t n,
                    WideKey limit, PackedPosition* keys, DatabaseRecord* records) {
  if (payload.size() != key_bytes + 2 * n) fail(path, "corrupt payload (sizes)");
  const unsigned char* column = payload.data();
  std::size_t at = 0;
  WideKey previous = 0;
  for (std::size_t i = 0; i < n; ++i) {
    // Nearly every gap takes one to three bytes: those are read in 64 bits, only longer ones in
    // 128, and the column's end is checked once a key where a whole varint fits before it.
    WideKey delta = 0;
    if (key_bytes - at >= kMaxKeyBytes) {
      std::uint64_t low = 0;
      int shift = 0;
      unsigned char byte = 0;
      do {
        byte = column[at++];
        low |= std::uint64_t{byte & 0x7fu} << shift;
        shift += 7;
      } while ((byte & 0x80) && shift < 63);
      delta = low;
      while (byte & 0x80) {
        // 11 groups of 7 bits cover 72 bits; a longer varint is corruption.
        if (shift > 70) fail(path, "corrupt payload (keys)");
        byte = column[at++];
        delta |= static_cast<WideKey>(byte & 0x7f) << shift;
        shift += 7;
      }
    } else {
      for (int shift = 0;; shift += 7) {
        if (at == key_bytes || shift > 70) fail(path, "corrupt payload (keys)");
        const unsigned char byte = column[at++];
        delta |= static_cast<WideKey>(byte & 0x7f) << shift;
        if ((byte & 0x80) == 0) break;
      }
    }
    const WideKey key = i == 0 ? delta : previous + delta + 1;
    if (key >= limit || (i > 0 && key <= previous)) fail(path, "corrupt payload (keys)");
    previous = key;
    keys[i] = narrow(key);
  }
  if (at != key_bytes) fail(path, "corrupt payload (keys)");

  // The square of each step code (0..8) from each snail square, so that a record costs no
  // division; kOffBoard where the step leaves the board (and for a snail off the board).
  constexpr std::uint8_t kOffBoard = 254;
  std::array<std::array<std::uint8_t, 9>, 128> steps{};
  for (int snail = 0; snail < 128; ++snail) {
    for (std::uint8_t code = 0; code < 9; ++code) {
      std::uint8_t move = 0;
      steps[static_cast<std::size_t>(snail)][code] =
          decode_move(db.width, db.height, snail, code, move) ? move : kOffBoard;
    }
  }
  const int squares = db.width * db.height;
  const unsigned char* values = payload.data() + key_bytes;
  const unsigned char* moves = values + n;
  for (std::size_t i = 0; i < n; ++i) {
    DatabaseRecord& record = records[i];
    const unsigned value = values[i] >> 6;
    if (value > static_cast<unsigned>(Value::win)) fail(path, "corrupt payload (values)");
    record.value = static_cast<Value>(value);
    record.remoteness = values[i] & 0x3f;
    const std::uint8_t code = moves[i];
    std::uint8_t move = kOffBoard;
    if (code < 9) {
      move = steps[static_cast<std::size_t>(snail_square(keys[i]))][code];
    } else if (code >= kAbsoluteMoveCode && code - kAbsoluteMoveCode < squares) {
      move = static_cast<std::uint8_t>(code - kAbsoluteMoveCode);
    }
    if (move == kOffBoard) fail(path, "corrupt payload (moves)");
    record.best_move = move;
  }
}

// -- Deflate ----------------------------------------------------------------------------------

// A raw deflate stream (RFC 1951, no zlib header: the index holds the block's CRC) of `input`.
std::vector<unsigned char> raw_deflate(std::span<const unsigned char> input, int level) {
  z_stream stream{};
  if (deflateInit2(&stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::bad_alloc();
  }
  std::vector<unsigned char> out(deflateBound(&stream, static_cast<uLong>(input.size())));
  stream.next_in = const_cast<unsigned char*>(input.data());
  stream.avail_in = static_cast<uInt>(input.size());
  stream.next_out = out.data();
  stream.avail_out = static_cast<uInt>(out.size());
  const int result = deflate(&stream, Z_FINISH);
  const std::size_t written = out.size() - stream.avail_out;
  deflateEnd(&stream);
  if (result != Z_STREAM_END) throw std::runtime_error("deflate failed");
  out.resize(written);
  return out;
}

// Inflates the raw deflate stream `stored` into exactly `out`: false unless the stream is
// well formed, ends where `stored` ends and fills `out` to the byte.
bool raw_inflate(std::span<const unsigned char> stored, std::span<unsigned char> out) {
  z_stream stream{};
  if (inflateInit2(&stream, -15) != Z_OK) throw std::bad_alloc();
  stream.next_in = const_cast<unsigned char*>(stored.data());
  stream.avail_in = static_cast<uInt>(stored.size());
  stream.next_out = out.data();
  stream.avail_out = static_cast<uInt>(out.size());
  int result = inflate(&stream, Z_FINISH);
  if (result == Z_BUF_ERROR && stream.avail_out == 0) {
    // Output full: the stream must end right here, with no byte more to give.
    unsigned char extra = 0;
    stream.next_out = &extra;
    stream.avail_out = 1;
    result = inflate(&stream, Z_FINISH);
    if (stream.avail_out == 0) result = Z_DATA_ERROR;
  }
  const bool complete = result == Z_STREAM_END && stream.avail_out == 0 && stream.avail_in == 0;
  inflateEnd(&stream);
  return complete;
}

}  // namespace

ColumnEncoder::ColumnEncoder(const DatabaseHeader& header, const PackedPosition* previous)
    : header_(header) {
  // The Database constructor's checks, so that no file read_database would refuse is written.
  if (!header_is_valid(header_)) throw std::invalid_argument("database: invalid header");
  if (previous) {
    previous_ = *previous;
    has_previous_ = true;
  }
}

void ColumnEncoder::reserve(std::size_t positions) {
  columns_.keys.reserve(positions * 2);
  columns_.values.reserve(positions);
  columns_.moves.reserve(positions);
}

void ColumnEncoder::add(const PackedPosition& key, const DatabaseRecord& record) {
  if (has_previous_ && !(previous_ < key)) {
    throw std::invalid_argument("database: keys not strictly increasing");
  }
  check_record(header_, record);
  const WideKey wide_key = wide(key);
  put_varint(columns_.keys, has_previous_ ? wide_key - wide(previous_) - 1 : wide_key);
  previous_ = key;
  has_previous_ = true;
  columns_.values.push_back(
      static_cast<unsigned char>(static_cast<unsigned>(record.value) << 6 | record.remoteness));
  columns_.moves.push_back(encode_move(header_.width, header_.width * header_.height,
                                       snail_square(key), record.best_move));
}

PayloadColumns encode_columns(const DatabaseHeader& header, std::span<const PackedPosition> keys,
                              std::span<const DatabaseRecord> records,
                              const PackedPosition* previous) {
  ColumnEncoder encoder(header, previous);
  encoder.reserve(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) encoder.add(keys[i], records[i]);
  return std::move(encoder).finish();
}

// -- Writing ----------------------------------------------------------------------------------

StoredBlock store_block(const DatabaseHeader& header, std::span<const PackedPosition> keys,
                        std::span<const DatabaseRecord> records) {
  if (keys.empty() || keys.size() > kMaxDatabaseBlockPositions || keys.size() != records.size()) {
    throw std::invalid_argument("database block: between 1 and " +
                                std::to_string(kMaxDatabaseBlockPositions) +
                                " positions, one record each");
  }
  return store_block(keys.front(), encode_columns(header, keys, records, nullptr));
}

StoredBlock store_block(const PackedPosition& first_key, PayloadColumns columns) {
  const std::size_t positions = columns.values.size();
  if (positions == 0 || positions > kMaxDatabaseBlockPositions ||
      columns.moves.size() != positions || columns.keys.size() < positions) {
    throw std::invalid_argument("database block: between 1 and " +
                                std::to_string(kMaxDatabaseBlockPositions) +
                                " positions, one record each");
  }
  StoredBlock block;
  block.first_key = first_key;
  block.key_bytes = static_cast<std::uint32_t>(columns.keys.size());
  std::vector<unsigned char> payload = std::move(columns.keys);
  payload.insert(payload.end(), columns.values.begin(), columns.values.end());
  payload.insert(payload.end(), columns.moves.begin(), columns.moves.end());
  // Compress only where it pays: a tiny or incompressible block is stored as it is.
  std::vector<unsigned char> compressed = raw_deflate(payload, kPayloadDeflateLevel);
  if (compressed.size() < payload.size()) {
    block.bytes = std::move(compressed);
    block.compressed = true;
  } else {
    block.bytes = std::move(payload);
  }
  block.crc = crc32_of(block.bytes);
  return block;
}

std::vector<unsigned char> database_file_image(const DatabaseHeader& header,
                                               std::span<const StoredBlock> blocks,
                                               std::uint32_t block_positions) {
  if (block_positions < 1 || block_positions > kMaxDatabaseBlockPositions) {
    throw std::invalid_argument("database: a block holds between 1 and " +
                                std::to_string(kMaxDatabaseBlockPositions) + " positions");
  }
  const std::uint64_t block_count = (header.position_count + block_positions - 1) / block_positions;
  if (blocks.size() != block_count) {
    throw std::invalid_argument("database: " + std::to_string(header.position_count) +
                                " positions make " + std::to_string(block_count) + " blocks, not " +
                                std::to_string(blocks.size()));
  }
  FileHeader file_header;
  file_header.database = header;
  file_header.block_positions = block_positions;
  for (const StoredBlock& block : blocks) file_header.stored_bytes += block.bytes.size();
  std::ostringstream text;
  {
    boost::archive::text_oarchive archive(text);
    serialize(archive, file_header, kDatabaseFormatVersion);
  }
  const std::string header_text = text.str();

  const std::size_t index_offset = kPreambleSize + header_text.size();
  const std::size_t blocks_offset = index_offset + kIndexEntrySize * blocks.size() + kChecksumSize;
  const std::size_t body_size = blocks_offset + file_header.stored_bytes;
  std::vector<unsigned char> file(body_size + kChecksumSize);
  unsigned char* const out = file.data();
  std::copy(kMagic.begin(), kMagic.end(), out);
  put_le<std::uint32_t>(out + kVersionOffset, kDatabaseFormatVersion);
  put_le<std::uint64_t>(out + kSizeOffset, file.size());
  put_le<std::uint32_t>(out + kHeaderLengthOffset, static_cast<std::uint32_t>(header_text.size()));
  std::copy(header_text.begin(), header_text.end(), out + kPreambleSize);
  std::size_t at = blocks_offset;
  for (std::size_t j = 0; j < blocks.size(); ++j) {
    const StoredBlock& block = blocks[j];
    unsigned char* entry = out + index_offset + kIndexEntrySize * j;
    put_le<std::uint64_t>(entry, block.first_key.free);
    entry[8] = block.first_key.snail;
    entry[9] = static_cast<unsigned char>(block.compressed ? Codec::zlib : Codec::raw);
    put_le<std::uint16_t>(entry + 10, 0);
    put_le<std::uint32_t>(entry + 12, block.key_bytes);
    put_le<std::uint32_t>(entry + 16, static_cast<std::uint32_t>(block.bytes.size()));
    put_le<std::uint32_t>(entry + 20, block.crc);
    std::copy(block.bytes.begin(), block.bytes.end(), out + at);
    at += block.bytes.size();
  }
  const std::size_t index_end = blocks_offset - kChecksumSize;
  put_le<std::uint32_t>(out + index_end, crc32_of(std::span(file).first(index_end)));
  put_le<std::uint32_t>(out + body_size, crc32_of(std::span(file).first(body_size)));
  return file;
}

std::vector<unsigned char> encode_database(const Database& database,
                                           std::uint32_t block_positions) {
  if (block_positions < 1 || block_positions > kMaxDatabaseBlockPositions) {
    throw std::invalid_argument("database: a block holds between 1 and " +
                                std::to_string(kMaxDatabaseBlockPositions) + " positions");
  }
  const std::size_t n = database.size();
  const std::size_t block_count = (n + block_positions - 1) / block_positions;
  std::vector<StoredBlock> blocks(block_count);
  int finished = 0;  // only its address matters: the tasks' results are published there
  oneapi::tbb::parallel_for(
      std::size_t{0}, block_count, thread_sanitizer::handed_off([&](std::size_t j) {
        const std::size_t begin = j * block_positions;
        const std::size_t size = std::min<std::size_t>(block_positions, n - begin);
        blocks[j] = store_block(database.header(), database.keys().subspan(begin, size),
                                database.records().subspan(begin, size));
        thread_sanitizer::publish(&finished);
      }));
  thread_sanitizer::acquire(&finished);
  return database_file_image(database.header(), blocks, block_positions);
}

void write_database(const std::filesystem::path& path, const Database& database) {
  write_file_atomically(path, encode_database(database), "database");
}

// -- Reading ----------------------------------------------------------------------------------

namespace database_format {

namespace {

// What to say of a file without our magic: the other games' files of this project begin with
// "rastros-GAME-" (the Kalah endgame database, say), so name the game and the option to use.
std::string other_game(std::span<const unsigned char> prefix) {
  const std::size_t length = std::min<std::size_t>(prefix.size(), 40);
  const std::string text(prefix.begin(), prefix.begin() + static_cast<std::ptrdiff_t>(length));
  constexpr std::string_view kProject = "rastros-";
  if (text.starts_with(kProject)) {
    const std::size_t end = text.find('-', kProject.size());
    const std::string game =
        text.substr(kProject.size(), end == std::string::npos ? 0 : end - kProject.size());
    const bool word = !game.empty() && std::all_of(game.begin(), game.end(), [](char c) {
      return c >= 'a' && c <= 'z';
    });
    if (word) {
      std::string message = "a " + game;
      message.append(" file, not a rastros database (use --game ").append(game).append(")");
      return message;
    }
  }
  return "not a rastros database (bad magic)";
}

}  // namespace

std::uint32_t check_preamble(const std::filesystem::path& path,
                             std::span<const unsigned char> prefix, std::uint64_t file_size) {
  // Judge the magic on whatever prefix exists, so a short file of ours reads as truncated and a
  // short file of something else as not ours.
  const std::size_t magic_seen = std::min(prefix.size(), kMagic.size());
  if (!std::equal(prefix.begin(), prefix.begin() + static_cast<std::ptrdiff_t>(magic_seen),
                  kMagic.begin())) {
    fail(path, other_game(prefix));
  }
  if (prefix.size() < kSizeOffset) fail(path, "truncated");
  const auto version = get_le<std::uint32_t>(prefix.data() + kVersionOffset);
  if (version < kOldestDatabaseFormatVersion || version > kDatabaseFormatVersion) {
    fail(path, "format version " + std::to_string(version) + ", this build reads " +
                   std::to_string(kOldestDatabaseFormatVersion) + " and " +
                   std::to_string(kDatabaseFormatVersion));
  }
  if (prefix.size() < kPreambleSize) fail(path, "truncated");
  const auto expected_size = get_le<std::uint64_t>(prefix.data() + kSizeOffset);
  if (file_size < expected_size) {
    fail(path, "truncated (" + std::to_string(file_size) + " of " + std::to_string(expected_size) +
                   " bytes)");
  }
  if (file_size > expected_size) {
    fail(path, "corrupt (" + std::to_string(file_size - expected_size) +
                   " bytes more than its header says)");
  }
  if (expected_size < kPreambleSize + kChecksumSize) fail(path, "corrupt header");
  return version;
}

std::uint32_t header_length(const std::filesystem::path& path,
                            std::span<const unsigned char> preamble, std::uint64_t file_size) {
  const auto length = get_le<std::uint32_t>(preamble.data() + kHeaderLengthOffset);
  if (length > kMaxHeaderBytes || length > file_size - kPreambleSize - kChecksumSize) {
    fail(path, "corrupt header");
  }
  return length;
}

}  // namespace database_format

namespace {

// Boost's text archive opens with a length-prefixed signature, "22 serialization::archive", and
// would allocate (and fill) whatever length a damaged header claimed there: gigabytes for a
// few-byte edit behind a valid checksum (found by tests/fuzz/fuzz_database.cpp). Everything after
// the signature is a number, so the text is checked for exactly that before Boost sees it.
bool plausible_header_text(std::span<const unsigned char> text) {
  constexpr std::string_view kSignature = "22 serialization::archive ";
  if (text.size() > kMaxHeaderBytes || text.size() < kSignature.size() ||
      !std::equal(kSignature.begin(), kSignature.end(), text.begin())) {
    return false;
  }
  return std::all_of(text.begin() + kSignature.size(), text.end(), [](unsigned char c) {
    return (c >= '0' && c <= '9') || c == ' ' || c == '\n' || c == '-';
  });
}

}  // namespace

namespace database_format {

FileHeader parse_header(const std::filesystem::path& path, std::span<const unsigned char> text,
                        std::uint32_t version) {
  if (!plausible_header_text(text)) fail(path, "corrupt header");
  FileHeader header;
  try {
    std::istringstream stream(std::string(text.begin(), text.end()));
    boost::archive::text_iarchive archive(stream);
    serialize(archive, header, version);
  } catch (const std::exception&) {
    fail(path, "corrupt header");
  }
  const DatabaseHeader& db = header.database;
  bool sane = header_is_valid(db);
  if (version == 1) {
    sane = sane && static_cast<int>(header.codec) <= static_cast<int>(Codec::zlib) &&
           header.key_bytes <= header.payload_bytes &&
           // Every position takes at least three payload bytes (key, value, move).
           db.position_count <= header.payload_bytes / 3 && header.key_bytes >= db.position_count &&
           // Deflate cannot compress beyond 1032:1, so a larger claim is nonsense.
           header.payload_bytes / kMaxDeflateRatio <= header.stored_bytes &&
           header.payload_bytes - header.key_bytes == 2 * db.position_count &&
           (header.codec == Codec::zlib || header.stored_bytes == header.payload_bytes);
  } else {
    sane =
        sane && header.block_positions >= 1 && header.block_positions <= kMaxDatabaseBlockPositions;
  }
  if (!sane) fail(path, "corrupt header");
  header.database.format_version = version;
  return header;
}

void check_kind(const std::filesystem::path& path, const DatabaseHeader& header,
                std::optional<DatabaseKind> expected) {
  if (expected && header.kind != *expected) {
    fail(path, "is a " + std::string(kind_name(header.kind)) + " database, expected " +
                   std::string(kind_name(*expected)));
  }
}

Layout layout_of(const std::filesystem::path& path, const FileHeader& header,
                 std::uint32_t header_length, std::uint64_t file_size) {
  // Each step is checked against the file size before the next is computed, so nothing
  // overflows however large the header's numbers are.
  Layout layout;
  layout.index_offset = kPreambleSize + header_length;
  const std::uint64_t n = header.database.position_count;
  layout.block_count = n / header.block_positions + (n % header.block_positions != 0);
  const std::uint64_t room = file_size - layout.index_offset;  // header_length checked before
  if (layout.block_count > room / kIndexEntrySize) fail(path, "corrupt header");
  layout.blocks_offset = layout.index_offset + layout.block_count * kIndexEntrySize + kChecksumSize;
  if (layout.blocks_offset > file_size || header.stored_bytes > file_size - layout.blocks_offset ||
      layout.blocks_offset + header.stored_bytes + kChecksumSize != file_size) {
    fail(path, "corrupt header");
  }
  return layout;
}

std::vector<BlockEntry> parse_index(const std::filesystem::path& path, const FileHeader& header,
                                    const Layout& layout, std::span<const unsigned char> index) {
  const std::uint64_t n = header.database.position_count;
  std::vector<BlockEntry> entries(layout.block_count);
  std::uint64_t offset = layout.blocks_offset;
  for (std::size_t j = 0; j < entries.size(); ++j) {
    const unsigned char* at = index.data() + kIndexEntrySize * j;
    BlockEntry& entry = entries[j];
    entry.first_key = {get_le<std::uint64_t>(at), at[8]};
    entry.codec = static_cast<Codec>(at[9]);
    entry.key_bytes = get_le<std::uint32_t>(at + 12);
    entry.stored_bytes = get_le<std::uint32_t>(at + 16);
    entry.crc = get_le<std::uint32_t>(at + 20);
    const std::uint64_t first = j * header.block_positions;
    entry.positions = static_cast<std::uint32_t>(std::min(header.block_positions, n - first));
    entry.offset = offset;
    const std::uint64_t positions = entry.positions;
    const std::uint64_t payload = entry.key_bytes + 2 * positions;
    const bool sane =
        at[9] <= static_cast<unsigned char>(Codec::zlib) && get_le<std::uint16_t>(at + 10) == 0 &&
        entry.key_bytes >= positions && entry.key_bytes <= kMaxKeyBytes * positions &&
        (entry.codec == Codec::raw
             ? entry.stored_bytes == payload
             : entry.stored_bytes < payload && payload / kMaxDeflateRatio <= entry.stored_bytes) &&
        entry.stored_bytes <= layout.blocks_offset + header.stored_bytes - offset &&
        (j == 0 || entries[j - 1].first_key < entry.first_key);
    if (!sane) fail(path, "corrupt block index (block " + std::to_string(j) + ")");
    offset += entry.stored_bytes;
  }
  if (offset != layout.blocks_offset + header.stored_bytes) fail(path, "corrupt block index");
  return entries;
}

void decode_block(const std::filesystem::path& path, const DatabaseHeader& header,
                  std::span<const BlockEntry> entries, std::size_t block,
                  std::span<const unsigned char> stored, std::vector<unsigned char>& scratch,
                  PackedPosition* keys, DatabaseRecord* records) {
  const BlockEntry& entry = entries[block];
  const std::string which =
      "block " + std::to_string(block) + " of " + std::to_string(entries.size());
  if (stored.size() != entry.stored_bytes || crc32_of(stored) != entry.crc) {
    fail(path, "checksum mismatch (corrupt) in " + which);
  }
  std::span<const unsigned char> payload = stored;
  const std::size_t payload_size = entry.key_bytes + 2 * std::size_t{entry.positions};
  if (entry.codec == Codec::zlib) {
    scratch.resize(payload_size);
    if (!raw_inflate(stored, scratch)) fail(path, "corrupt payload (deflate) in " + which);
    payload = scratch;
  }
  const WideKey limit =
      block + 1 < entries.size() ? wide(entries[block + 1].first_key) : kWideKeyLimit;
  try {
    decode_columns(path, header, payload, entry.key_bytes, entry.positions, limit, keys, records);
  } catch (const FileError& error) {
    throw FileError(std::string(error.what()) + " in " + which);
  }
  if (keys[0] != entry.first_key) fail(path, "corrupt payload (keys) in " + which);
}

OpenFile::OpenFile(const std::filesystem::path& path) {
  // Non-blocking, so that a FIFO with no writer is refused below rather than waited on (for a
  // regular file the flag changes nothing).
  fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    if (errno == ENOENT) fail(path, "missing");
    fail(path, std::string("cannot open: ") + std::strerror(errno));
  }
  struct stat status {};
  if (::fstat(fd, &status) != 0) {
    const int error = errno;
    ::close(fd);
    fail(path, std::string("cannot stat: ") + std::strerror(error));
  }
  if (!S_ISREG(status.st_mode)) {
    ::close(fd);
    fail(path, "not a regular file");
  }
  size = static_cast<std::uint64_t>(status.st_size);
}

OpenFile::~OpenFile() {
  if (fd >= 0) ::close(fd);
}

OpenFile::OpenFile(OpenFile&& other) noexcept : fd(std::exchange(other.fd, -1)), size(other.size) {}

OpenFile& OpenFile::operator=(OpenFile&& other) noexcept {
  if (this != &other) {
    if (fd >= 0) ::close(fd);
    fd = std::exchange(other.fd, -1);
    size = other.size;
  }
  return *this;
}

void read_at(const std::filesystem::path& path, int fd, std::uint64_t offset,
             std::span<unsigned char> out) {
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t n =
        ::pread(fd, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(path, std::string("read error: ") + std::strerror(errno));
    if (n == 0) fail(path, "truncated (the file shrank while it was read)");
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace database_format

namespace {

std::vector<unsigned char> read_all(const std::filesystem::path& path) {
  const OpenFile file(path);
  // The preamble first, judged before the rest is read: a large file that is not ours is never
  // read whole, and one that claims another size than it has is refused before its size is
  // allocated.
  std::vector<unsigned char> bytes(std::min<std::uint64_t>(file.size, kPreambleSize));
  read_at(path, file.fd, 0, bytes);
  check_preamble(path, bytes, file.size);
  bytes.resize(file.size);
  read_at(path, file.fd, kPreambleSize, std::span(bytes).subspan(kPreambleSize));
  return bytes;
}

// Format 1: one payload, raw or one zlib stream. The stream is inflated into memory that grows
// with what it really yields, so a header claiming more than the stream holds is refused having
// allocated only what the stream gave.
Database decode_whole_payload(const std::filesystem::path& path, const FileHeader& header,
                              std::span<const unsigned char> stored) {
  std::vector<unsigned char> inflated;
  std::span<const unsigned char> payload = stored;
  if (header.codec == Codec::zlib) {
    const std::uint64_t claimed = header.payload_bytes;
    z_stream stream{};
    if (inflateInit(&stream) != Z_OK) throw std::bad_alloc();
    std::size_t consumed = 0, produced = 0;
    inflated.resize(
        std::min<std::uint64_t>(claimed, std::max<std::size_t>(1 << 16, 4 * stored.size())));
    int result = Z_OK;
    for (;;) {
      if (produced == inflated.size()) {
        if (produced == claimed) {
          // All the payload claimed is here: the stream must end without a byte more.
          unsigned char extra = 0;
          stream.next_in = const_cast<unsigned char*>(stored.data() + consumed);
          stream.avail_in =
              static_cast<uInt>(std::min<std::size_t>(stored.size() - consumed, UINT_MAX));
          stream.next_out = &extra;
          stream.avail_out = 1;
          result = inflate(&stream, Z_NO_FLUSH);
          consumed = static_cast<std::size_t>(stream.next_in - stored.data());
          if (stream.avail_out == 0) result = Z_DATA_ERROR;
          break;
        }
        inflated.resize(std::min<std::uint64_t>(claimed, 2 * inflated.size()));
      }
      stream.next_in = const_cast<unsigned char*>(stored.data() + consumed);
      stream.avail_in =
          static_cast<uInt>(std::min<std::size_t>(stored.size() - consumed, UINT_MAX));
      stream.next_out = inflated.data() + produced;
      stream.avail_out =
          static_cast<uInt>(std::min<std::size_t>(inflated.size() - produced, UINT_MAX));
      const uInt room = stream.avail_out;
      result = inflate(&stream, Z_NO_FLUSH);
      consumed = static_cast<std::size_t>(stream.next_in - stored.data());
      produced += room - stream.avail_out;
      if (result == Z_STREAM_END) break;
      // Z_BUF_ERROR: no progress; with input left that means no room, else the stream is cut.
      if (result == Z_BUF_ERROR && consumed < stored.size() && produced == inflated.size()) {
        continue;
      }
      if (result != Z_OK) break;
    }
    inflateEnd(&stream);
    if (result != Z_STREAM_END || produced != claimed || consumed != stored.size()) {
      fail(path, "corrupt payload (zlib)");
    }
    payload = inflated;
  }
  const DatabaseHeader& db = header.database;
  const std::size_t n = db.position_count;
  // The payload is real now, and holds three bytes a position: n is no idle claim.
  std::vector<PackedPosition> keys(n);
  std::vector<DatabaseRecord> records(n);
  decode_columns(path, db, payload, header.key_bytes, n, kWideKeyLimit, keys.data(),
                 records.data());
  std::vector<unsigned char>().swap(inflated);
  return Database(db, std::move(keys), std::move(records));
}

// Format 2, whole: every block checked and decoded, on every thread. A first pass inflates each
// block without keeping it, so that the arrays for the whole are allocated only once every block
// has shown it holds the positions the header claims.
Database decode_blocks(const std::filesystem::path& path, const FileHeader& header,
                       std::span<const unsigned char> bytes, std::uint32_t header_length) {
  const Layout layout = layout_of(path, header, header_length, bytes.size());
  const std::size_t index_end = layout.blocks_offset - kChecksumSize;
  if (crc32_of(bytes.first(index_end)) != get_le<std::uint32_t>(bytes.data() + index_end)) {
    fail(path, "checksum mismatch (corrupt) in the block index");
  }
  const std::vector<BlockEntry> entries = parse_index(
      path, header, layout, bytes.subspan(layout.index_offset, index_end - layout.index_offset));
  const auto stored_of = [&](std::size_t j) {
    return bytes.subspan(entries[j].offset, entries[j].stored_bytes);
  };
  int finished = 0;  // only its address matters: the tasks' results are published there
  oneapi::tbb::parallel_for(
      std::size_t{0}, entries.size(), thread_sanitizer::handed_off([&](std::size_t j) {
        const BlockEntry& entry = entries[j];
        const std::span<const unsigned char> stored = stored_of(j);
        if (crc32_of(stored) != entry.crc) {
          fail(path, "checksum mismatch (corrupt) in block " + std::to_string(j) + " of " +
                         std::to_string(entries.size()));
        }
        if (entry.codec == Codec::zlib) {
          std::vector<unsigned char> scratch(entry.key_bytes + 2 * std::size_t{entry.positions});
          if (!raw_inflate(stored, scratch)) {
            fail(path, "corrupt payload (deflate) in block " + std::to_string(j) + " of " +
                           std::to_string(entries.size()));
          }
        }
        thread_sanitizer::publish(&finished);
      }));
  thread_sanitizer::acquire(&finished);

  const DatabaseHeader& db = header.database;
  std::vector<PackedPosition> keys(db.position_count);
  std::vector<DatabaseRecord> records(db.position_count);
  oneapi::tbb::parallel_for(std::size_t{0}, entries.size(),
                            thread_sanitizer::handed_off([&](std::size_t j) {
                              std::vector<unsigned char> scratch;
                              const std::size_t first = j * header.block_positions;
                              decode_block(path, db, entries, j, stored_of(j), scratch,
                                           keys.data() + first, records.data() + first);
                              thread_sanitizer::publish(&finished);
                            }));
  thread_sanitizer::acquire(&finished);
  return Database(db, std::move(keys), std::move(records));
}

}  // namespace

Database read_database(const std::filesystem::path& path,
                       std::optional<DatabaseKind> expected_kind) {
  return decode_database(read_all(path), path, expected_kind);
}

Database decode_database(std::span<const unsigned char> bytes, const std::filesystem::path& path,
                         std::optional<DatabaseKind> expected_kind) {
  const std::uint32_t version =
      check_preamble(path, bytes.first(std::min(bytes.size(), kPreambleSize)), bytes.size());
  const std::size_t body_size = bytes.size() - kChecksumSize;
  if (crc32_of(bytes.first(body_size)) != get_le<std::uint32_t>(bytes.data() + body_size)) {
    fail(path, "checksum mismatch (corrupt)");
  }
  const std::uint32_t length = header_length(path, bytes, bytes.size());
  const FileHeader header = parse_header(path, bytes.subspan(kPreambleSize, length), version);
  check_kind(path, header.database, expected_kind);
  if (version >= 2) return decode_blocks(path, header, bytes, length);

  const std::span<const unsigned char> stored =
      bytes.subspan(kPreambleSize + length, body_size - kPreambleSize - length);
  if (stored.size() != header.stored_bytes) fail(path, "corrupt header");
  return decode_whole_payload(path, header, stored);
}

}  // namespace rastros
