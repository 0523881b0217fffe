#include "core/crc32.hpp"

#include <zlib.h>

#include <algorithm>

namespace rastros {

std::uint32_t crc32_of(std::span<const unsigned char> bytes) {
  return crc32_update(0, bytes);
}

std::uint32_t crc32_update(std::uint32_t crc_so_far, std::span<const unsigned char> bytes) {
  uLong crc = crc_so_far;
  // zlib takes 32-bit lengths: feed tables of gigabytes in pieces.
  constexpr std::size_t kPiece = std::size_t{1} << 30;
  for (std::size_t offset = 0; offset < bytes.size(); offset += kPiece) {
    const std::size_t length = std::min(kPiece, bytes.size() - offset);
    crc = crc32(crc, bytes.data() + offset, static_cast<uInt>(length));
  }
  return static_cast<std::uint32_t>(crc);
}

}  // namespace rastros
