#pragma once
// A file's payload checked in chunks: one CRC-32 for each 64 KiB, written in a table after the
// payload, so that a reader that needs a few bytes (a query's probes) reads and checks the
// chunks they fall in instead of the whole file. The endgame databases of Kalah and Oware
// keep one (format 2 of their files).

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rastros {

inline constexpr std::uint64_t kChunkBytes = std::uint64_t{1} << 16;

/// The number of chunks of a payload of `bytes` (the last one may be shorter).
inline std::uint64_t chunk_count(std::uint64_t bytes) {
  return (bytes + kChunkBytes - 1) / kChunkBytes;
}

/// The table of a payload given piece by piece, as it is written.
class ChunkCrcs {
 public:
  void add(std::span<const unsigned char> bytes);
  /// The CRC-32 of each chunk, the last one included.
  std::vector<std::uint32_t> finish();

 private:
  std::vector<std::uint32_t> crcs_;
  std::uint32_t crc_ = 0;
  std::uint64_t filled_ = 0;  // bytes in the chunk being summed
};

/// The table as bytes (u32 little-endian each) followed by their own CRC-32.
std::vector<unsigned char> encode_chunk_table(const std::vector<std::uint32_t>& crcs);
/// Bytes of the encoded table of a payload of `payload_bytes`.
inline std::uint64_t chunk_table_bytes(std::uint64_t payload_bytes) {
  return 4 * chunk_count(payload_bytes) + 4;
}
/// The table read back; nothing when its own CRC-32 does not match.
std::optional<std::vector<std::uint32_t>> decode_chunk_table(std::span<const unsigned char> bytes);

/// The bytes of a payload read chunk by chunk, each checked on its first read and kept.
/// Thread-safe. `read(offset, length)` reads the file; errors name `path`.
class ChunkedPayload {
 public:
  using ReadAt = std::function<std::string(std::uint64_t offset, std::uint64_t length)>;
  ChunkedPayload(ReadAt read, std::uint64_t payload_offset, std::uint64_t payload_bytes,
                 std::vector<std::uint32_t> crcs, std::filesystem::path path);

  /// The payload's byte at `offset`. Throws FileError "PATH: chunk N checksum mismatch
  /// (damaged)" when its chunk does not match its CRC, and for an offset beyond the payload.
  unsigned char at(std::uint64_t offset) const;
  std::size_t chunks_read() const;
  const std::filesystem::path& path() const { return path_; }

 private:
  ReadAt read_;
  std::uint64_t payload_offset_, payload_bytes_;
  std::vector<std::uint32_t> crcs_;
  std::filesystem::path path_;
  mutable std::mutex mutex_;
  mutable std::unordered_map<std::uint64_t, std::string> chunks_;
  mutable std::size_t chunks_read_ = 0;
};

class RegularFile;

/// Levels of one byte a state (an endgame database by seeds) stored one after the other in
/// `file` from level_offsets[0] to level_offsets.back() (file offsets; level s runs from
/// level_offsets[s]), followed by their chunk table (encode_chunk_table). Opening reads and
/// checks the table; each byte is read through its chunk. `file` must outlive this.
class ChunkedLevels {
 public:
  /// Throws FileError through `file` when the table's own CRC-32 does not match.
  ChunkedLevels(const RegularFile& file, std::vector<std::uint64_t> level_offsets);

  /// The byte of rank `rank` in level `seeds`, as stored (the caller checks its range).
  std::int8_t at(int seeds, std::uint64_t rank) const {
    return static_cast<std::int8_t>(payload_.at(level_offsets_[seeds] - level_offsets_[0] + rank));
  }
  std::size_t chunks_read() const { return payload_.chunks_read(); }

 private:
  std::vector<std::uint64_t> level_offsets_;
  ChunkedPayload payload_;
};

}  // namespace rastros
