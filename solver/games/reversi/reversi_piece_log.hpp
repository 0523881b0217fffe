#pragma once
// The checkpoint of a Reversi split job (reversi_split_job.hpp): every piece solved, appended
// as it finishes, so that a job killed at any moment resumes and searches only the pieces it
// had not finished.
//
// One file, `pieces.log` in the job's directory, little-endian:
//
//   header (20 bytes): magic "RVSPLIT1" | u32 format version | u32 board size N | u32 CRC-32
//                      of the 16 bytes before it
//   records (32 bytes each): u64 mine | u64 theirs (the piece's canonical position from the
//                      side to move's view) | i8 alpha | i8 beta | i8 result | u8 0 |
//                      u64 nodes searched | u32 CRC-32 of the 28 bytes before it
//
// The header is written atomically (temp name, rename), each record by one append and fsync.
// A crash can only cut the last record short or leave it half written: a short tail, or a
// last record whose CRC fails, is dropped (and cut off before the next append); a bad record
// anywhere else means the file was damaged, and it is refused. A record is a fact about a
// position, true whatever root and split depth the job has: the result of a fail-soft search
// of it in (alpha, beta), so the header names only the board.

#include <cstdint>
#include <filesystem>
#include <vector>

#include "games/reversi/reversi_symmetry.hpp"

namespace rastros::reversi {

struct PieceRecord {
  CanonicalKey key;
  int alpha = 0;
  int beta = 0;
  int result = 0;
  std::uint64_t nodes = 0;
};

inline constexpr std::uint32_t kPieceLogVersion = 1;

class PieceLog {
 public:
  /// Opens DIR/pieces.log of an N×N job, creating DIR as needed. Without `resume` the file
  /// must not exist (InputError: a finished or running job is never overwritten by mistake);
  /// with it the records are read (none when there is no file yet). Throws FileError for a
  /// damaged file or one of another board or format.
  PieceLog(const std::filesystem::path& directory, int n, bool resume);
  ~PieceLog();
  PieceLog(const PieceLog&) = delete;
  PieceLog& operator=(const PieceLog&) = delete;

  /// The records read when it was opened, in file order.
  const std::vector<PieceRecord>& records() const { return records_; }
  /// Appends one record and waits until it is on disk (fsync).
  void append(const PieceRecord& record);

  const std::filesystem::path& path() const { return path_; }

 private:
  void create(int n);
  void load(int n);

  std::filesystem::path path_;
  std::vector<PieceRecord> records_;
  int fd_ = -1;
};

/// The name of the log in a job's directory.
inline constexpr const char* kPieceLogName = "pieces.log";

}  // namespace rastros::reversi
