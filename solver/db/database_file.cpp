#include "db/database_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <boost/archive/text_iarchive.hpp>
#include <boost/archive/text_oarchive.hpp>
#include <cerrno>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <type_traits>
#include <utility>

#include "core/atomic_file.hpp"
#include "core/crc32.hpp"
#include "core/errors.hpp"
#include "core/parallel_deflate.hpp"

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

namespace {

constexpr std::array<unsigned char, 8> kMagic = {0x89, 'R', 'D', 'B', '\r', '\n', 0x1a, '\n'};
constexpr std::size_t kVersionOffset = 8;
constexpr std::size_t kSizeOffset = 12;
constexpr std::size_t kHeaderLengthOffset = 20;
constexpr std::size_t kPreambleSize = 24;
constexpr std::size_t kChecksumSize = 4;

enum class Codec : std::uint8_t { raw = 0, zlib = 1 };
constexpr std::uint64_t kMaxDeflateRatio = 1032;

// A 72-bit key as one integer, so consecutive keys differ by a small number.
using WideKey = unsigned __int128;
constexpr WideKey kWideKeyLimit = WideKey{1} << 72;

WideKey wide(const PackedPosition& key) {
  return (WideKey{key.free} << 8) | key.snail;
}
PackedPosition narrow(WideKey key) {
  return {static_cast<SquareMask>(key >> 8), static_cast<std::uint8_t>(key & 0xff)};
}

// What the archive holds: the public header plus how the payload is stored.
struct FileHeader {
  DatabaseHeader database;
  Codec codec = Codec::raw;
  std::uint64_t key_bytes = 0;      // length of the keys column before compression
  std::uint64_t payload_bytes = 0;  // whole payload before compression
  std::uint64_t stored_bytes = 0;   // payload as stored in the file
};

// Enums go through plain integers so the archive does not depend on their underlying types.
template <class Archive>
void serialize(Archive& archive, FileHeader& header) {
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
  // Only proof databases have leaves; leaving the field out of the others keeps their files
  // byte for byte what earlier builds wrote.
  if (db.kind == DatabaseKind::proof) archive& db.leaf_squares;
  as_int(header.codec);
  archive& header.key_bytes& header.payload_bytes& header.stored_bytes;
}

template <class T>
void put_le(std::vector<unsigned char>& out, std::size_t offset, T value) {
  for (std::size_t i = 0; i < sizeof(T); ++i) {
    out[offset + i] = static_cast<unsigned char>(value >> (8 * i));
  }
}

template <class T>
T get_le(std::span<const unsigned char> in, std::size_t offset) {
  T value = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) value |= static_cast<T>(in[offset + i]) << (8 * i);
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

std::vector<unsigned char> database_file_image(const DatabaseHeader& header,
                                               const StoredPayload& payload) {
  FileHeader file_header;
  file_header.database = header;
  file_header.codec = payload.compressed ? Codec::zlib : Codec::raw;
  file_header.key_bytes = payload.key_bytes;
  file_header.payload_bytes = payload.payload_bytes;
  file_header.stored_bytes = payload.bytes.size();
  std::ostringstream text;
  {
    boost::archive::text_oarchive archive(text);
    serialize(archive, file_header);
  }
  const std::string header_text = text.str();

  // Sized once and filled in place (growing a 24-byte vector trips GCC 12's -Warray-bounds).
  const std::size_t body_size = kPreambleSize + header_text.size() + payload.bytes.size();
  std::vector<unsigned char> file(body_size + kChecksumSize);
  std::copy(kMagic.begin(), kMagic.end(), file.begin());
  put_le<std::uint32_t>(file, kVersionOffset, kDatabaseFormatVersion);
  put_le<std::uint64_t>(file, kSizeOffset, file.size());
  put_le<std::uint32_t>(file, kHeaderLengthOffset, static_cast<std::uint32_t>(header_text.size()));
  const auto header_at = file.begin() + kPreambleSize;
  std::copy(header_text.begin(), header_text.end(), header_at);
  std::copy(payload.bytes.begin(), payload.bytes.end(),
            header_at + static_cast<std::ptrdiff_t>(header_text.size()));
  put_le<std::uint32_t>(file, body_size, crc32_of(std::span(file).first(body_size)));
  return file;
}

std::vector<unsigned char> encode_database(const Database& database) {
  PayloadColumns columns =
      encode_columns(database.header(), database.keys(), database.records(), nullptr);
  StoredPayload stored;
  stored.key_bytes = columns.keys.size();
  std::vector<unsigned char> payload;
  payload.reserve(columns.keys.size() + columns.values.size() + columns.moves.size());
  for (std::vector<unsigned char>* column : {&columns.keys, &columns.values, &columns.moves}) {
    payload.insert(payload.end(), column->begin(), column->end());
    std::vector<unsigned char>().swap(*column);
  }
  stored.payload_bytes = payload.size();
  // Compress only where it pays: a tiny or incompressible payload is stored as it is.
  if (!payload.empty()) {
    std::vector<unsigned char> compressed = deflate_in_parallel(payload, kPayloadDeflateLevel);
    if (compressed.size() < payload.size()) {
      payload = std::move(compressed);
      stored.compressed = true;
    }
  }
  stored.bytes = std::move(payload);
  return database_file_image(database.header(), stored);
}

void write_database(const std::filesystem::path& path, const Database& database) {
  write_file_atomically(path, encode_database(database), "database");
}

// -- Reading ----------------------------------------------------------------------------------

namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& problem) {
  throw FileError("database " + path.string() + ": " + problem);
}

// What the fixed preamble tells, judged on the first bytes of a file of `file_size` bytes (all of
// them, or the first kPreambleSize): not ours, another version, truncated, or longer than it
// says. Judged before the rest is read, so a large file that is not ours is never read whole.
void check_preamble(const std::filesystem::path& path, std::span<const unsigned char> prefix,
                    std::uint64_t file_size) {
  // Judge the magic on whatever prefix exists, so a short file of ours reads as truncated and a
  // short file of something else as not ours.
  const std::size_t magic_seen = std::min(prefix.size(), kMagic.size());
  if (!std::equal(prefix.begin(), prefix.begin() + static_cast<std::ptrdiff_t>(magic_seen),
                  kMagic.begin())) {
    fail(path, "not a rastros database (bad magic)");
  }
  if (prefix.size() < kSizeOffset) fail(path, "truncated");
  const auto version = get_le<std::uint32_t>(prefix, kVersionOffset);
  if (version != kDatabaseFormatVersion) {
    fail(path, "format version " + std::to_string(version) + ", this build reads " +
                   std::to_string(kDatabaseFormatVersion));
  }
  if (prefix.size() < kPreambleSize) fail(path, "truncated");
  const auto expected_size = get_le<std::uint64_t>(prefix, kSizeOffset);
  if (file_size < expected_size) {
    fail(path, "truncated (" + std::to_string(file_size) + " of " + std::to_string(expected_size) +
                   " bytes)");
  }
  if (file_size > expected_size) {
    fail(path, "corrupt (" + std::to_string(file_size - expected_size) +
                   " bytes more than its header says)");
  }
  if (expected_size < kPreambleSize + kChecksumSize) fail(path, "corrupt header");
}

// Reads up to `size` bytes at the file's current offset; fewer only at its end.
std::size_t read_some(const std::filesystem::path& path, int fd, unsigned char* out,
                      std::size_t size) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::read(fd, out + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(path, std::string("read error: ") + std::strerror(errno));
    if (n == 0) break;  // shrank while we read: judged as truncated
    done += static_cast<std::size_t>(n);
  }
  return done;
}

std::vector<unsigned char> read_all(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) fail(path, "missing");
    fail(path, std::string("cannot open: ") + std::strerror(errno));
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat status {};
  if (::fstat(fd, &status) != 0) fail(path, std::string("cannot stat: ") + std::strerror(errno));
  if (!S_ISREG(status.st_mode)) fail(path, "not a regular file");
  const auto file_size = static_cast<std::uint64_t>(status.st_size);
  std::vector<unsigned char> bytes(std::min<std::uint64_t>(file_size, kPreambleSize));
  bytes.resize(read_some(path, fd, bytes.data(), bytes.size()));
  check_preamble(path, bytes, file_size);
  bytes.resize(file_size);
  const std::size_t rest =
      read_some(path, fd, bytes.data() + kPreambleSize, bytes.size() - kPreambleSize);
  bytes.resize(kPreambleSize + rest);
  return bytes;
}

// Boost's text archive opens with a length-prefixed signature, "22 serialization::archive", and
// would allocate (and fill) whatever length a damaged header claimed there: gigabytes for a
// few-byte edit behind a valid checksum (found by tests/fuzz/fuzz_database.cpp). Everything after
// the signature is a number, so the text is checked for exactly that before Boost sees it.
bool plausible_header_text(std::span<const unsigned char> text) {
  constexpr std::string_view kSignature = "22 serialization::archive ";
  constexpr std::size_t kMaxHeaderBytes = 1024;  // a header is about 60 bytes
  if (text.size() > kMaxHeaderBytes || text.size() < kSignature.size() ||
      !std::equal(kSignature.begin(), kSignature.end(), text.begin())) {
    return false;
  }
  return std::all_of(text.begin() + kSignature.size(), text.end(), [](unsigned char c) {
    return (c >= '0' && c <= '9') || c == ' ' || c == '\n' || c == '-';
  });
}

FileHeader parse_header(const std::filesystem::path& path, std::span<const unsigned char> text) {
  if (!plausible_header_text(text)) fail(path, "corrupt header");
  FileHeader header;
  try {
    std::istringstream stream(std::string(text.begin(), text.end()));
    boost::archive::text_iarchive archive(stream);
    serialize(archive, header);
  } catch (const std::exception&) {
    fail(path, "corrupt header");
  }
  const DatabaseHeader& db = header.database;
  const bool sane =
      header_is_valid(db) && static_cast<int>(header.codec) <= static_cast<int>(Codec::zlib) &&
      header.key_bytes <= header.payload_bytes &&
      // Every position takes at least three payload bytes (key, value, move).
      db.position_count <= header.payload_bytes / 3 && header.key_bytes >= db.position_count &&
      // Deflate cannot compress beyond 1032:1, so a larger claim is nonsense;
      // refusing it keeps a bad header from asking for an absurd allocation.
      header.payload_bytes / kMaxDeflateRatio <= header.stored_bytes &&
      header.payload_bytes - header.key_bytes == 2 * db.position_count &&
      (header.codec == Codec::zlib || header.stored_bytes == header.payload_bytes);
  if (!sane) fail(path, "corrupt header");
  return header;
}

Database decode_payload(const std::filesystem::path& path, const FileHeader& header,
                        std::span<const unsigned char> payload) {
  const DatabaseHeader& db = header.database;
  const std::size_t n = db.position_count;
  std::vector<PackedPosition> keys;
  std::vector<DatabaseRecord> records(n);
  keys.reserve(n);
  const std::span<const unsigned char> key_column = payload.first(header.key_bytes);
  const unsigned char* values = payload.data() + header.key_bytes;
  const unsigned char* moves = values + n;

  std::size_t at = 0;
  WideKey previous = 0;
  for (std::size_t i = 0; i < n; ++i) {
    WideKey delta = 0;
    for (int shift = 0;; shift += 7) {
      // 11 groups of 7 bits cover 72 bits; a longer varint is corruption.
      if (at == key_column.size() || shift > 70) fail(path, "corrupt payload (keys)");
      const unsigned char byte = key_column[at++];
      delta |= static_cast<WideKey>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) break;
    }
    const WideKey key = i == 0 ? delta : previous + delta + 1;
    if (key >= kWideKeyLimit || (i > 0 && key <= previous)) fail(path, "corrupt payload (keys)");
    previous = key;
    keys.push_back(narrow(key));
  }
  if (at != key_column.size()) fail(path, "corrupt payload (keys)");

  for (std::size_t i = 0; i < n; ++i) {
    DatabaseRecord& record = records[i];
    const unsigned value = values[i] >> 6;
    if (value > static_cast<unsigned>(Value::win)) fail(path, "corrupt payload (values)");
    record.value = static_cast<Value>(value);
    record.remoteness = values[i] & 0x3f;
    if (!decode_move(db.width, db.height, snail_square(keys[i]), moves[i], record.best_move)) {
      fail(path, "corrupt payload (moves)");
    }
  }
  return Database(db, std::move(keys), std::move(records));
}

}  // namespace

Database read_database(const std::filesystem::path& path,
                       std::optional<DatabaseKind> expected_kind) {
  return decode_database(read_all(path), path, expected_kind);
}

Database decode_database(std::span<const unsigned char> bytes, const std::filesystem::path& path,
                         std::optional<DatabaseKind> expected_kind) {
  check_preamble(path, bytes.first(std::min(bytes.size(), kPreambleSize)), bytes.size());
  const std::size_t body_size = bytes.size() - kChecksumSize;
  if (crc32_of(bytes.first(body_size)) != get_le<std::uint32_t>(bytes, body_size)) {
    fail(path, "checksum mismatch (corrupt)");
  }

  const auto header_length = get_le<std::uint32_t>(bytes, kHeaderLengthOffset);
  if (header_length > body_size - kPreambleSize) fail(path, "corrupt header");
  FileHeader header = parse_header(path, bytes.subspan(kPreambleSize, header_length));
  header.database.format_version = kDatabaseFormatVersion;  // the only one check_preamble passes
  if (expected_kind && header.database.kind != *expected_kind) {
    fail(path, "is a " + std::string(kind_name(header.database.kind)) + " database, expected " +
                   std::string(kind_name(*expected_kind)));
  }
  const std::span<const unsigned char> stored =
      bytes.subspan(kPreambleSize + header_length, body_size - kPreambleSize - header_length);
  if (stored.size() != header.stored_bytes) fail(path, "corrupt header");

  if (header.codec == Codec::raw) return decode_payload(path, header, stored);
  std::vector<unsigned char> payload(header.payload_bytes);
  uLongf payload_size = payload.size();
  if (uncompress(payload.data(), &payload_size, stored.data(), stored.size()) != Z_OK ||
      payload_size != payload.size()) {
    fail(path, "corrupt payload (zlib)");
  }
  return decode_payload(path, header, payload);
}

}  // namespace rastros
