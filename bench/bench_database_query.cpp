// Query latency on a loaded 5x5 strong database (every position reachable from c3): the
// lookup of one position (canonical packing plus find) and the full answer (the position and
// every move from it, as `rastros query` gives it). Target: a full answer under 5 us.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>
#include <vector>

#include "db/database_query.hpp"
#include "db/strong_database.hpp"

namespace rastros {
namespace {

const Database& database() {
  static const Database database = build_strong_database(Rastros(Board(5, 5)));
  return database;
}

// Positions met along random games, in both players' frames, not yet ended: what users ask.
std::vector<Position> sample_positions(const Rastros& game) {
  std::mt19937_64 rng(11);
  std::vector<Position> positions;
  while (positions.size() < 4096) {
    Position position = game.start_position();
    while (!game.has_ended(position)) {
      positions.push_back(position);
      SquareMask moves = game.move_mask(position);
      for (int skip = static_cast<int>(rng() % count(moves)); skip > 0; --skip) moves &= moves - 1;
      position = game.play(position, lowest_square(moves));
    }
  }
  std::shuffle(positions.begin(), positions.end(), rng);
  return positions;
}

void BM_Lookup(benchmark::State& state) {
  const DatabaseQuery query(database());
  const std::vector<Position> positions = sample_positions(query.game());
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(query.lookup(positions[i++ % positions.size()]));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Lookup);

void BM_FullAnswer(benchmark::State& state) {
  const DatabaseQuery query(database());
  const std::vector<Position> positions = sample_positions(query.game());
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(query.answer(positions[i++ % positions.size()]));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_FullAnswer);

}  // namespace
}  // namespace rastros
