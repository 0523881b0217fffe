#pragma once
// CRC-32 (the zlib/PNG polynomial), the checksum of every file the tools write: databases,
// checkpoints, saved tables. One implementation, zlib's, so that every file agrees on it.

#include <cstdint>
#include <span>
#include <string_view>

namespace rastros {

std::uint32_t crc32_of(std::span<const unsigned char> bytes);
/// The CRC-32 of the bytes so far (`crc`, 0 for none) followed by `bytes`: a file's checksum
/// computed piece by piece as it is written or read.
std::uint32_t crc32_update(std::uint32_t crc, std::span<const unsigned char> bytes);

inline std::uint32_t crc32_of(std::string_view text) {
  return crc32_of(std::span(reinterpret_cast<const unsigned char*>(text.data()), text.size()));
}

}  // namespace rastros
