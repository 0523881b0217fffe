// Proof-number search (df-pn) against the alpha-beta Solver, both in value-only mode, in the
// same binary and on one thread, so the ratio means something on a shared machine. Compare the
// `nodes` counters as well as the times: other jobs on the machine move the times, never the
// node counts. (A df-pn node is one MID call, re-visits included; an alpha-beta node is one
// search call.) Each iteration starts from an empty table of the same size.

#include <benchmark/benchmark.h>
#include <oneapi/tbb/task_arena.h>

#include <string>

#include "core/huge_pages.hpp"
#include "rastros/notation.hpp"
#include "search/proof_number_search.hpp"
#include "search/solver.hpp"

namespace rastros {
namespace {

// The boards up to 7x7 use solve's default value-only table (8 MiB: small tables stay in the
// cache, and a 256 MiB one spent most of a 7x7 solve's time on first touches of its pages);
// 8x7 fills a larger one.
constexpr std::size_t kSmallTableBytes = std::size_t{8} << 20;
constexpr std::size_t kLargeTableBytes = std::size_t{256} << 20;

enum Algorithm : int { kProofNumber = 0, kAlphaBeta = 1 };

void run_value_solve(benchmark::State& state, const Board& board, const std::string& moves,
                     std::size_t table_bytes = kSmallTableBytes) {
  const Rastros game(board);
  const Position position = parse_game(game, moves).position;
  oneapi::tbb::task_arena arena(1);
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    if (state.range(0) == kProofNumber) {
      ProofNumberSearch search(game, table_bytes);
      benchmark::DoNotOptimize(search.solve(position));
      nodes += search.nodes();
    } else {
      // Built inside the one-thread arena, so that it does not plan for more threads.
      arena.execute([&] {
        Solver solver(game, SolverOptions{.value_only = true, .table_bytes = table_bytes});
        benchmark::DoNotOptimize(solver.solve(position));
        nodes += solver.nodes();
      });
    }
  }
  state.SetLabel(state.range(0) == kProofNumber ? "df-pn" : "alpha-beta");
  state.counters["nodes"] = static_cast<double>(nodes) / static_cast<double>(state.iterations());
  state.counters["nodes/s"] =
      benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
}

void BM_ValueSolve6x6Start(benchmark::State& state) {
  run_value_solve(state, Board(6, 6), "");
}
void BM_ValueSolve7x7AfterC3(benchmark::State& state) {
  run_value_solve(state, Board(7, 7), "c3");
}
void BM_ValueSolve7x7Start(benchmark::State& state) {
  run_value_solve(state, Board(7, 7), "");
}
// The largest board below 8x8 that solves in a minute or two: where df-pn pulls ahead.
void BM_ValueSolve8x7Start(benchmark::State& state) {
  run_value_solve(state, Board(8, 7), "", kLargeTableBytes);
}

// Argument: the algorithm. The 7x7 solves take seconds each, so they run once.
BENCHMARK(BM_ValueSolve6x6Start)
    ->Arg(kProofNumber)
    ->Arg(kAlphaBeta)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_ValueSolve7x7AfterC3)
    ->Arg(kProofNumber)
    ->Arg(kAlphaBeta)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);
BENCHMARK(BM_ValueSolve7x7Start)
    ->Arg(kProofNumber)
    ->Arg(kAlphaBeta)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);
BENCHMARK(BM_ValueSolve8x7Start)
    ->Arg(kProofNumber)
    ->Arg(kAlphaBeta)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

// Huge pages for a table that fills (core/huge_page_upgrade.hpp): df-pn on 8x7 with a 1 GiB
// table, the upgrade on (argument 1) and off (0, as RASTROS_HUGE_PAGES=0 does). Interleave
// the two (--benchmark_enable_random_interleaving) on a shared machine.
void BM_ProofNumber8x7HugePages(benchmark::State& state) {
  const Rastros game(Board(8, 7));
  const SmallPagesOnly small_pages(state.range(0) == 0);
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    ProofNumberSearch search(game, std::size_t{1} << 30);
    benchmark::DoNotOptimize(search.solve(game.start_position()));
    nodes += search.nodes();
  }
  state.SetLabel(state.range(0) ? "huge pages once half full" : "small pages only");
  state.counters["nodes"] = static_cast<double>(nodes) / static_cast<double>(state.iterations());
  state.counters["nodes/s"] =
      benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ProofNumber8x7HugePages)
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

}  // namespace
}  // namespace rastros
