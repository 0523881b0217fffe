// Kalah through the score engine.
//   BM_KalahSolve/M/N/T/P    every first move's exact score of Kalah(M,N) (standard rules) on T
//                            threads, nodes up to P plies from the root splitting their moves
//                            (ScoreSolverOptions::parallel_plies), with the automatic in-memory
//                            endgame database (built once, outside the timing). Counters: nodes,
//                            nodes/s.
//   BM_KalahEndgame/M/K/T    the endgame database of M houses up to K seeds on T threads.
//                            Counters: states, states/s, bytes/state (in memory and on disk).
//   BM_KalahSow/F            one move's sowing on random positions: F=1 the library's
//                            Kalah::play (whole laps at once), F=0 a plain seed-by-seed sowing
//                            written here. Counter: moves/s.
// Compare T=2 with T=1, and F=1 with F=0, within one run.

#include <benchmark/benchmark.h>
#include <oneapi/tbb/task_arena.h>

#include <random>
#include <vector>

#include "engine/score_solver.hpp"
#include "games/kalah/kalah.hpp"
#include "games/kalah/kalah_endgame.hpp"
#include "games/kalah/kalah_position.hpp"

namespace rastros::kalah {
namespace {

void BM_KalahSolve(benchmark::State& state) {
  const Kalah game(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  const int threads = static_cast<int>(state.range(2));
  // The database the command builds by default: at most about 2 M states.
  const int seeds = KalahEndgame::seeds_within(game, std::uint64_t{2} << 20);
  const KalahEndgame database = KalahEndgame::build(game, seeds);
  oneapi::tbb::task_arena arena(threads);
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    arena.execute([&] {
      engine::ScoreSolverOptions options;
      options.table_bytes = std::size_t{32} << 20;
      options.parallel_plies = static_cast<int>(state.range(3));
      engine::ScoreSolver<Kalah> solver(game, options);
      solver.set_probe(seeds, [&](const KalahState& s) { return database.probe(game, s); });
      benchmark::DoNotOptimize(solver.analyse(game.start()));
      nodes = solver.nodes();
    });
  }
  state.counters["nodes"] = static_cast<double>(nodes);
  state.counters["nodes/s"] = benchmark::Counter(
      static_cast<double>(nodes) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_KalahSolve)
    ->ArgsProduct({{4}, {4}, {1, 2}, {6}})
    ->ArgsProduct({{5}, {4}, {1, 2}, {6}})
    ->ArgsProduct({{6}, {3}, {1, 2}, {6}})
    ->ArgsProduct({{4}, {4}, {2}, {9, 12, 16}})
    ->ArgsProduct({{6}, {3}, {2}, {9, 12, 16}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_KalahEndgame(benchmark::State& state) {
  const Kalah game(static_cast<int>(state.range(0)), 6);
  const int seeds = static_cast<int>(state.range(1));
  oneapi::tbb::task_arena arena(static_cast<int>(state.range(2)));
  std::uint64_t states = 0;
  for (auto _ : state) {
    arena.execute([&] { states = KalahEndgame::build(game, seeds).size(); });
  }
  state.counters["states"] = static_cast<double>(states);
  state.counters["states/s"] = benchmark::Counter(
      static_cast<double>(states) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["bytes/state"] = 1;  // one signed byte a score, no keys (ranked)
}
BENCHMARK(BM_KalahEndgame)->ArgsProduct({{6}, {14}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime();

// Seed by seed round the ring from the mover's view, as the rules say it.
KalahPlayed plain_sow(const Kalah& game, const KalahState& state, KalahMove move) {
  const int m = game.houses();
  std::vector<int> ring(2 * m + 1);
  for (int i = 0; i < m; ++i) {
    ring[i] = state.houses[i];
    ring[m + 1 + i] = state.houses[m + i];
  }
  int seeds = ring[move];
  ring[move] = 0;
  int pit = move;
  while (seeds-- > 0) {
    pit = (pit + 1) % (2 * m + 1);
    ++ring[pit];
  }
  KalahPlayed played;
  if (pit < m && ring[pit] == 1 && ring[2 * m - pit] != 0) {
    ring[m] += ring[2 * m - pit] + 1;
    ring[2 * m - pit] = 0;
    ring[pit] = 0;
  }
  played.gain = ring[m];
  played.again = pit == m;
  for (int i = 0; i < m; ++i) {
    played.next.houses[played.again ? i : m + i] = static_cast<std::uint8_t>(ring[i]);
    played.next.houses[played.again ? m + i : i] = static_cast<std::uint8_t>(ring[m + 1 + i]);
  }
  return played;
}

void BM_KalahSow(benchmark::State& state) {
  const Kalah game(6, 4);
  std::mt19937 rng(5);
  std::vector<std::pair<KalahState, KalahMove>> cases;
  while (cases.size() < 4096) {
    KalahPosition position = start_position(game);
    for (int ply = 0, plies = static_cast<int>(rng() % 30); ply < plies; ++ply) {
      const auto moves = game.legal_moves(search_state(game, position));
      if (moves.empty()) break;
      position = play(game, position, moves[rng() % moves.size()]);
    }
    const KalahState s = search_state(game, position);
    for (const KalahMove move : game.legal_moves(s)) cases.emplace_back(s, move);
  }
  const bool library = state.range(0) == 1;
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& [s, move] = cases[i++ & 4095];
    benchmark::DoNotOptimize(library ? game.play(s, move) : plain_sow(game, s, move));
  }
  state.counters["moves/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_KalahSow)->Arg(0)->Arg(1);

}  // namespace
}  // namespace rastros::kalah
