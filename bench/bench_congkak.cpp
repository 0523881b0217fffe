// Congkak through the score engine.
//   BM_CongkakSow/M/F     one move's relay sowing on positions of random Congkak(M,7) games:
//                         F=1 the library's Congkak::play (whole rings a lap), F=0 a plain
//                         seed-by-seed sowing written here from the rules text. Counter: moves/s.
//   BM_CongkakSolve/M/N/T every first move's exact score of Congkak(M,N) on T threads.
//                         Counters: nodes, nodes/s.
//   BM_CongkakEndgameSolve/K     Congkak(6,5) from the start on one thread (every first move's
//                         score) with the endgame database by seeds up to K (built outside
//                         the timing); K=-1 none, the baseline. Counters: nodes, nodes/s.
//   BM_CongkakEndgameBuild/M/K   that database of M houses up to K seeds built on one thread
//                         (states/s).
//   BM_CongkakDatabaseBuild/M/N  the strong database of Congkak(M,N) built from the start
//                         (positions/s, bytes a position in the file format).
//   BM_CongkakDatabaseQuery/Q    positions of random Congkak(4,4) games, each with every move,
//                         answered: Q=1 from the loaded database records, Q=0 by the live
//                         solver (its table kept warm), the baseline.
//   BM_CongkakDatabaseOpen/R     a fresh open of the Congkak(5,3) database file (941,671
//                         positions, 1.9 MB) and one query of the start with every move, as
//                         a new `rastros query` process does: R=1 the block reader (header,
//                         index, the blocks the query needs), R=0 the whole file read and
//                         checked first, the baseline. Counters: the file's bytes, blocks read.
// Compare F=1 with F=0, T=2 with T=1, K with K=-1, Q=1 with Q=0 and R=1 with R=0 within one
// run.

#include <benchmark/benchmark.h>
#include <oneapi/tbb/task_arena.h>

#include <array>
#include <filesystem>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include "engine/score_database_file.hpp"
#include "engine/score_solver.hpp"
#include "games/congkak/congkak.hpp"
#include "games/congkak/congkak_analysis.hpp"
#include "games/congkak/congkak_database.hpp"
#include "games/congkak/congkak_endgame.hpp"
#include "games/congkak/congkak_position.hpp"

namespace rastros::congkak {
namespace {

// The straightforward sowing: one seed at a time round the ring (the mover's houses, its
// store, the opponent's houses), relaying from every house that held seeds.
CongkakPlayed plain_sow(const Congkak& game, const CongkakState& state, CongkakMove move) {
  const int m = game.houses();
  const int ring_size = 2 * m + 1;
  std::array<int, 2 * kalah::kMaxHouses + 1> ring{};
  for (int i = 0; i < m; ++i) {
    ring[i] = state.houses[i];
    ring[m + 1 + i] = state.houses[m + i];
  }
  CongkakPlayed played;
  int pit = move;
  while (true) {
    int hand = ring[pit];
    ring[pit] = 0;
    while (hand-- > 0) {
      pit = (pit + 1) % ring_size;
      ++ring[pit];
    }
    if (pit == m) {
      played.again = true;
      break;
    }
    if (ring[pit] > 1) continue;
    if (pit < m && ring[2 * m - pit] > 0) {
      ring[m] += ring[2 * m - pit] + 1;
      ring[2 * m - pit] = 0;
      ring[pit] = 0;
    }
    break;
  }
  played.gain = ring[m];
  const int own = played.again ? 0 : m, other = played.again ? m : 0;
  for (int i = 0; i < m; ++i) {
    played.next.houses[own + i] = static_cast<std::uint8_t>(ring[i]);
    played.next.houses[other + i] = static_cast<std::uint8_t>(ring[m + 1 + i]);
  }
  return played;
}

void BM_CongkakSow(benchmark::State& state) {
  const Congkak game(static_cast<int>(state.range(0)), 7);
  std::mt19937 rng(5);
  std::vector<std::pair<CongkakState, CongkakMove>> cases;
  while (cases.size() < 4096) {
    CongkakPosition position = mancala::start_position(game.board());
    for (int ply = 0, plies = static_cast<int>(rng() % 30); ply < plies; ++ply) {
      const auto moves = game.legal_moves(search_state(game, position));
      if (moves.empty()) break;
      position = play(game, position, moves[rng() % moves.size()]);
    }
    const CongkakState s = search_state(game, position);
    for (const CongkakMove move : game.legal_moves(s)) cases.emplace_back(s, move);
  }
  const bool library = state.range(1) == 1;
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& [s, move] = cases[i++ & 4095];
    benchmark::DoNotOptimize(library ? game.play(s, move) : plain_sow(game, s, move));
  }
  state.counters["moves/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_CongkakSow)->ArgsProduct({{4, 7}, {0, 1}});

void BM_CongkakSolve(benchmark::State& state) {
  const Congkak game(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  oneapi::tbb::task_arena arena(static_cast<int>(state.range(2)));
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    arena.execute([&] {
      engine::ScoreSolver<Congkak> solver(game, {std::size_t{32} << 20});
      benchmark::DoNotOptimize(solver.analyse(game.start()));
      nodes = solver.nodes();
    });
  }
  state.counters["nodes"] = static_cast<double>(nodes);
  state.counters["nodes/s"] =
      benchmark::Counter(static_cast<double>(nodes) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
}
BENCHMARK(BM_CongkakSolve)
    ->ArgsProduct({{6}, {5}, {1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_CongkakEndgameSolve(benchmark::State& state) {
  const Congkak game(6, 5);
  const int seeds = static_cast<int>(state.range(0));
  oneapi::tbb::task_arena arena(1);
  std::optional<CongkakEndgame> endgame;
  if (seeds >= 0) arena.execute([&] { endgame = CongkakEndgame::build(game, seeds); });
  const auto start = mancala::start_position(game.board());
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    arena.execute([&] {
      CongkakSolver solver(game, {std::size_t{32} << 20}, endgame ? &*endgame : nullptr);
      benchmark::DoNotOptimize(solver.solve(start));
      nodes = solver.nodes();
    });
  }
  state.counters["nodes"] = static_cast<double>(nodes);
  state.counters["nodes/s"] =
      benchmark::Counter(static_cast<double>(nodes) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
}
BENCHMARK(BM_CongkakEndgameSolve)
    ->Arg(-1)
    ->Arg(8)
    ->Arg(11)
    ->Arg(14)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_CongkakEndgameBuild(benchmark::State& state) {
  const Congkak game(static_cast<int>(state.range(0)), 5);
  const int seeds = static_cast<int>(state.range(1));
  oneapi::tbb::task_arena arena(1);
  std::uint64_t states = 0;
  for (auto _ : state) {
    arena.execute([&] { states = CongkakEndgame::build(game, seeds).size(); });
  }
  state.counters["states"] = static_cast<double>(states);
  state.counters["states/s"] = benchmark::Counter(static_cast<double>(states),
                                                  benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_CongkakEndgameBuild)->Args({6, 11})->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_CongkakDatabaseBuild(benchmark::State& state) {
  const Congkak game(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  std::size_t positions = 0;
  double bytes = 0;
  for (auto _ : state) {
    const engine::ScoreRecords records = build_congkak_database(game);
    positions = records.keys.size();
    bytes = static_cast<double>(engine::encoded_record_bytes(records));
  }
  state.counters["positions"] = static_cast<double>(positions);
  state.counters["positions/s"] = benchmark::Counter(static_cast<double>(positions),
                                                     benchmark::Counter::kIsIterationInvariantRate);
  state.counters["bytes/position"] = bytes / static_cast<double>(positions);
}
BENCHMARK(BM_CongkakDatabaseBuild)->Args({4, 3})->Args({4, 4})->Unit(benchmark::kMillisecond);

/// Positions of random Congkak games, every position of each game to its end.
std::vector<CongkakPosition> sample_positions(const Congkak& game) {
  std::vector<CongkakPosition> positions;
  std::mt19937_64 random(7);
  for (int number = 0; number < 32; ++number) {
    CongkakPosition position = mancala::start_position(board_of(game));
    for (;;) {
      positions.push_back(position);
      const auto moves = game.legal_moves(search_state(game, position));
      if (moves.empty()) break;
      position = play(game, position, moves[random() % moves.size()]);
    }
  }
  return positions;
}

void BM_CongkakDatabaseQuery(benchmark::State& state) {
  const Congkak game(4, 4);
  const bool from_database = state.range(0) == 1;
  const engine::ScoreRecords records = build_congkak_database(game);
  CongkakSolver solver(game, {std::size_t{16} << 20});
  const auto positions = sample_positions(game);
  std::size_t i = 0;
  for (auto _ : state) {
    const CongkakPosition& position = positions[i++ % positions.size()];
    if (from_database) {
      benchmark::DoNotOptimize(query_congkak_database(game, records, position, false));
    } else {
      benchmark::DoNotOptimize(solver.solve(position));
    }
  }
  state.counters["queries/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_CongkakDatabaseQuery)->Arg(0)->Arg(1);

void BM_CongkakDatabaseOpen(benchmark::State& state) {
  const Congkak game(5, 3);
  const bool by_blocks = state.range(0) == 1;
  const auto path = std::filesystem::temp_directory_path() / "bench_congkak_53.rsdb";
  save_congkak_database(path, game, build_congkak_database(game));
  const CongkakPosition start = mancala::start_position(board_of(game));
  std::size_t blocks = 0;
  for (auto _ : state) {
    if (by_blocks) {
      const engine::ScoreDatabaseReader reader = open_congkak_database(path, game);
      benchmark::DoNotOptimize(query_congkak_database(game, reader, start, false));
      blocks = reader.blocks_read();
    } else {
      const engine::ScoreRecords records = load_congkak_database(path, game);
      benchmark::DoNotOptimize(query_congkak_database(game, records, start, false));
    }
  }
  const double file = static_cast<double>(std::filesystem::file_size(path));
  state.counters["file bytes"] = file;
  state.counters["blocks read"] = static_cast<double>(blocks);
  std::filesystem::remove(path);
}
BENCHMARK(BM_CongkakDatabaseOpen)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace rastros::congkak
