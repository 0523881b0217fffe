// Reversi's exact endgame solver on the FFO endgame suite (data/reversi/ffo_40_59.txt).
//   BM_ReversiFfo/K/T   FFO position #K solved exactly (the score alone) on T threads, a fresh
//                       64 MiB table each time. Counters: nodes, nodes/s; the label says
//                       whether the score is the published one.
//   BM_ReversiDatabaseBuild   the 4×4 strong database built from the start (positions/s,
//                             bytes a position in the file format).
//   BM_ReversiDatabaseQuery   one position and every move answered from the loaded 4×4 records.
//   BM_ReversiSolve4x4        the same answers by the live solver (its table kept warm), the
//                             baseline of the query.
// Compare T=2 with T=1 within one run (the 2-thread speedup on the set is their time ratio).
// "Time" is wall-clock, "CPU" the whole process's CPU time (every thread): on a shared machine
// the CPU time of a 1-thread row is the steadier figure, and nodes/s is per CPU second.

#include <benchmark/benchmark.h>
#include <oneapi/tbb/task_arena.h>

#include <fstream>
#include <sstream>
#include <string>

#include "engine/score_database_file.hpp"
#include "games/reversi/reversi_database.hpp"
#include "games/reversi/reversi_position.hpp"
#include "games/reversi/reversi_solver.hpp"

namespace rastros::reversi {
namespace {

struct FfoPosition {
  std::string position;
  int score = 0;
};

FfoPosition ffo(int number) {
  std::ifstream in(std::string(RASTROS_DATA_DIR) + "/reversi/ffo_40_59.txt");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    int n;
    std::string board, side;
    FfoPosition out;
    words >> n >> board >> side >> out.score;
    if (n == number) {
      out.position = board + " " + side;
      return out;
    }
  }
  return {};
}

void BM_ReversiFfo(benchmark::State& state) {
  const FfoPosition position = ffo(static_cast<int>(state.range(0)));
  const Reversi game(8);
  const ReversiState start = search_state(parse_position(game, position.position));
  oneapi::tbb::task_arena arena(static_cast<int>(state.range(1)));
  std::uint64_t nodes = 0;
  bool right = true;
  for (auto _ : state) {
    arena.execute([&] {
      ReversiSolver solver(game, {std::size_t{64} << 20});
      right = right && solver.score(start) == position.score;
      nodes += solver.nodes();
    });
  }
  state.counters["nodes"] = benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kAvgIterations);
  state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
  state.SetLabel(right ? "published score" : "WRONG SCORE");
}

BENCHMARK(BM_ReversiFfo)
    ->ArgsProduct({benchmark::CreateDenseRange(40, 49, 1), {1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->Iterations(1);

void BM_ReversiDatabaseBuild(benchmark::State& state) {
  const Reversi game(4);
  std::size_t positions = 0, bytes = 0;
  for (auto _ : state) {
    const engine::ScoreRecords records = build_reversi_database(game);
    positions = records.keys.size();
    bytes = engine::encoded_record_bytes(records);
  }
  state.counters["positions"] = static_cast<double>(positions);
  state.counters["positions/s"] = benchmark::Counter(static_cast<double>(positions),
                                                     benchmark::Counter::kIsIterationInvariantRate);
  state.counters["bytes/position"] = static_cast<double>(bytes) / static_cast<double>(positions);
}
BENCHMARK(BM_ReversiDatabaseBuild)->Unit(benchmark::kMillisecond);

/// Positions of random 4×4 games at every depth, to answer.
std::vector<ReversiPosition> sample_positions(const Reversi& game) {
  std::vector<ReversiPosition> positions;
  unsigned seed = 7;
  for (int game_number = 0; game_number < 64; ++game_number) {
    ReversiPosition position = start_position(game);
    for (;;) {
      positions.push_back(position);
      const auto moves = game.legal_moves(search_state(position));
      if (moves.empty()) break;
      seed = seed * 1103515245u + 12345u;
      position = play_move(game, position, moves[(seed >> 16) % moves.size()]);
    }
  }
  return positions;
}

void BM_ReversiDatabaseQuery(benchmark::State& state) {
  const Reversi game(4);
  const engine::ScoreRecords records = build_reversi_database(game);
  const auto positions = sample_positions(game);
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(query_reversi_database(game, records, positions[i], false));
    i = (i + 1) % positions.size();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_ReversiDatabaseQuery);

void BM_ReversiSolve4x4(benchmark::State& state) {
  const Reversi game(4);
  ReversiSolver solver(game, {std::size_t{4} << 20});
  const auto positions = sample_positions(game);
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(solve_position(solver, game, positions[i], {}));
    i = (i + 1) % positions.size();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_ReversiSolve4x4);

}  // namespace
}  // namespace rastros::reversi
