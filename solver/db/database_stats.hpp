#pragma once
// Counting a database's positions by value, by layer (region size) and by remoteness, for
// `rastros stats` and for plots.

#include <array>
#include <cstdint>
#include <vector>

#include "db/database_file.hpp"

namespace rastros {

/// Positions per value, indexed by static_cast<int>(Value): loss, draw, win.
using ValueCounts = std::array<std::uint64_t, 3>;

struct DatabaseStats {
  std::uint64_t positions = 0;
  ValueCounts by_value{};
  /// by_layer[n]: positions whose region (count(key.free)) holds n squares.
  std::vector<ValueCounts> by_layer;
  /// by_remoteness[r]: positions r plies from the end (draws, which have no remoteness, are
  /// counted in by_value and by_layer only).
  std::vector<ValueCounts> by_remoteness;
};

DatabaseStats database_stats(const Database& database);

}  // namespace rastros
