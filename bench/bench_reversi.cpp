// Reversi's exact endgame solver on the FFO endgame suite (data/reversi/ffo_40_59.txt).
//   BM_ReversiFfo/K/T   FFO position #K solved exactly (the score alone) on T threads, a fresh
//                       64 MiB table each time. Counters: nodes, nodes/s; the label says
//                       whether the score is the published one.
// Compare T=2 with T=1 within one run (the 2-thread speedup on the set is their time ratio).
// "Time" is wall-clock, "CPU" the whole process's CPU time (every thread): on a shared machine
// the CPU time of a 1-thread row is the steadier figure, and nodes/s is per CPU second.

#include <benchmark/benchmark.h>
#include <oneapi/tbb/task_arena.h>

#include <fstream>
#include <sstream>
#include <string>

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

}  // namespace
}  // namespace rastros::reversi
