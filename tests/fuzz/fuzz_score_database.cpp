// libFuzzer target: the strong score database loader (engine/score_database_file.hpp) on
// arbitrary bytes. The first input byte picks what the rest is:
//   even  the file image exactly as given (magic, version and checksum all judged);
//   odd   the same with its trailing CRC-32 rewritten to match, so that mutations get past the
//         checksum and reach the names, the count, the key gaps and the scores.
// A file the loader accepts must hold strictly ascending keys, one score a key, survive
// save -> load unchanged, and be answered block by block (ScoreDatabaseReader) exactly as its
// records answer. Any file a reader opens must answer or refuse with FileError, never crash.

#include <unistd.h>

#include <boost/crc.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "engine/score_database_file.hpp"

namespace {

void check(bool condition) {
  if (!condition) std::abort();
}

void fix_checksum(std::vector<unsigned char>& bytes) {
  if (bytes.size() < 4) return;
  boost::crc_32_type crc;
  crc.process_bytes(bytes.data(), bytes.size() - 4);
  const std::uint32_t checksum = crc.checksum();
  for (int i = 0; i < 4; ++i)
    bytes[bytes.size() - 4 + i] = static_cast<unsigned char>(checksum >> (8 * i));
}

std::filesystem::path scratch(const char* name) {
  return std::filesystem::temp_directory_path() /
         ("fuzz_score_database_" + std::to_string(getpid()) + name);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rastros;
  if (size == 0) return 0;
  std::vector<unsigned char> bytes(data + 1, data + size);
  if (data[0] & 1) fix_checksum(bytes);
  const auto path = scratch(".rsdb");
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
  }
  try {  // the reader alone, on keys taken from the input
    const engine::ScoreDatabaseReader reader(path, "reversi", "4x4");
    for (std::size_t i = 0; i + 8 <= bytes.size() && i < 64; i += 8) {
      std::uint64_t key = 0;
      for (int b = 0; b < 8; ++b) key |= std::uint64_t{bytes[i + b]} << (8 * b);
      (void)reader.find(key);
    }
  } catch (const FileError&) {
  }
  try {
    const engine::ScoreDatabaseFile file = engine::load_score_database(path, "reversi", "4x4");
    const engine::ScoreRecords& records = file.records;
    check(records.keys.size() == records.scores.size());
    for (std::size_t i = 1; i < records.keys.size(); ++i)
      check(records.keys[i - 1] < records.keys[i]);
    for (std::size_t i = 0; i < records.keys.size(); ++i) {
      check(records.find(records.keys[i]) == records.scores[i]);
    }
    const engine::ScoreDatabaseReader reader(path, "reversi", "4x4");
    check(reader.size() == records.keys.size());
    for (std::size_t i = 0; i < records.keys.size(); ++i) {
      check(reader.find(records.keys[i]) == records.scores[i]);
      if (records.keys[i] < UINT64_MAX)
        check(reader.find(records.keys[i] + 1) == records.find(records.keys[i] + 1));
    }
    const auto again_path = scratch("-again.rsdb");
    engine::save_score_database(again_path, file, 1 + data[0] % 16);
    const engine::ScoreDatabaseFile again =
        engine::load_score_database(again_path, "reversi", "4x4");
    check(again.records.keys == records.keys && again.records.scores == records.scores);
    std::filesystem::remove(again_path);
  } catch (const FileError&) {
  }
  std::filesystem::remove(path);
  return 0;
}
