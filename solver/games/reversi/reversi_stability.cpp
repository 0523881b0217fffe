#include "games/reversi/reversi_stability.hpp"

namespace rastros::reversi {

namespace {

// Axis a (0: east-west, 1: north-south, 2: the +9 diagonal, 3: the +7 diagonal) is the
// direction pair (2a, 2a+1) of reversi_bits.hpp.
Bits line_through(int row, int column, int dr, int dc, int n) {
  Bits line = 0;
  while (row - dr >= 0 && row - dr < n && column - dc >= 0 && column - dc < n) {
    row -= dr;
    column -= dc;
  }
  for (; row >= 0 && row < n && column >= 0 && column < n; row += dr, column += dc) {
    line |= Bits{1} << (8 * row + column);
  }
  return line;
}

}  // namespace

Stability::Stability(const Geometry& g) : g_(g) {
  const int n = g.n;
  const int dr[4] = {0, 1, 1, 1}, dc[4] = {1, 0, 1, -1};
  for (int axis = 0; axis < 4; ++axis) {
    for (int row = 0; row < n; ++row) {
      for (int column = 0; column < n; ++column) {
        const bool walled = row - dr[axis] < 0 || row + dr[axis] >= n || column - dc[axis] < 0 ||
                            column + dc[axis] >= n || column + dc[axis] < 0 ||
                            column - dc[axis] >= n;
        if (walled) edge_[axis] |= Bits{1} << (8 * row + column);
        const Bits line = line_through(row, column, dr[axis], dc[axis], n);
        bool known = false;
        for (const Bits l : lines_[axis]) known = known || l == line;
        if (!known && (line & (line - 1))) lines_[axis].push_back(line);
      }
    }
  }
}

Bits Stability::stable(Bits mine, Bits theirs) const {
  const Bits occupied = mine | theirs;
  Bits covered[4];
  for (int axis = 0; axis < 4; ++axis) {
    covered[axis] = edge_[axis];
    for (const Bits line : lines_[axis]) {
      if ((occupied & line) == line) covered[axis] |= line;
    }
  }
  const Bits corners = mine & covered[0] & covered[1] & covered[2] & covered[3];
  Bits stable = corners;
  for (Bits before = ~stable; before != stable;) {
    before = stable;
    const Bits h = covered[0] | step<0>(stable & g_.land[1]) | step<1>(stable & g_.land[0]);
    const Bits v = covered[1] | step<2>(stable) | step<3>(stable);
    const Bits d9 = covered[2] | step<4>(stable & g_.land[5]) | step<5>(stable & g_.land[4]);
    const Bits d7 = covered[3] | step<6>(stable & g_.land[7]) | step<7>(stable & g_.land[6]);
    stable |= mine & h & v & d9 & d7;
  }
  return stable;
}

}  // namespace rastros::reversi
