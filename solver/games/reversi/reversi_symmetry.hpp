#pragma once
// The eight symmetries of the square on an N×N Reversi board (in the top-left corner of the
// 8×8 frame, reversi_bits.hpp), and the canonical form of a position under them: positions
// that are mirror images or rotations of one another have the same value, so a search over
// canonical forms meets each of them once. The start position is kept by four of the eight
// (the two diagonal reflections and the half turn), so its four first moves are one.
//
// Symmetry s (0 to 7) is the composition, applied in this order, of: the transpose (row and
// column swapped) when bit 0 is set, the mirror (column c to N-1-c) when bit 1 is set, the
// flip (row r to N-1-r) when bit 2 is set. Each is a few shifts on the whole mask.

#include <bit>
#include <cstdint>

#include "games/reversi/reversi_bits.hpp"

namespace rastros::reversi {

inline constexpr int kSymmetries = 8;

/// (row, column) to (column, row): the reflection in the a1 diagonal of the 8×8 frame, which
/// keeps a board in its top-left corner there.
constexpr Bits transpose(Bits b) {
  constexpr Bits k1 = 0x5500550055005500ULL;
  constexpr Bits k2 = 0x3333000033330000ULL;
  constexpr Bits k4 = 0x0f0f0f0f00000000ULL;
  Bits t = k4 & (b ^ (b << 28));
  b ^= t ^ (t >> 28);
  t = k2 & (b ^ (b << 14));
  b ^= t ^ (t >> 14);
  t = k1 & (b ^ (b << 7));
  b ^= t ^ (t >> 7);
  return b;
}

/// Column c to N-1-c: each row's byte reversed (c to 7-c), then the board shifted back into
/// the corner (the columns 8-N and up hold it after the reversal).
constexpr Bits mirror(Bits b, int n) {
  b = ((b >> 1) & 0x5555555555555555ULL) | ((b & 0x5555555555555555ULL) << 1);
  b = ((b >> 2) & 0x3333333333333333ULL) | ((b & 0x3333333333333333ULL) << 2);
  b = ((b >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((b & 0x0f0f0f0f0f0f0f0fULL) << 4);
  return b >> (8 - n);
}

/// Row r to N-1-r: the bytes reversed (r to 7-r), then shifted back into the corner.
constexpr Bits flip(Bits b, int n) {
  return __builtin_bswap64(b) >> (8 * (8 - n));
}

constexpr Bits apply_symmetry(Bits b, int symmetry, int n) {
  if (symmetry & 1) b = transpose(b);
  if (symmetry & 2) b = mirror(b, n);
  if (symmetry & 4) b = flip(b, n);
  return b;
}

/// A position from the side to move's view, as the checkpoints and the split job key it.
struct CanonicalKey {
  Bits mine = 0;
  Bits theirs = 0;
  friend bool operator==(const CanonicalKey&, const CanonicalKey&) = default;
  friend auto operator<=>(const CanonicalKey&, const CanonicalKey&) = default;
};

/// The least (mine, theirs) of the position's eight images: the same for every image.
constexpr CanonicalKey canonical_key(Bits mine, Bits theirs, int n) {
  CanonicalKey best{mine, theirs};
  for (int s = 1; s < kSymmetries; ++s) {
    const CanonicalKey image{apply_symmetry(mine, s, n), apply_symmetry(theirs, s, n)};
    if (image < best) best = image;
  }
  return best;
}

struct CanonicalKeyHash {
  std::size_t operator()(const CanonicalKey& key) const {
    std::uint64_t x = key.mine * 0x9e3779b97f4a7c15ULL ^ std::rotl(key.theirs, 29);
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ULL;
    return static_cast<std::size_t>(x ^ (x >> 29));
  }
};

}  // namespace rastros::reversi
