// libFuzzer target: the database loaders on arbitrary bytes: the whole-file one
// (db/database_file.hpp) and the block-at-a-time DatabaseReader (db/database_reader.hpp).
//
// The first input byte picks what the rest is:
//   even  the file image exactly as given (magic, version, size, checksums all judged);
//   odd   the same with the size field, the block index's CRC-32 (format 2) and the file's
//         rewritten to match, so that mutations get past the checksums and reach the header
//         archive, the index, the codecs and the payload.
// A file the loader accepts must survive encode -> decode unchanged, and every lookup of its
// own keys must find their records. The DatabaseReader, given the same bytes as a file, either
// refuses them or answers; where the whole load accepted them, with the same records.

#include <unistd.h>

#include <algorithm>
#include <boost/crc.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "db/database_file.hpp"
#include "db/database_reader.hpp"

namespace {

void check(bool condition) {
  if (!condition) std::abort();
}

std::uint32_t crc_of(const unsigned char* bytes, std::size_t size) {
  boost::crc_32_type crc;
  crc.process_bytes(bytes, size);
  return crc.checksum();
}

// Format 2: the CRC-32 of the preamble, header and index sits before the blocks, whose size the
// header's last number gives.
void fix_index_checksum(std::vector<unsigned char>& bytes) {
  if (bytes[8] != 2) return;
  std::size_t header_length = 0;
  for (int i = 0; i < 4; ++i) header_length |= std::size_t{bytes[20 + i]} << (8 * i);
  if (header_length > 1024 || 24 + header_length + 8 > bytes.size()) return;
  std::size_t end = 24 + header_length;
  while (end > 24 && (bytes[end - 1] == '\n' || bytes[end - 1] == ' ')) --end;
  std::size_t begin = end;
  while (begin > 24 && bytes[begin - 1] >= '0' && bytes[begin - 1] <= '9') --begin;
  if (begin == end || end - begin > 12) return;
  const std::size_t stored = std::stoull(std::string(bytes.begin() + begin, bytes.begin() + end));
  if (stored + 8 + 24 + header_length > bytes.size()) return;
  const std::size_t index_end = bytes.size() - 8 - stored;
  const std::uint32_t checksum = crc_of(bytes.data(), index_end);
  for (int i = 0; i < 4; ++i)
    bytes[index_end + i] = static_cast<unsigned char>(checksum >> (8 * i));
}

void fix_size_and_checksum(std::vector<unsigned char>& bytes) {
  constexpr std::size_t kSizeOffset = 12;
  if (bytes.size() < 24 + 4) return;
  const std::uint64_t size = bytes.size();
  for (int i = 0; i < 8; ++i) bytes[kSizeOffset + i] = static_cast<unsigned char>(size >> (8 * i));
  fix_index_checksum(bytes);
  boost::crc_32_type crc;
  crc.process_bytes(bytes.data(), bytes.size() - 4);
  const std::uint32_t checksum = crc.checksum();
  for (int i = 0; i < 4; ++i) {
    bytes[bytes.size() - 4 + i] = static_cast<unsigned char>(checksum >> (8 * i));
  }
}

// The same bytes as a file, opened by a DatabaseReader: refused, or answering (or refusing a
// damaged block) for every block; where `whole` was decoded from them, with its records.
void check_reader(const std::vector<unsigned char>& bytes, const rastros::Database* whole) {
  using namespace rastros;
  static const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("fuzz_database_" + std::to_string(::getpid()));
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
  }
  try {
    const DatabaseReader reader(path);
    if (whole) {
      check(reader.header() == whole->header());
      for (std::size_t i = 0; i < whole->size(); ++i) {
        check(reader.find(whole->keys()[i]) == whole->records()[i]);
      }
    } else {
      for (const PackedPosition& key : reader.block_first_keys()) {
        try {
          reader.find(key);
        } catch (const FileError&) {
        }
      }
    }
  } catch (const FileError&) {
    check(whole == nullptr);  // what the whole load accepts, the reader opens and answers
  }
  std::filesystem::remove(path);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rastros;
  if (size == 0) return 0;
  std::vector<unsigned char> bytes(data + 1, data + size);
  if (data[0] & 1) fix_size_and_checksum(bytes);
  std::optional<Database> decoded;
  try {
    decoded = decode_database(bytes, "fuzz.rdb");
  } catch (const FileError&) {
    // Refused with a message: the expected answer to garbage.
  }
  check_reader(bytes, decoded ? &*decoded : nullptr);
  if (!decoded) return 0;
  const Database& database = *decoded;
  check(database.header().position_count == database.size());
  const std::span keys = database.keys();
  const std::span records = database.records();
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const DatabaseRecord* found = database.find(keys[i]);
    check(found != nullptr && *found == records[i]);
  }
  const Database again = decode_database(encode_database(database), "again.rdb");
  DatabaseHeader rewritten = database.header();
  rewritten.format_version = kDatabaseFormatVersion;  // (a format 1 file is written as 2)
  check(again.header() == rewritten);
  check(std::ranges::equal(again.keys(), keys));
  check(std::ranges::equal(again.records(), records));
  // The other kind is refused by name.
  const DatabaseKind other = database.header().kind == DatabaseKind::strong ? DatabaseKind::strategy
                                                                            : DatabaseKind::strong;
  try {
    decode_database(bytes, "fuzz.rdb", other);
    check(false);
  } catch (const FileError&) {
  }
  return 0;
}
