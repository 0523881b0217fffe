// libFuzzer target: the database loader (db/database_file.hpp) on arbitrary bytes.
//
// The first input byte picks what the rest is:
//   even  the file image exactly as given (magic, version, size, checksum all judged);
//   odd   the same with the size field and the CRC-32 rewritten to match, so that mutations
//         get past the checksum and reach the header archive, the codec and the payload.
// A file the loader accepts must survive encode -> decode unchanged, and every lookup of its
// own keys must find their records.

#include <algorithm>
#include <boost/crc.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include "core/errors.hpp"
#include "db/database_file.hpp"

namespace {

void check(bool condition) {
  if (!condition) std::abort();
}

void fix_size_and_checksum(std::vector<unsigned char>& bytes) {
  constexpr std::size_t kSizeOffset = 12;
  if (bytes.size() < 24 + 4) return;
  const std::uint64_t size = bytes.size();
  for (int i = 0; i < 8; ++i) bytes[kSizeOffset + i] = static_cast<unsigned char>(size >> (8 * i));
  boost::crc_32_type crc;
  crc.process_bytes(bytes.data(), bytes.size() - 4);
  const std::uint32_t checksum = crc.checksum();
  for (int i = 0; i < 4; ++i) {
    bytes[bytes.size() - 4 + i] = static_cast<unsigned char>(checksum >> (8 * i));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rastros;
  if (size == 0) return 0;
  std::vector<unsigned char> bytes(data + 1, data + size);
  if (data[0] & 1) fix_size_and_checksum(bytes);
  Database database;
  try {
    database = decode_database(bytes, "fuzz.rdb");
  } catch (const FileError&) {
    return 0;  // refused with a message: the expected answer to garbage
  }
  check(database.header().position_count == database.size());
  const std::span keys = database.keys();
  const std::span records = database.records();
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const DatabaseRecord* found = database.find(keys[i]);
    check(found != nullptr && *found == records[i]);
  }
  const Database again = decode_database(encode_database(database), "again.rdb");
  check(again.header() == database.header());
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
