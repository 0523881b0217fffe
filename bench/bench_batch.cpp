// Batch throughput: run_batch over a fixed input of random 7x7 mid-game positions (the kind of
// file a user analyses: games of 9 to 16 moves), in a task_arena of 1 and 2 threads, so the
// two figures form the thread-scaling ratio in one run.
// Counters:
//   positions    lines solved per iteration
//   positions/s  lines solved per second of wall time
// Each iteration starts with fresh tables (new BatchSolvers), as a new `rastros batch` would.

#include <benchmark/benchmark.h>
#include <oneapi/tbb/task_arena.h>

#include <random>
#include <sstream>
#include <string>

#include "batch/batch_runner.hpp"
#include "rastros/notation.hpp"

namespace rastros {
namespace {

// `lines` random games of 9 to 16 plies from the 7x7 start, one per line (seeded: the same
// input on every run).
std::string random_games(int lines) {
  const Rastros game{Board(7, 7)};
  std::mt19937 random(2026);
  std::string text;
  for (int line = 0; line < lines; ++line) {
    Position position = game.start_position();
    const int plies = 9 + static_cast<int>(random() % 8);
    std::string moves;
    for (int ply = 0; ply < plies && !game.terminal_value(position); ++ply) {
      std::vector<Square> legal;
      for (Square move : game.legal_moves(position)) {
        if (!game.board().is_goal(move)) legal.push_back(move);
      }
      if (legal.empty()) break;
      const Square move = legal[random() % legal.size()];
      if (!moves.empty()) moves += ' ';
      moves += square_name(game.board(), move);
      position = game.play(position, move);
    }
    text += moves;
    text += '\n';
  }
  return text;
}

void run_batch_benchmark(benchmark::State& state, bool value_only) {
  const int threads = static_cast<int>(state.range(0));
  static const std::string input = random_games(200);
  oneapi::tbb::task_arena arena(threads);
  BatchOptions options;
  options.value_only = value_only;
  std::uint64_t positions = 0;
  for (auto _ : state) {
    arena.execute([&] {
      std::istringstream stream(input);
      LineReader reader(stream, BatchCursor{});
      BatchSolvers solvers(options);
      BatchCallbacks callbacks;
      callbacks.format = [](const BatchResult& result) {
        return std::to_string(result.analysis.nodes);
      };
      callbacks.commit = [](std::string_view text, const BatchCursor&) {
        benchmark::DoNotOptimize(text.data());
      };
      const std::atomic<bool> stop{false};
      positions = run_batch(reader, BatchCursor{}, options, solvers, callbacks, stop).results;
    });
  }
  state.counters["positions"] = static_cast<double>(positions);
  state.counters["positions/s"] =
      benchmark::Counter(static_cast<double>(positions) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
}

void BM_Batch7x7Remoteness(benchmark::State& state) {
  run_batch_benchmark(state, false);
}
void BM_Batch7x7ValueOnly(benchmark::State& state) {
  run_batch_benchmark(state, true);
}

BENCHMARK(BM_Batch7x7Remoteness)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Batch7x7ValueOnly)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace rastros
