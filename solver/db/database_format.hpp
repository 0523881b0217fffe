#pragma once
// The .rdb format's pieces that read_database (db/database_file.cpp) and the block-at-a-time
// DatabaseReader (db/database_reader.cpp) share: the preamble, the header archive, the block
// index and a block's decoding, each judged before it is trusted. Internal to solver/db; the
// layout itself is described in db/database_file.hpp.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "db/database_file.hpp"

namespace rastros::database_format {

inline constexpr std::size_t kPreambleSize = 24;
inline constexpr std::size_t kChecksumSize = 4;
inline constexpr std::size_t kIndexEntrySize = 24;
/// A header is about 60 bytes; a longer one is refused before it is read.
inline constexpr std::size_t kMaxHeaderBytes = 1024;

enum class Codec : std::uint8_t { raw = 0, zlib = 1 };

/// What the header archive holds: the public header plus how the payload is stored.
struct FileHeader {
  DatabaseHeader database;
  // Format 1: one payload.
  Codec codec = Codec::raw;
  std::uint64_t key_bytes = 0;      // length of the keys column before compression
  std::uint64_t payload_bytes = 0;  // whole payload before compression
  // Both formats: the payload (1) or the blocks end to end (2) as stored.
  std::uint64_t stored_bytes = 0;
  // Format 2.
  std::uint64_t block_positions = 0;
};

/// One entry of the block index, with where its block sits.
struct BlockEntry {
  PackedPosition first_key;
  Codec codec = Codec::raw;
  std::uint32_t key_bytes = 0;
  std::uint32_t stored_bytes = 0;
  std::uint32_t crc = 0;
  std::uint32_t positions = 0;  // implied: block_positions, or fewer in the last block
  std::uint64_t offset = 0;     // in the file
};

/// Where a format 2 file's parts lie, from its header, checked against the file's size.
struct Layout {
  std::uint64_t index_offset = 0;  // = kPreambleSize + header length
  std::uint64_t block_count = 0;
  std::uint64_t blocks_offset = 0;  // after the index and its CRC
};

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& problem);

/// Judges the first bytes of a file of `file_size` bytes (all of it, or at least the first
/// kPreambleSize): not ours, another version, truncated, or longer than it says. Returns the
/// format version.
std::uint32_t check_preamble(const std::filesystem::path& path,
                             std::span<const unsigned char> prefix, std::uint64_t file_size);

/// The header length the preamble gives, refused ("corrupt header") when it could not be a
/// header of a file of `file_size` bytes.
std::uint32_t header_length(const std::filesystem::path& path,
                            std::span<const unsigned char> preamble, std::uint64_t file_size);

/// The header archive of a file of `version`, judged for sense (not yet against the file size).
FileHeader parse_header(const std::filesystem::path& path, std::span<const unsigned char> text,
                        std::uint32_t version);

/// Refuses a header of another kind than `expected` (when given).
void check_kind(const std::filesystem::path& path, const DatabaseHeader& header,
                std::optional<DatabaseKind> expected);

/// A format 2 file's layout: refused ("corrupt header") unless the preamble, the header, the
/// index it implies, the blocks' bytes and the checksums add up to exactly `file_size`.
/// Nothing is allocated before this holds, so a header cannot claim more than the file holds.
Layout layout_of(const std::filesystem::path& path, const FileHeader& header,
                 std::uint32_t header_length, std::uint64_t file_size);

/// The block index (its CRC already checked), each entry judged: codec, sizes within what its
/// positions can take, first keys strictly increasing, stored sizes adding up to the header's.
std::vector<BlockEntry> parse_index(const std::filesystem::path& path, const FileHeader& header,
                                    const Layout& layout, std::span<const unsigned char> index);

/// Block `block` of `entries`: its CRC checked against the index's, inflated, and its keys
/// (which must run from the index's first key to below the next block's) and records decoded
/// into `keys` and `records` (entry.positions of each). `scratch` is reused between calls.
void decode_block(const std::filesystem::path& path, const DatabaseHeader& header,
                  std::span<const BlockEntry> entries, std::size_t block,
                  std::span<const unsigned char> stored, std::vector<unsigned char>& scratch,
                  PackedPosition* keys, DatabaseRecord* records);

/// A database file opened for reading: its descriptor and size. Refuses a missing file and
/// anything that is not a regular file (a FIFO or a device is opened without blocking and
/// refused, never read).
struct OpenFile {
  int fd = -1;
  std::uint64_t size = 0;
  OpenFile() = default;
  explicit OpenFile(const std::filesystem::path& path);
  ~OpenFile();
  OpenFile(OpenFile&& other) noexcept;
  OpenFile& operator=(OpenFile&& other) noexcept;
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;
};

/// Reads exactly `out.size()` bytes at `offset`, refusing a file that ended first ("truncated").
void read_at(const std::filesystem::path& path, int fd, std::uint64_t offset,
             std::span<unsigned char> out);

}  // namespace rastros::database_format
