#pragma once
// The frame of the binary files that checkpoints keep beside their text state file (the layers
// of a strong solve, the plies of a strategy or proof walk), little-endian:
//
//   magic word (8 bytes) | u32 format version | body | u32 CRC-32 of every byte before it
//
// written atomically (core/atomic_file.hpp) and read back whole, so that a damaged, cut short
// or foreign file is refused with a FileError naming it instead of being resumed from.

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/atomic_file.hpp"
#include "core/errors.hpp"

namespace rastros {

void put_le(std::vector<unsigned char>& out, std::uint64_t value, int bytes);
std::uint64_t get_le(std::span<const unsigned char> in, std::size_t at, int bytes);

/// The first bytes of a file: `magic` (8 characters) and `version`. The body follows.
std::vector<unsigned char> begin_binary_file(std::string_view magic, std::uint32_t version);

/// Appends the CRC-32 and writes the file atomically; `what` names it in errors.
void finish_binary_file(const std::filesystem::path& path, std::vector<unsigned char> bytes,
                        std::string_view what);

/// The same file written piece by piece, for bodies too large to copy into one buffer: the
/// CRC-32 summed as the pieces go, the file under its final name only after commit() (as
/// AtomicFileWriter, whose errors it throws).
class BinaryFileWriter {
 public:
  BinaryFileWriter(const std::filesystem::path& path, std::string_view magic,
                   std::uint32_t version, std::string_view what);
  void write(std::span<const unsigned char> bytes);
  void commit();

 private:
  AtomicFileWriter file_;
  std::uint32_t crc_ = 0;
};

/// The error for a problem with such a file: FileError "WHAT PATH: PROBLEM".
FileError binary_file_error(std::string_view what, const std::filesystem::path& path,
                            const std::string& problem);

/// Reads a file written so and returns it without its CRC-32 (magic and version included: the
/// body starts at kBinaryHeaderBytes). Throws FileError "WHAT PATH: PROBLEM" when it is
/// missing, unreadable, corrupt, of another magic word or of another version.
inline constexpr std::size_t kBinaryHeaderBytes = 12;
std::vector<unsigned char> read_binary_file(const std::filesystem::path& path,
                                            std::string_view magic, std::uint32_t version,
                                            std::string_view what);

/// As read_binary_file for a reader of several format versions: accepts `oldest` to `newest`
/// and says which one the file is.
struct VersionedBinaryFile {
  std::vector<unsigned char> bytes;  // without the CRC-32, as read_binary_file returns them
  std::uint32_t version = 0;
};
VersionedBinaryFile read_binary_file(const std::filesystem::path& path, std::string_view magic,
                                     std::uint32_t oldest, std::uint32_t newest,
                                     std::string_view what);

}  // namespace rastros
