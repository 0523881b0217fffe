#pragma once
// Stable discs: discs that no sequence of moves can turn. A disc is stable when, along each
// of the four lines through it, the line is full or a neighbour on that line is the board's
// edge or a stable disc of its own colour; grown from the corners until nothing changes.
// A conservative set (some stable discs are missed), exact enough for a cutoff.

#include <vector>

#include "games/reversi/reversi_bits.hpp"

namespace rastros::reversi {

class Stability {
 public:
  explicit Stability(const Geometry& g);
  /// The stable discs of `mine`.
  Bits stable(Bits mine, Bits theirs) const;

 private:
  Geometry g_;
  Bits edge_[4]{};                 // per axis: squares with a wall on that axis
  std::vector<Bits> lines_[4];     // per axis: its lines' masks
};

}  // namespace rastros::reversi
