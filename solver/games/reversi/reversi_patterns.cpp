#include "games/reversi/reversi_patterns.hpp"

#include "games/reversi/reversi_symmetry.hpp"

namespace rastros::reversi::patterns {

namespace {

constexpr Geometry kBoard = Geometry::of(8);

// Per mask of up to 10 bits, the base-3 number with those digits 1: a shape's index is
// base3[mover's bits] + 2 * base3[opponent's bits].
constexpr std::array<int, 1024> base3_table() {
  std::array<int, 1024> table{};
  for (int bits = 0; bits < 1024; ++bits) {
    for (int d = 0; d < 10; ++d) {
      if (bits >> d & 1) table[bits] += power3(d);
    }
  }
  return table;
}
constexpr std::array<int, 1024> kBase3 = base3_table();

// The diagonal of length L ending at h(L) from the top row: squares (r, r + 8 - L). At most
// one of its squares a column, so a multiplication by the column mask gathers them, without
// carries, into the top byte, in column order.
constexpr Bits diagonal_mask(int length) {
  Bits mask = 0;
  for (int r = 0; r < length; ++r) mask |= Bits{1} << (9 * r + 8 - length);
  return mask;
}
template <int Length>
int diagonal(Bits b) {
  return static_cast<int>(((b & diagonal_mask(Length)) * kColumnA) >> (64 - Length));
}

// The shapes' bits of one colour in one image, in the digit order the tests spell out square
// by square: the top row then b2 and g2; a1-e1 then a2-e2; a1-c1, a2-c2, a3-c3; rows 2, 3,
// 4 from column a; the diagonals from their top square.
void shape_bits(Bits b, int* bits) {
  bits[0] = static_cast<int>((b & 0xFF) | ((b >> 9) & 1) << 8 | ((b >> 14) & 1) << 9);
  bits[1] = static_cast<int>((b & 0x1F) | ((b >> 3) & 0x3E0));
  bits[2] = static_cast<int>((b & 7) | ((b >> 5) & 0x38) | ((b >> 10) & 0x1C0));
  bits[3] = static_cast<int>((b >> 8) & 0xFF);
  bits[4] = static_cast<int>((b >> 16) & 0xFF);
  bits[5] = static_cast<int>((b >> 24) & 0xFF);
  bits[6] = diagonal<8>(b);
  bits[7] = diagonal<7>(b);
  bits[8] = diagonal<6>(b);
  bits[9] = diagonal<5>(b);
  bits[10] = diagonal<4>(b);
}

// The eight images in apply_symmetry's numbering, from one transpose, two mirrors, four flips.
void images(Bits b, Bits* out) {
  out[0] = b;
  out[1] = transpose(b);
  out[2] = mirror(b, 8);
  out[3] = mirror(out[1], 8);
  for (int s = 0; s < 4; ++s) out[4 + s] = flip(out[s], 8);
}

}  // namespace

void feature_indices(Bits p, Bits o, int* out) {
  Bits ps[kImages], os[kImages];
  images(p, ps);
  images(o, os);
  for (int image = 0; image < kImages; ++image) {
    int pb[kShapes], ob[kShapes];
    shape_bits(ps[image], pb);
    shape_bits(os[image], ob);
    for (int s = 0; s < kShapes; ++s) {
      *out++ = kShapeOffset[s] + kBase3[pb[s]] + 2 * kBase3[ob[s]];
    }
  }
}

Counts counted_terms(Bits p, Bits o) {
  const Bits empty = ~(p | o);
  return {count(legal_moves(p, o, kBoard)) - count(legal_moves(o, p, kBoard)),
          count(frontier_of(o, empty, kBoard)) - count(frontier_of(p, empty, kBoard))};
}

int evaluate(Bits p, Bits o) {
  int indices[kFeatures];
  feature_indices(p, o, indices);
  int sum = 0;
  for (const int index : indices) sum += kPatternWeightTable[index];
  const Counts counts = counted_terms(p, o);
  return sum + (kPatternCountedWeights[0] * counts.mobility +
                kPatternCountedWeights[1] * counts.potential) / kCountDivisor +
         kPatternCountedWeights[2];
}

}  // namespace rastros::reversi::patterns
