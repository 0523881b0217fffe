#pragma once
// The last few empty squares of an exact Reversi search: no table, no move generation (each
// empty square is tried by computing its flips, which are 0 for an illegal move), squares in
// regions holding an odd number of empties first (parity: the last move of a region is worth
// having), and the very last square scored by counting its flips alone.

#include <cstdint>

#include "games/reversi/reversi_bits.hpp"

namespace rastros::reversi {

/// The four quadrants of a board, for the parity ordering.
struct Quadrants {
  Bits masks[4]{};
  static Quadrants of(const Geometry& g) {
    Quadrants q;
    const int h = g.n / 2;
    for (int row = 0; row < g.n; ++row) {
      for (int column = 0; column < g.n; ++column) {
        q.masks[(row >= h ? 2 : 0) + (column >= h ? 1 : 0)] |= Bits{1} << (8 * row + column);
      }
    }
    return q;
  }
  /// The empty squares that lie in quadrants with an odd number of empties.
  Bits odd(Bits empty) const {
    Bits out = 0;
    for (const Bits mask : masks) {
      if (count(empty & mask) & 1) out |= empty & mask;
    }
    return out;
  }
};

/// The exact final margin for `p` with one empty square left at `square`.
inline int last_one(Bits p, Bits o, int square, const Geometry& g) {
  const int margin = count(p) - count(o);
  if (const int n = count(flips(square, p, o, g))) return margin + 2 * n + 1;
  if (const int n = count(flips(square, o, p, g))) return margin - 2 * n - 1;
  // Neither can move: the empty square goes to the winner.
  return margin > 0 ? margin + 1 : margin < 0 ? margin - 1 : 0;
}

/// Fail-soft alpha-beta for positions with few empties (`empties` of them, >= 1).
inline int search_few(Bits p, Bits o, int alpha, int beta, int empties, const Geometry& g,
                      const Quadrants& quadrants, std::uint64_t& nodes, bool passed = false) {
  ++nodes;
  const Bits empty = g.inside & ~(p | o);
  if (empties == 1) return last_one(p, o, std::countr_zero(empty), g);
  int best = -128;
  const Bits odd = quadrants.odd(empty);
  for (Bits group : {odd, empty & ~odd}) {
    for (; group; group &= group - 1) {
      const int square = std::countr_zero(group);
      const Bits turned = flips(square, p, o, g);
      if (!turned) continue;
      const int score = -search_few(o & ~turned, p | turned | (Bits{1} << square), -beta, -alpha,
                                    empties - 1, g, quadrants, nodes);
      if (score > best) {
        best = score;
        if (score > alpha) {
          alpha = score;
          if (alpha >= beta) return best;
        }
      }
    }
  }
  if (best != -128) return best;
  if (passed) return final_margin(p, o, g);  // neither side can move: the game is over
  return -search_few(o, p, -beta, -alpha, empties, g, quadrants, nodes, true);
}

}  // namespace rastros::reversi
