#pragma once
// A pattern evaluation of 8×8 Reversi positions (the Logistello / Edax kind), only to order
// moves far from the end in the exact solver: the board is read in its eight symmetric images,
// and in each image eleven shapes (an edge with its two X-squares, a corner's 2×5 and 3×3
// blocks, the second to fourth rows, the diagonals of length 8 down to 4) give each a base-3
// index (0 empty, 1 the mover's, 2 the opponent's) into one weight table a shape. Reading
// every shape in all eight images makes the value the same for every image of a position.
// Two counted terms (mobility, potential mobility) and a constant complete it. The weights are
// fitted to exact final margins by reversi_training.hpp and compiled in from
// reversi_pattern_weights.cpp, in 1/kPatternScale of a disc.

#include <array>
#include <cstdint>

#include "games/reversi/reversi_bits.hpp"

namespace rastros::reversi::patterns {

inline constexpr int kShapes = 11;
inline constexpr int kImages = 8;
/// The indices a position gives: one a shape and image.
inline constexpr int kFeatures = kShapes * kImages;
/// Squares a shape covers: edge + 2X, corner 2×5, corner 3×3, rows 2-4, diagonals 8-4.
inline constexpr std::array<int, kShapes> kShapeSquares = {10, 10, 9, 8, 8, 8, 8, 7, 6, 5, 4};

constexpr int power3(int k) { return k == 0 ? 1 : 3 * power3(k - 1); }

/// Where each shape's table starts in the one array of weights.
constexpr std::array<int, kShapes + 1> shape_offsets() {
  std::array<int, kShapes + 1> offsets{};
  for (int s = 0; s < kShapes; ++s) offsets[s + 1] = offsets[s] + power3(kShapeSquares[s]);
  return offsets;
}
inline constexpr std::array<int, kShapes + 1> kShapeOffset = shape_offsets();
inline constexpr int kPatternWeights = kShapeOffset[kShapes];

/// The counted terms: mobility difference, potential mobility difference (each divided by
/// kCountDivisor, which keeps their gradient steps like a pattern's), a constant.
inline constexpr int kCountedTerms = 3;
inline constexpr int kCountDivisor = 8;
/// Weights are in 1/kPatternScale of a disc.
inline constexpr int kPatternScale = 64;

/// The kFeatures indices (into the one weight array, offsets added) of the position with
/// `p` to move against `o` on the 8×8 board.
void feature_indices(Bits p, Bits o, int* out);

/// The counted terms' raw values: mobility difference, potential mobility difference.
struct Counts {
  int mobility = 0;
  int potential = 0;
};
Counts counted_terms(Bits p, Bits o);

/// The estimated final margin for `p` to move, in 1/kPatternScale of a disc, with the
/// compiled-in weights.
int evaluate(Bits p, Bits o);

}  // namespace rastros::reversi::patterns

namespace rastros::reversi {
// The fitted weights, generated into reversi_pattern_weights.cpp by rastros_reversi_train.
extern const std::int16_t kPatternWeightTable[patterns::kPatternWeights];
extern const std::int16_t kPatternCountedWeights[patterns::kCountedTerms];
}  // namespace rastros::reversi
