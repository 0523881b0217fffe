#pragma once
// The last few empty squares of an exact Reversi search: no table, no move generation (each
// empty square is tried by computing its flips, which are 0 for an illegal move), squares in
// regions holding an odd number of empties first (parity: the last move of a region is worth
// having), and the very last square scored by counting its flips alone.

#include <algorithm>
#include <bit>
#include <cstdint>

#include "games/reversi/reversi_bits.hpp"

namespace rastros::reversi {

/// The four quadrants of a board, for the parity ordering.
struct Quadrants {
  Bits masks[4]{};
  // Within a parity class, corners first and the squares next to a corner (X and C) last:
  // they tend to give the opponent the corner, so they rarely cut off.
  Bits corners = 0;
  Bits next_to_corners = 0;
  static Quadrants of(const Geometry& g) {
    Quadrants q;
    const int h = g.n / 2, m = g.n - 1;
    for (int row = 0; row < g.n; ++row) {
      for (int column = 0; column < g.n; ++column) {
        const Bits bit = Bits{1} << (8 * row + column);
        q.masks[(row >= h ? 2 : 0) + (column >= h ? 1 : 0)] |= bit;
        const int dr = std::min(row, m - row), dc = std::min(column, m - column);
        if (dr == 0 && dc == 0) q.corners |= bit;
        else if (dr <= 1 && dc <= 1) q.next_to_corners |= bit;
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

/// The exact final margin for `p` with one empty square left at `square`: the flips counted,
/// no position made.
inline int last_one(Bits p, Bits o, int square, const Geometry& g) {
  const int margin = 2 * count(p) - g.n * g.n + 1;  // count(p) - count(o), o = the rest but one
  if (const int n = count(flips(square, p, o, g))) return margin + 2 * n + 1;
  if (const int n = count(flips(square, o, p, g))) return margin - 2 * n - 1;
  // Neither can move: the empty square goes to the winner.
  return margin > 0 ? margin + 1 : margin < 0 ? margin - 1 : 0;
}

/// The exact final margin for `p` with two empty squares left, `a` and `b`: both orders tried
/// directly (no move list, no loop), the last square scored by last_one. Fail-soft.
inline int last_two(Bits p, Bits o, int alpha, int beta, int a, int b, const Geometry& g,
                    std::uint64_t& nodes) {
  ++nodes;
  int best = -128;
  if (const Bits turned = flips(a, p, o, g)) {
    ++nodes;
    best = -last_one(o & ~turned, p | turned | Bits{1} << a, b, g);
    if (best >= beta) return best;
  }
  if (const Bits turned = flips(b, p, o, g)) {
    ++nodes;
    best = std::max(best, -last_one(o & ~turned, p | turned | Bits{1} << b, a, g));
  }
  if (best != -128) return best;
  // `p` passes: the opponent moves, then `p` has the last square (or passes again).
  ++nodes;
  int worst = 128;
  if (const Bits turned = flips(a, o, p, g)) {
    ++nodes;
    worst = last_one(p & ~turned, o | turned | Bits{1} << a, b, g);
    if (worst <= alpha) return worst;
  }
  if (const Bits turned = flips(b, o, p, g)) {
    ++nodes;
    worst = std::min(worst, last_one(p & ~turned, o | turned | Bits{1} << b, a, g));
  }
  return worst != 128 ? worst : final_margin(p, o, g);  // neither can move: the game is over
}

/// Fail-soft alpha-beta for positions with few empties (`empties` of them).
inline int search_few(Bits p, Bits o, int alpha, int beta, int empties, const Geometry& g,
                      const Quadrants& quadrants, std::uint64_t& nodes, bool passed = false) {
  const Bits empty = g.inside & ~(p | o);
  if (empties == 2) {
    const int a = std::countr_zero(empty);
    return last_two(p, o, alpha, beta, a, std::countr_zero(empty & (empty - 1)), g, nodes);
  }
  if (empties == 1) {
    ++nodes;
    return last_one(p, o, std::countr_zero(empty), g);
  }
  ++nodes;
  int best = -128;
  const Bits odd = quadrants.odd(empty);
  const Bits even = empty & ~odd, corners = quadrants.corners, bad = quadrants.next_to_corners;
  for (Bits group : {odd & corners, odd & ~corners & ~bad, odd & bad, even & corners,
                     even & ~corners & ~bad, even & bad}) {
    for (; group; group &= group - 1) {
      const int square = std::countr_zero(group);
      if (!(g.rays->neighbours[square] & o)) continue;  // no disc of `o` to turn
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
