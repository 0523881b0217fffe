// Retrograde strong solving: solve_strong on whole boards, in a task_arena of 1 and 2 threads.
// Counters:
//   positions      stored positions (every position reachable from the start, canonical)
//   positions/s    stored positions per second of wall time
//   bytes/position table memory per stored position (16-byte key, 3-byte record)
//   table_MiB      the finished table's memory
//   peak_RSS_MiB   the process's peak resident memory (VmHWM) after the runs so far: the
//                  solver's working memory is at most this, less what earlier runs left
// Each iteration solves from scratch.

#include <benchmark/benchmark.h>
#include <oneapi/tbb/task_arena.h>

#include <fstream>
#include <string>

#include "retro/strong_solver.hpp"

namespace rastros {
namespace {

/// Peak resident memory of this process in bytes (Linux /proc/self/status VmHWM), 0 if unknown.
double peak_resident_bytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) * 1024.0;  // in kB
  }
  return 0;
}

void run_strong_solve(benchmark::State& state, const Board& board) {
  const int threads = static_cast<int>(state.range(0));
  const Rastros game(board);
  oneapi::tbb::task_arena arena(threads);
  std::size_t positions = 0;
  for (auto _ : state) {
    arena.execute([&] {
      const StrongTable table = solve_strong(game);
      positions = table.size();
      benchmark::DoNotOptimize(table.keys().data());
    });
  }
  constexpr double kMiB = 1024.0 * 1024.0;
  state.counters["positions"] = static_cast<double>(positions);
  state.counters["positions/s"] =
      benchmark::Counter(static_cast<double>(positions) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
  state.counters["bytes/position"] = static_cast<double>(StrongTable::kBytesPerPosition);
  state.counters["table_MiB"] =
      static_cast<double>(positions * StrongTable::kBytesPerPosition) / kMiB;
  state.counters["peak_RSS_MiB"] = peak_resident_bytes() / kMiB;
}

void BM_StrongSolve4x5(benchmark::State& state) {
  run_strong_solve(state, Board(4, 5));
}
void BM_StrongSolve5x5(benchmark::State& state) {
  run_strong_solve(state, Board(5, 5));
}

// Argument: threads.
BENCHMARK(BM_StrongSolve4x5)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_StrongSolve5x5)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace rastros
