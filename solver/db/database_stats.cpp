#include "db/database_stats.hpp"

#include <algorithm>

namespace rastros {

DatabaseStats database_stats(const Database& database) {
  DatabaseStats stats;
  stats.positions = database.size();
  const auto keys = database.keys();
  const auto records = database.records();
  // At most 64 squares and 63 plies: sized once, trimmed of empty tails below.
  stats.by_layer.assign(kMaxSquares + 1, ValueCounts{});
  stats.by_remoteness.assign(kMaxSquares + 1, ValueCounts{});
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const int value = static_cast<int>(records[i].value);
    ++stats.by_value[value];
    ++stats.by_layer[count(keys[i].free)][value];
    if (records[i].value != Value::draw) ++stats.by_remoteness[records[i].remoteness][value];
  }
  const auto trim = [](std::vector<ValueCounts>& rows) {
    while (!rows.empty() && rows.back() == ValueCounts{}) rows.pop_back();
  };
  trim(stats.by_layer);
  trim(stats.by_remoteness);
  return stats;
}

}  // namespace rastros
