#include "engine/score_database_file.hpp"

#include <algorithm>
#include <span>

#include "core/binary_file.hpp"
#include "core/crc32.hpp"
#include "core/errors.hpp"

namespace rastros::engine {

namespace {

constexpr std::string_view kMagic = "RSCOREDB";
constexpr std::uint32_t kWholeVersion = 1;  // no index: read whole
constexpr std::uint32_t kVersion = 2;
constexpr std::string_view kWhat = "score database";
constexpr std::size_t kIndexEntryBytes = 16;
constexpr std::uint32_t kMostBlockRecords = 1u << 20;
// The fixed part of a header: magic and version, two names of at most 255 bytes with their
// lengths, count, records a block and blocks.
constexpr std::size_t kMostFixedHeaderBytes = kBinaryHeaderBytes + 2 * 256 + 8 + 4 + 8;

void put_name(std::vector<unsigned char>& out, const std::string& name) {
  out.push_back(static_cast<unsigned char>(name.size()));
  out.insert(out.end(), name.begin(), name.end());
}

void put_leb128(std::vector<unsigned char>& out, std::uint64_t value) {
  do {
    const auto low = static_cast<unsigned char>(value & 0x7f);
    value >>= 7;
    out.push_back(value ? low | 0x80 : low);
  } while (value);
}

/// Reads bytes of a file, each read checked against their end.
class Reader {
 public:
  Reader(std::span<const unsigned char> bytes, const std::filesystem::path& path, std::size_t at)
      : bytes_(bytes), path_(path), at_(at) {}

  unsigned char byte() {
    if (at_ >= bytes_.size()) throw binary_file_error(kWhat, path_, "cut short");
    return bytes_[at_++];
  }
  std::string name() {
    const std::size_t length = byte();
    std::string text;
    for (std::size_t i = 0; i < length; ++i) text.push_back(static_cast<char>(byte()));
    return text;
  }
  std::uint64_t le(int bytes) {
    std::uint64_t value = 0;
    for (int i = 0; i < bytes; ++i) value |= static_cast<std::uint64_t>(byte()) << (8 * i);
    return value;
  }
  std::uint64_t leb128() {
    std::uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      const unsigned char b = byte();
      value |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return value;
    }
    throw binary_file_error(kWhat, path_, "a key longer than 64 bits");
  }
  std::size_t at() const { return at_; }
  std::size_t left() const { return bytes_.size() - at_; }

 private:
  std::span<const unsigned char> bytes_;
  const std::filesystem::path& path_;
  std::size_t at_;
};

/// The names after magic and version, checked against what the caller wants.
void read_names(Reader& in, const std::filesystem::path& path, const std::string& game,
                const std::string& variant) {
  const std::string file_game = in.name();
  const std::string file_variant = in.name();
  if (file_game != game || file_variant != variant) {
    throw binary_file_error(
        kWhat, path,
        "a database of " + file_game + " " + file_variant + ", not " + game + " " + variant);
  }
}

/// The fixed part of a format 2 header, after the names.
struct Shape {
  std::uint64_t count = 0;
  std::uint32_t block_records = 0;
  std::uint64_t blocks = 0;
};

Shape read_shape(Reader& in, const std::filesystem::path& path, std::uint64_t file_size) {
  Shape shape;
  shape.count = in.le(8);
  shape.block_records = static_cast<std::uint32_t>(in.le(4));
  shape.blocks = in.le(8);
  if (shape.block_records == 0 || shape.block_records > kMostBlockRecords ||
      shape.blocks != (shape.count + shape.block_records - 1) / shape.block_records) {
    throw binary_file_error(kWhat, path, "a block index that does not match its count");
  }
  // Every record takes at least two bytes (a gap or the first key's index entry, a score).
  if (shape.blocks > file_size / kIndexEntryBytes || shape.count > file_size / 2) {
    throw binary_file_error(kWhat, path, "cut short");
  }
  return shape;
}

/// The index of a format 2 file, read after its shape: where each block starts, and the
/// header's checksum checked. `header` holds the file's first bytes up to its first block.
struct Index {
  std::vector<std::uint64_t> first_keys;
  std::vector<std::uint64_t> offsets;  // one more than blocks: the end of the last
  std::vector<std::uint32_t> crcs;
};

Index read_index(Reader& in, std::span<const unsigned char> header, const Shape& shape,
                 const std::filesystem::path& path, std::uint64_t file_size) {
  Index index;
  std::vector<std::uint32_t> bytes;
  for (std::uint64_t b = 0; b < shape.blocks; ++b) {
    index.first_keys.push_back(in.le(8));
    bytes.push_back(static_cast<std::uint32_t>(in.le(4)));
    index.crcs.push_back(static_cast<std::uint32_t>(in.le(4)));
  }
  const std::size_t crc_at = in.at();
  if (in.le(4) != crc32_of(header.first(crc_at))) {
    throw binary_file_error(kWhat, path, "header checksum mismatch (corrupt)");
  }
  std::uint64_t offset = in.at();
  index.offsets.push_back(offset);
  for (std::size_t b = 0; b < bytes.size(); ++b) {
    if (b > 0 && index.first_keys[b] <= index.first_keys[b - 1]) {
      throw binary_file_error(kWhat, path, "keys out of order");
    }
    if (bytes[b] > file_size - offset) throw binary_file_error(kWhat, path, "cut short");
    offset += bytes[b];
    index.offsets.push_back(offset);
  }
  if (offset + 4 != file_size) {
    throw binary_file_error(kWhat, path, "blocks that do not fill the file (cut short?)");
  }
  return index;
}

/// Block `b`'s keys and scores from its bytes, checked against its CRC, its record count and
/// the next block's first key (`next_first`, none for the last block).
void decode_block(std::span<const unsigned char> bytes, std::uint64_t first_key,
                  std::optional<std::uint64_t> next_first, std::uint64_t records, std::uint32_t crc,
                  std::size_t b, const std::filesystem::path& path, ScoreRecords& out) {
  const auto fail = [&](const std::string& problem) {
    return binary_file_error(kWhat, path, "block " + std::to_string(b) + ": " + problem);
  };
  if (crc32_of(bytes) != crc) throw fail("checksum mismatch (corrupt)");
  Reader in(bytes, path, 0);
  std::uint64_t key = first_key;
  out.keys.push_back(key);
  for (std::uint64_t i = 1; i < records; ++i) {
    const std::uint64_t gap = in.leb128();
    if (gap == 0 || gap > UINT64_MAX - key) throw fail("keys out of order");
    key += gap;
    out.keys.push_back(key);
  }
  if (next_first && key >= *next_first) throw fail("keys out of order");
  if (in.left() != records) throw fail("the scores do not match the keys");
  for (std::uint64_t i = 0; i < records; ++i)
    out.scores.push_back(static_cast<std::int8_t>(in.byte()));
}

std::optional<std::uint64_t> next_first_key(const std::vector<std::uint64_t>& first_keys,
                                            std::size_t b) {
  if (b + 1 < first_keys.size()) return first_keys[b + 1];
  return std::nullopt;
}

std::uint64_t records_in_block(const Shape& shape, std::size_t b) {
  return std::min<std::uint64_t>(shape.block_records, shape.count - b * shape.block_records);
}

/// The blocks of `records`, each encoded, with their first keys: what the file holds after
/// its header.
struct EncodedBlocks {
  std::vector<std::uint64_t> first_keys;
  std::vector<std::vector<unsigned char>> bytes;
};

EncodedBlocks encode_blocks(const ScoreRecords& records, std::uint32_t block_records) {
  EncodedBlocks out;
  for (std::size_t begin = 0; begin < records.keys.size(); begin += block_records) {
    const std::size_t end = std::min(records.keys.size(), begin + block_records);
    std::vector<unsigned char> block;
    for (std::size_t i = begin + 1; i < end; ++i)
      put_leb128(block, records.keys[i] - records.keys[i - 1]);
    for (std::size_t i = begin; i < end; ++i)
      block.push_back(static_cast<unsigned char>(records.scores[i]));
    out.first_keys.push_back(records.keys[begin]);
    out.bytes.push_back(std::move(block));
  }
  return out;
}

/// A format 1 file's records after its names.
ScoreRecords read_whole_records(Reader& in, const std::filesystem::path& path) {
  const std::uint64_t count = in.le(8);
  if (count > in.left()) throw binary_file_error(kWhat, path, "cut short");
  ScoreRecords records;
  records.keys.reserve(count);
  std::uint64_t key = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t gap = in.leb128();
    if ((i > 0 && gap == 0) || gap > UINT64_MAX - key) {
      throw binary_file_error(kWhat, path, "keys out of order");
    }
    key += gap;
    records.keys.push_back(key);
  }
  if (in.left() != count) throw binary_file_error(kWhat, path, "the scores do not match the keys");
  records.scores.reserve(count);
  for (std::uint64_t i = 0; i < count; ++i)
    records.scores.push_back(static_cast<std::int8_t>(in.byte()));
  return records;
}

}  // namespace

void save_score_database(const std::filesystem::path& path, const ScoreDatabaseFile& file,
                         std::uint32_t block_records) {
  if (block_records == 0 || block_records > kMostBlockRecords) {
    throw InputError("a score database block holds 1 to " + std::to_string(kMostBlockRecords) +
                     " records, not " + std::to_string(block_records));
  }
  const EncodedBlocks blocks = encode_blocks(file.records, block_records);
  std::vector<unsigned char> bytes = begin_binary_file(kMagic, kVersion);
  put_name(bytes, file.game);
  put_name(bytes, file.variant);
  put_le(bytes, file.records.keys.size(), 8);
  put_le(bytes, block_records, 4);
  put_le(bytes, blocks.bytes.size(), 8);
  for (std::size_t b = 0; b < blocks.bytes.size(); ++b) {
    put_le(bytes, blocks.first_keys[b], 8);
    put_le(bytes, blocks.bytes[b].size(), 4);
    put_le(bytes, crc32_of(blocks.bytes[b]), 4);
  }
  put_le(bytes, crc32_of(bytes), 4);
  for (const auto& block : blocks.bytes) bytes.insert(bytes.end(), block.begin(), block.end());
  finish_binary_file(path, std::move(bytes), kWhat);
}

std::size_t encoded_record_bytes(const ScoreRecords& records, std::uint32_t block_records) {
  const EncodedBlocks blocks = encode_blocks(records, block_records);
  std::size_t total = blocks.bytes.size() * kIndexEntryBytes;
  for (const auto& block : blocks.bytes) total += block.size();
  return total;
}

ScoreDatabaseFile load_score_database(const std::filesystem::path& path, const std::string& game,
                                      const std::string& variant) {
  const VersionedBinaryFile read = read_binary_file(path, kMagic, kWholeVersion, kVersion, kWhat);
  const std::span<const unsigned char> bytes = read.bytes;
  Reader in(bytes, path, kBinaryHeaderBytes);
  read_names(in, path, game, variant);
  ScoreDatabaseFile file{game, variant, {}};
  if (read.version == kWholeVersion) {
    file.records = read_whole_records(in, path);
    return file;
  }
  const std::uint64_t file_size = bytes.size() + 4;
  const Shape shape = read_shape(in, path, file_size);
  const Index index = read_index(in, bytes, shape, path, file_size);
  file.records.keys.reserve(shape.count);
  file.records.scores.reserve(shape.count);
  for (std::size_t b = 0; b < shape.blocks; ++b) {
    const auto block = bytes.subspan(index.offsets[b], index.offsets[b + 1] - index.offsets[b]);
    decode_block(block, index.first_keys[b], next_first_key(index.first_keys, b),
                 records_in_block(shape, b), index.crcs[b], b, path, file.records);
  }
  return file;
}

struct ScoreDatabaseReader::Block {
  ScoreRecords records;
};

namespace {

std::span<const unsigned char> bytes_of(const std::string& text) {
  return {reinterpret_cast<const unsigned char*>(text.data()), text.size()};
}

// No score database is this large: a bound for RegularFile.
constexpr std::uint64_t kMostFileBytes = std::uint64_t{1} << 44;

}  // namespace

ScoreDatabaseReader::ScoreDatabaseReader(const std::filesystem::path& path, const std::string& game,
                                         const std::string& variant)
    : file_(path, kMostFileBytes, std::string(kWhat)) {
  const std::uint64_t size = file_.size();
  if (size < kBinaryHeaderBytes + 4) file_.fail("truncated");
  std::string head = file_.read(std::min<std::uint64_t>(size - 4, kMostFixedHeaderBytes));
  if (!std::equal(kMagic.begin(), kMagic.end(), head.begin())) file_.fail("bad magic");
  const auto version = static_cast<std::uint32_t>(get_le(bytes_of(head), 8, 4));
  if (version == kWholeVersion) {
    whole_ = load_score_database(path, game, variant).records;
    count_ = whole_.keys.size();
    return;
  }
  if (version != kVersion) file_.fail("format version " + std::to_string(version));
  Reader fixed(bytes_of(head), path, kBinaryHeaderBytes);
  read_names(fixed, path, game, variant);
  const Shape shape = read_shape(fixed, path, size);
  const std::uint64_t header_bytes = fixed.at() + shape.blocks * kIndexEntryBytes + 4;
  if (header_bytes + 4 > size) throw binary_file_error(kWhat, path, "cut short");
  head = file_.read(header_bytes);
  Reader in(bytes_of(head), path, fixed.at());
  Index index = read_index(in, bytes_of(head), shape, path, size);
  count_ = shape.count;
  block_records_ = shape.block_records;
  first_keys_ = std::move(index.first_keys);
  offsets_ = std::move(index.offsets);
  crcs_ = std::move(index.crcs);
}

ScoreDatabaseReader::~ScoreDatabaseReader() = default;

std::size_t ScoreDatabaseReader::blocks_read() const {
  const std::lock_guard lock(mutex_);
  return blocks_read_;
}

const ScoreDatabaseReader::Block& ScoreDatabaseReader::block(std::size_t b) const {
  auto& slot = blocks_[b];
  if (slot) return *slot;
  // A long-lived reader (a server) keeps at most this many positions decoded, about 150 MB,
  // whatever the file's records a block.
  constexpr std::uint64_t kMostRecordsKept = std::uint64_t{16} << 20;
  if (records_kept_ + block_records_ > kMostRecordsKept && blocks_.size() > 1) {
    blocks_.clear();
    records_kept_ = 0;
    return block(b);
  }
  const std::string bytes = file_.read_at(offsets_[b], offsets_[b + 1] - offsets_[b]);
  auto decoded = std::make_unique<Block>();
  const Shape shape{count_, block_records_, first_keys_.size()};
  decode_block(bytes_of(bytes), first_keys_[b], next_first_key(first_keys_, b),
               records_in_block(shape, b), crcs_[b], b, file_.path(), decoded->records);
  ++blocks_read_;
  records_kept_ += decoded->records.keys.size();
  slot = std::move(decoded);
  return *slot;
}

std::optional<int> ScoreDatabaseReader::find(std::uint64_t key) const {
  if (offsets_.empty()) return whole_.find(key);
  const auto after = std::upper_bound(first_keys_.begin(), first_keys_.end(), key);
  if (after == first_keys_.begin()) return std::nullopt;
  const std::lock_guard lock(mutex_);
  return block(static_cast<std::size_t>(after - first_keys_.begin()) - 1).records.find(key);
}

}  // namespace rastros::engine
