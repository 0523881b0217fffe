// Oware endgame databases (solver/games/oware/).
//   BM_OwareLevel/S/T/G one level of the M = 6 database, S seeds on the board, on T threads,
//                       its graph held as G says (oware_level.hpp): 0 stored (every move's
//                       target, then the reverse edges), 1 generated (moves counted once,
//                       parents un-sown when the attractors need them); then its per-threshold
//                       attractors. The levels below are built once, outside the timing.
//                       Counters: positions, positions/s, bytes/position on disk.
//   BM_OwareProbe       one record looked up: a random board of 12 seeds of the M = 6 database
//                       ranked and read. Counter: probes/s.
//   BM_OwareAnalyse     a whole answer from the database (the record and every move's), as
//                       `query` gives it, on random boards of 12 seeds.
// Compare T=2 with T=1 within one run.

#include <benchmark/benchmark.h>
#include <oneapi/tbb/task_arena.h>

#include <map>
#include <random>
#include <vector>

#include "games/oware/oware_analysis.hpp"
#include "games/oware/oware_database.hpp"
#include "games/oware/oware_level.hpp"

namespace rastros::oware {
namespace {

const Oware& six() {
  static const Oware game(6, 4);
  return game;
}

// The levels of the M = 6 database below `seeds`, built once per process.
const std::vector<std::vector<std::int8_t>>& levels_below(int seeds) {
  static std::map<int, std::vector<std::vector<std::int8_t>>> cache;
  auto& levels = cache[seeds];
  if (levels.empty()) {
    const OwareDatabase database = OwareDatabase::build(six(), seeds - 1);
    for (int s = 0; s < seeds; ++s) {
      std::vector<std::int8_t> level(six().level_size(s));
      for (std::uint64_t r = 0; r < level.size(); ++r) level[r] = static_cast<std::int8_t>(database.score_at(s, r));
      levels.push_back(std::move(level));
    }
  }
  return levels;
}

void BM_OwareLevel(benchmark::State& state) {
  const int seeds = static_cast<int>(state.range(0));
  const auto& lower = levels_below(seeds);
  oneapi::tbb::task_arena arena(static_cast<int>(state.range(1)));
  const bool generated = state.range(2) == 1;
  std::uint64_t positions = 0;
  for (auto _ : state) {
    arena.execute([&] {
      positions = generated ? solve_generated_level(six(), seeds, lower).size()
                            : solve_level(level_graph(six(), seeds, lower), seeds).size();
    });
  }
  state.counters["positions"] = static_cast<double>(positions);
  state.counters["positions/s"] = benchmark::Counter(
      static_cast<double>(positions) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["bytes/position"] = 1;  // one signed byte a record, no keys (ranked)
}
BENCHMARK(BM_OwareLevel)->ArgsProduct({{12, 14}, {1, 2}, {0, 1}})->Unit(benchmark::kMillisecond)->UseRealTime();

const OwareDatabase& database12() {
  static const OwareDatabase database = OwareDatabase::build(six(), 12);
  return database;
}

std::vector<OwareState> random_boards(int seeds, int count) {
  std::mt19937_64 random(41);
  std::vector<OwareState> boards;
  for (int i = 0; i < count; ++i) {
    boards.push_back(six().level_unrank(seeds, random() % six().level_size(seeds)));
  }
  return boards;
}

void BM_OwareProbe(benchmark::State& state) {
  const OwareDatabase& database = database12();
  const auto boards = random_boards(12, 4096);
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(database.probe(six(), boards[i++ % boards.size()]));
  }
  state.counters["probes/s"] = benchmark::Counter(static_cast<double>(state.iterations()),
                                                  benchmark::Counter::kIsRate);
}
BENCHMARK(BM_OwareProbe);

void BM_OwareAnalyse(benchmark::State& state) {
  const OwareDatabase& database = database12();
  const auto boards = random_boards(12, 4096);
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(analyse(six(), database, boards[i++ % boards.size()], 0));
  }
}
BENCHMARK(BM_OwareAnalyse);

}  // namespace
}  // namespace rastros::oware
