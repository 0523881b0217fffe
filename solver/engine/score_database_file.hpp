#pragma once
// A strong database of a score game on disk (core/binary_file.hpp frame, little-endian):
//
//   "RSCOREDB" | u32 version | game name and variant (u8 length + bytes each) | u64 count |
//   keys as LEB128 gaps from the previous key (the first from 0) | one signed byte a score |
//   u32 CRC-32
//
// written to a temporary name and renamed. The sorted keys' gaps are small, so a position
// costs about one byte of key and one of score.

#include <cstddef>
#include <filesystem>
#include <string>

#include "engine/score_database.hpp"

namespace rastros::engine {

struct ScoreDatabaseFile {
  std::string game;     // "reversi"
  std::string variant;  // "4x4"
  ScoreRecords records;
};

void save_score_database(const std::filesystem::path& path, const ScoreDatabaseFile& file);

/// The bytes the records take in the file (key gaps and scores, without header and CRC).
std::size_t encoded_record_bytes(const ScoreRecords& records);

/// Reads a file written by save_score_database. Throws FileError when it is missing, damaged,
/// not such a database, or of another game or variant than `game` / `variant` ("... is a
/// database of kalah 4x4, not reversi 4x4").
ScoreDatabaseFile load_score_database(const std::filesystem::path& path, const std::string& game,
                                      const std::string& variant);

}  // namespace rastros::engine
