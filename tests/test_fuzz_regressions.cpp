// Inputs found by the fuzz targets in tests/fuzz/, each kept as a regression test here (and as a
// file in the target's corpus, which ctest replays), with what the code must answer instead.

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <boost/crc.hpp>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/errors.hpp"
#include "db/database_file.hpp"

namespace rastros {
namespace {

using Bytes = std::vector<unsigned char>;

// The expected FileError message of decoding `bytes`, or "" when they decode.
std::string decode_error(const Bytes& bytes) {
  try {
    decode_database(bytes, "fuzz.rdb");
  } catch (const FileError& error) {
    return error.what();
  }
  return "";
}

// The file's size field and CRC-32 made to match its contents, as fuzz_database's odd mode does.
void fix_size_and_checksum(Bytes& bytes) {
  for (int i = 0; i < 8; ++i) bytes[12 + i] = static_cast<unsigned char>(bytes.size() >> (8 * i));
  boost::crc_32_type crc;
  crc.process_bytes(bytes.data(), bytes.size() - 4);
  for (int i = 0; i < 4; ++i) {
    bytes[bytes.size() - 4 + i] = static_cast<unsigned char>(crc.checksum() >> (8 * i));
  }
}

long peak_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

// fuzz_database, crash-48d125ac: the header archive's signature is length-prefixed
// ("22 serialization::archive"), and Boost allocated and filled whatever length a damaged header
// claimed: 2.9 GB of memory for a 160-byte file behind a valid checksum (under ASan, an
// allocation-size-too-big abort). Now refused as a corrupt header before Boost reads it.
TEST(FuzzRegression, DatabaseHeaderWithAHugeSignatureLength) {
  const Bytes found = {
      0x89, 'R',  'D',  'B',  '\r', '\n', 0x1a, '\n', 0x01, 0x00, 0x00, 0x00, 0x74, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x38, 0x00, 0x00, 0x00, '2',  '5',  '5',  '5',  '5',  '5',
      '5',  '5',  '5',  '5',  '5',  '5',  '5',  '5',  '5',  'i',  'a',  'l',  'i',  'z',  'a',
      't',  'i',  'o',  'n',  ':',  ':',  'a',  'r',  'c',  'h',  'i',  'v',  'e',  ' ',  '1',
      '8',  ' ',  '2',  ' ',  '3',  ' ',  '0',  ' ',  '3',  ' ',  '0',  ' ',  '(',  '(',  '(',
      '(',  '(',  '(',  '(',  '(',  '(',  '(',  '(',  '(',  '(',  '(',  '(',  '(',  '(',  '(',
      '(',  '(',  '(',  '(',  '(',  '(',  '(',  '(',  '(',  '(',  '(',  '(',  '(',  '(',  '(',
      '(',  '(',  '(',  '(',  '(',  '(',  '(',  '(',  '(',  '(',  '(',  '(',  '(',  '(',  '(',
      '0',  ' ',  '8',  ' ',  '0',  ' ',  'p',  ' ',  '1',  '6',  ' ',  '3',  '\'', ' ',  '3',
      '2',  '\n', 0x81, 0x02, 0x82, 0x3e, 0xfd, 0x05, 0x81};
  Bytes bytes = found;
  fix_size_and_checksum(bytes);
  EXPECT_NE(decode_error(bytes).find("corrupt header"), std::string::npos);

  // A real database whose signature length alone is changed to 3,000,000,000: refused without
  // touching gigabytes of memory.
  DatabaseHeader header;
  header.width = header.height = 3;
  header.start = 4;
  Database database(header, {{0x0f, 4}}, {{Value::win, 1, 0}});
  const Bytes encoded = encode_database(database);
  const std::string_view encoded_text(reinterpret_cast<const char*>(encoded.data()),
                                      encoded.size());
  const std::size_t signature = encoded_text.find("22 serialization::archive");
  ASSERT_EQ(signature, 24u);
  // (Edited as a string: growing a 24-byte vector trips GCC 12's -Warray-bounds.)
  std::string text(encoded_text);
  const std::string length = "3000000000";
  text.replace(signature, 2, length);
  Bytes damaged(text.begin(), text.end());
  const std::uint32_t header_length = encoded[20] + (encoded[21] << 8) + length.size() - 2;
  for (int i = 0; i < 4; ++i)
    damaged[20 + i] = static_cast<unsigned char>(header_length >> (8 * i));
  fix_size_and_checksum(damaged);
  const long before = peak_rss_kib();
  EXPECT_NE(decode_error(damaged).find("corrupt header"), std::string::npos);
  EXPECT_LT(peak_rss_kib() - before, 256 * 1024) << "KiB of peak memory grew by decoding";
  // The same edit undone decodes again: the test damages only what it means to.
  Bytes repaired = encoded;
  fix_size_and_checksum(repaired);
  EXPECT_EQ(decode_error(repaired), "");
}

}  // namespace
}  // namespace rastros
