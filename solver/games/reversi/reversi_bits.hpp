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

/// Per square and direction (the order of kShift below), the squares of an N×N board a ray
/// from that square crosses up to the edge, the square itself left out: the flips of a move
/// are read off these rays with one bit scan a direction instead of a walk square by square.
struct Rays {
  Bits ray[64][8]{};
  /// Per square, its neighbours: a move there is legal only if one of them is the opponent's.
  Bits neighbours[64]{};

  static constexpr Rays of(int n) {
    constexpr int dr[8] = {0, 0, 1, -1, 1, -1, 1, -1};
    constexpr int dc[8] = {1, -1, 0, 0, 1, -1, -1, 1};
    Rays r;
    for (int row = 0; row < n; ++row) {
      for (int column = 0; column < n; ++column) {
        for (int d = 0; d < 8; ++d) {
          Bits line = 0;
          for (int y = row + dr[d], x = column + dc[d]; y >= 0 && y < n && x >= 0 && x < n;
               y += dr[d], x += dc[d]) {
            line |= Bits{1} << (8 * y + x);
          }
          r.ray[8 * row + column][d] = line;
          const int y = row + dr[d], x = column + dc[d];
          if (y >= 0 && y < n && x >= 0 && x < n) r.neighbours[8 * row + column] |= Bits{1} << (8 * y + x);
        }
      }
    }
    return r;
  }
};

inline constexpr Rays kRays4 = Rays::of(4);
inline constexpr Rays kRays6 = Rays::of(6);
inline constexpr Rays kRays8 = Rays::of(8);

/// The geometry of one board size: per direction, the squares a one-step shift may land on.
struct Geometry {
  int n = 8;
  Bits inside = ~Bits{0};
  // Directions: +1 (east), -1 (west), +8 (south), -8 (north), +9, -9, +7, -7.
  Bits land[8]{};
  const Rays* rays = &kRays8;

  static constexpr Geometry of(int n) {
    Geometry g;
    g.n = n;
    g.inside = inside_mask(n);
    g.rays = n == 4 ? &kRays4 : n == 6 ? &kRays6 : &kRays8;
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

// The discs of `o` a disc of `p` put at the start of `ray` turns along it: the run of `o` up
// to the first square that is not `o`, kept when that square is `p`. Rays of the directions
// +1, +8, +9, +7 climb the bits (the first square is the lowest set), the others descend
// (the highest set).
inline Bits flips_up(Bits ray, Bits p, Bits o) {
  const Bits stop = ray & ~o;
  const Bits first = stop & (~stop + 1);  // 0 when the ray is all `o`
  const Bits run = (first - 1) & ray;
  return (first & p) ? run : 0;
}
inline Bits flips_down(Bits ray, Bits p, Bits o) {
  const Bits first = std::bit_floor(ray & ~o);  // 0 when the ray is all `o`
  const Bits run = ray & ~(first | (first - 1));
  return (first & p) ? run : 0;
}

/// The discs a move at the empty `square` turns (0: the move is illegal).
inline Bits flips(int square, Bits p, Bits o, const Geometry& g) {
  const Bits(&ray)[8] = g.rays->ray[square];
  return flips_up(ray[0], p, o) | flips_down(ray[1], p, o) | flips_up(ray[2], p, o) |
         flips_down(ray[3], p, o) | flips_up(ray[4], p, o) | flips_down(ray[5], p, o) |
         flips_up(ray[6], p, o) | flips_down(ray[7], p, o);
}

/// The `empty` squares next to a disc of `o`: where its opponent might one day move (the
/// potential mobility of fastest-first ordering).
constexpr Bits frontier_of(Bits o, Bits empty, const Geometry& g) {
  const Bits around = (step<0>(o) & g.land[0]) | (step<1>(o) & g.land[1]) |
                      (step<2>(o) & g.land[2]) | (step<3>(o) & g.land[3]) |
                      (step<4>(o) & g.land[4]) | (step<5>(o) & g.land[5]) |
                      (step<6>(o) & g.land[6]) | (step<7>(o) & g.land[7]);
  return around & empty;
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
