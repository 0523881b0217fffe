#pragma once
// Reversi bitboards: one 64-bit mask a colour, square (row, column) at bit 8*row + column with
// row 0 the top (a1 is bit 0, h8 bit 63). A smaller N×N board sits in the top-left corner of
// the 8×8 frame: `inside` masks its squares, so one shift-based generator serves every size
// and no loop over squares runs on the search's hot path.
//
// A shift by a direction moves every disc one step; the mask of that direction clears what
// fell off the board (the squares a step could only reach by wrapping around a row end, and
// the squares outside an N×N board).

#include <bit>
#include <cstdint>

namespace rastros::reversi {

using Bits = std::uint64_t;

inline constexpr Bits kColumnA = 0x0101010101010101ULL;
inline constexpr Bits kColumnH = 0x8080808080808080ULL;

/// The squares of an N×N board in the 8×8 frame.
constexpr Bits inside_mask(int n) {
  Bits mask = 0;
  for (int row = 0; row < n; ++row) mask |= ((Bits{1} << n) - 1) << (8 * row);
  return mask;
}

/// The geometry of one board size: per direction, the squares a one-step shift may land on.
struct Geometry {
  int n = 8;
  Bits inside = ~Bits{0};
  // Directions: +1 (east), -1 (west), +8 (south), -8 (north), +9, -9, +7, -7.
  Bits land[8]{};

  static constexpr Geometry of(int n) {
    Geometry g;
    g.n = n;
    g.inside = inside_mask(n);
    const Bits not_a = g.inside & ~kColumnA;  // a step east never lands on column a
    const Bits not_h = g.inside & ~kColumnH;  // a step west never lands on column h
    g.land[0] = not_a;
    g.land[1] = not_h;
    g.land[2] = g.inside;
    g.land[3] = g.inside;
    g.land[4] = not_a;
    g.land[5] = not_h;
    g.land[6] = not_h;
    g.land[7] = not_a;
    return g;
  }
};

inline constexpr int kShift[8] = {1, -1, 8, -8, 9, -9, 7, -7};

template <int Dir>
constexpr Bits step(Bits b) {
  constexpr int s = kShift[Dir];
  if constexpr (s > 0) {
    return b << s;
  } else {
    return b >> -s;
  }
}

// Kogge-Stone style fill in one direction: the run of `o` discs that starts next to a disc of
// `p` and continues in direction Dir (at most 6 long), then one more step onto the empty
// squares that would outflank it.
template <int Dir>
constexpr Bits moves_in(Bits p, Bits o, Bits empty, const Geometry& g) {
  const Bits om = o & g.land[Dir];
  Bits x = step<Dir>(p) & om;
  const Bits pre = om & step<Dir>(om);
  x |= om & step<Dir>(x);
  x |= pre & step<Dir>(step<Dir>(x));
  x |= pre & step<Dir>(step<Dir>(x));
  return step<Dir>(x) & empty & g.land[Dir];
}

/// Every square where the side with discs `p` may move, against `o`.
constexpr Bits legal_moves(Bits p, Bits o, const Geometry& g) {
  const Bits empty = g.inside & ~(p | o);
  return moves_in<0>(p, o, empty, g) | moves_in<1>(p, o, empty, g) |
         moves_in<2>(p, o, empty, g) | moves_in<3>(p, o, empty, g) |
         moves_in<4>(p, o, empty, g) | moves_in<5>(p, o, empty, g) |
         moves_in<6>(p, o, empty, g) | moves_in<7>(p, o, empty, g);
}

// The discs of `o` a disc of `p` put at `move` turns in direction Dir: the run of `o` from
// the square on, kept only when a disc of `p` closes it.
template <int Dir>
constexpr Bits flips_in(Bits move, Bits p, Bits o, const Geometry& g) {
  const Bits om = o & g.land[Dir];
  Bits x = step<Dir>(move) & om;
  x |= step<Dir>(x) & om;
  x |= step<Dir>(x) & om;
  x |= step<Dir>(x) & om;
  x |= step<Dir>(x) & om;
  x |= step<Dir>(x) & om;
  return (step<Dir>(x) & p & g.land[Dir]) ? x : 0;
}

/// The discs a move at the empty `square` turns (0: the move is illegal).
constexpr Bits flips(int square, Bits p, Bits o, const Geometry& g) {
  const Bits move = Bits{1} << square;
  return flips_in<0>(move, p, o, g) | flips_in<1>(move, p, o, g) | flips_in<2>(move, p, o, g) |
         flips_in<3>(move, p, o, g) | flips_in<4>(move, p, o, g) | flips_in<5>(move, p, o, g) |
         flips_in<6>(move, p, o, g) | flips_in<7>(move, p, o, g);
}

inline int count(Bits b) { return std::popcount(b); }

/// The final margin for `p` of a finished game (World Othello Federation rule: the empty
/// squares go to the winner).
inline int final_margin(Bits p, Bits o, const Geometry& g) {
  const int mine = count(p), theirs = count(o);
  const int empties = count(g.inside) - mine - theirs;
  if (mine > theirs) return mine - theirs + empties;
  if (mine < theirs) return mine - theirs - empties;
  return 0;
}

}  // namespace rastros::reversi
