#pragma once
// A database file opened for lookups, read a block at a time (what `rastros query`, `play --db`
// and `serve --db` answer from).
//
// Opening reads the preamble, the header and the block index only (a few hundred KB for the
// largest shipped file), each checked: the sizes the header claims against the file's real size
// before anything is allocated for them, the index against its own CRC. A lookup then reads
// (pread) and inflates the one block whose key range holds the key, checks the block's CRC
// before trusting a byte of it, and keeps the decoded block in a cache shared by the whole
// process, least recently used dropped first, so a fresh process answers its first query in a
// few milliseconds whatever the file's size and later queries touching the same blocks cost a
// binary search. The whole-file CRC is left to read_database (`verify`, `stats`), which reads
// every byte anyway.
//
// A format 1 file has no index: it is read whole, checked by its whole-file CRC, and answered
// from memory.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>

#include "db/database_file.hpp"

namespace rastros {

struct DatabaseReaderOptions {
  /// Decoded blocks kept in memory, in bytes (at least one block is always kept).
  std::size_t cache_bytes = std::size_t{256} << 20;
};

class DatabaseReader {
 public:
  /// Opens `path`. Throws FileError as read_database does for a file that is missing, not a
  /// regular file (a FIFO or a device is refused without being read or waited on), not ours,
  /// of another version, truncated, longer than it says, of another kind than `expected_kind`,
  /// or whose header or index is corrupt.
  explicit DatabaseReader(const std::filesystem::path& path,
                          std::optional<DatabaseKind> expected_kind = std::nullopt,
                          DatabaseReaderOptions options = {});
  /// Answers from a database already in memory.
  explicit DatabaseReader(Database database);
  ~DatabaseReader();
  DatabaseReader(DatabaseReader&&) noexcept;
  DatabaseReader& operator=(DatabaseReader&&) noexcept;

  const DatabaseHeader& header() const;
  /// Positions in the database.
  std::uint64_t size() const;

  /// The record of `key`, or nothing when the database does not hold it. Throws FileError when
  /// the block that would hold it is damaged (its CRC or contents), or the file cannot be read.
  /// Thread-safe.
  std::optional<DatabaseRecord> find(const PackedPosition& key) const;

  /// False when the whole database is in memory (format 1, or given as a Database).
  bool reads_blocks() const;
  /// Blocks in the file (0 when the whole database is in memory).
  std::size_t block_count() const;
  /// Each block's first key, from the index (empty when the whole database is in memory).
  std::span<const PackedPosition> block_first_keys() const;
  /// Blocks read and decoded from the file so far (a block read again after it left the cache
  /// counts again).
  std::uint64_t blocks_read() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rastros
