#pragma once
// A strong database of a score game on disk (core/binary_file.hpp frame, little-endian).
// Format 2, written by save_score_database:
//
//   "RSCOREDB" | u32 version 2 | game name and variant (u8 length + bytes each) | u64 count |
//   u32 records a block | u64 blocks |
//   the block index: per block u64 first key | u32 bytes | u32 CRC-32 of the block |
//   u32 CRC-32 of every byte before it (the header's checksum) |
//   the blocks, one after the other: the keys after the first as LEB128 gaps from the one
//   before, then one signed byte a score |
//   u32 CRC-32 of every byte before it
//
// written to a temporary name and renamed. The sorted keys' gaps are small, so a position
// costs about one byte of key and one of score; the index adds 16 bytes a block of 4,096.
// A query opens the file, reads the header and the index (checked by their CRC) and then only
// the blocks the keys it asks for fall in (each checked by its own CRC), so a fresh process
// answers in milliseconds whatever the file's size; verify and stats read and check it all.
// Format 1 (the keys' gaps and the scores of the whole file in one run, no index) is still
// read, whole.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/regular_file.hpp"
#include "engine/score_database.hpp"

namespace rastros::engine {

struct ScoreDatabaseFile {
  std::string game;     // "reversi"
  std::string variant;  // "4x4"
  ScoreRecords records;
};

/// Records a block unless told otherwise: about 8 KB of file a block.
inline constexpr std::uint32_t kScoreBlockRecords = 4096;

void save_score_database(const std::filesystem::path& path, const ScoreDatabaseFile& file,
                         std::uint32_t block_records = kScoreBlockRecords);

/// The bytes the records take in the file (the index and the blocks, without the names and
/// the checksums of the header and the file).
std::size_t encoded_record_bytes(const ScoreRecords& records,
                                 std::uint32_t block_records = kScoreBlockRecords);

/// Reads and checks the whole of a file written by save_score_database (either format).
/// Throws FileError when it is missing, damaged, not such a database, or of another game or
/// variant than `game` / `variant` ("... is a database of kalah 4x4, not reversi 4x4").
ScoreDatabaseFile load_score_database(const std::filesystem::path& path, const std::string& game,
                                      const std::string& variant);

/// A database file answered block by block: opening it reads the header and the index only;
/// find() reads, checks and keeps the block a key falls in. Thread-safe. A format 1 file is
/// read whole on opening.
class ScoreDatabaseReader final : public ScoreLookup {
 public:
  /// Throws FileError as load_score_database does for what the header and index show.
  ScoreDatabaseReader(const std::filesystem::path& path, const std::string& game,
                      const std::string& variant);
  ~ScoreDatabaseReader() override;

  /// The key's score, or nothing when the file does not hold it. Throws FileError when the
  /// block it falls in is damaged.
  std::optional<int> find(std::uint64_t key) const override;

  std::uint64_t size() const { return count_; }
  /// Blocks read from the file so far (a format 1 file: 0).
  std::size_t blocks_read() const;

 private:
  struct Block;
  const Block& block(std::size_t index) const;

  RegularFile file_;  // read at any offset from any thread
  std::uint64_t count_ = 0;
  std::uint32_t block_records_ = 0;
  std::vector<std::uint64_t> first_keys_;
  std::vector<std::uint64_t> offsets_;  // of each block in the file, and the end of the last
  std::vector<std::uint32_t> crcs_;
  ScoreRecords whole_;  // a format 1 file

  mutable std::mutex mutex_;
  mutable std::unordered_map<std::size_t, std::unique_ptr<Block>> blocks_;
  mutable std::size_t blocks_read_ = 0;
  mutable std::uint64_t records_kept_ = 0;
};

}  // namespace rastros::engine
