// Move generation speed: perft from the 7x7 start, nodes per second.

#include <benchmark/benchmark.h>

#include "analysis/perft.hpp"
#include "rastros/rastros.hpp"

namespace rastros {
namespace {

void BM_Perft7x7(benchmark::State& state) {
  const Rastros game(Board(7, 7));
  const int depth = static_cast<int>(state.range(0));
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    nodes = perft(game, game.start_position(), depth);
    benchmark::DoNotOptimize(nodes);
  }
  state.counters["leaves"] = static_cast<double>(nodes);
  state.counters["leaves/s"] = benchmark::Counter(static_cast<double>(nodes) * state.iterations(),
                                                  benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Perft7x7)->Arg(6)->Arg(8)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace rastros
