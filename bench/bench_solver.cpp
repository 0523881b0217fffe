// Solver speed. Every figure is a ratio against a baseline run in this same binary:
//   threads   the same solve on 1 and 2 threads (task_arena of that size, solver built in it)
//   baseline  plain alpha-beta: no region pruning, no symmetry, no matching endgame, and the
//             mobility move order
//   one goal  every aid but the one-goal rule (SolverOptions::use_one_goal_rule)
//   ordering  the fitted move order against the plain mobility order it replaced
//             (SolverOptions::move_ordering, search/move_ordering.hpp)
//   pages     the default tables on huge pages from the start against small pages
//             (RASTROS_HUGE_PAGES=0 for the table; core/huge_page_upgrade.hpp)
//   ABDADA    two threads without (the default) and with the deferral of brothers another
//             thread is searching (SolverOptions::defer_busy_brothers)
//   pockets   value only, with (the default) and without pockets simplified
//             (SolverOptions::simplify_pockets, rastros/pockets.hpp)
//   goal      value only, with (the default) and without goal pockets replaced by stand-ins
//             (SolverOptions::summarize_goal_pockets, rastros/goal_pockets.hpp)
//   memory    with (the default) and without the move memory (SolverOptions::remember_moves,
//             search/move_memory.hpp)
//   lost      with (the default) and without the lost-move rule: moves known to lose (the
//             opponent wins one ply ahead, or the table says so) counted lost unsearched
//             (SolverOptions::lost_move_rule)
//   traps     with (the default) and without the trap rule: a move every safe reply to which
//             is answered by one leaving the opponent stuck or only squares beside our goal,
//             found before any child is packed
//             (SolverOptions::trap_rule, rastros/traps.hpp)
//   lazy      with (the default) and without children packed lazily: at nodes of up to 34
//             squares the first move is packed and searched before its brothers are packed
//             (SolverOptions::lazy_packing_max_region)
//   edge      the fitted order with (the default) and without edge moves put late in the
//             opening of win/loss searches (MoveOrdering::tuned_without_edge)
//   oracle    the 7x7 value-only analysis with the fitted order, and again with an oracle
//             trying first, at nodes of a band of region sizes, the move that won there in
//             the first run (search/move_hints.hpp): how far the order is from perfect, and
//             where (counter node_ratio: the first run's nodes over the second's)
// Counters: nodes, nodes/s; each iteration starts from an empty table. The 7x7 runs are one
// iteration each (seconds long): use --benchmark_repetitions=3 and compare medians.

#include <benchmark/benchmark.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <cstdint>

#include "core/huge_pages.hpp"
#include "rastros/notation.hpp"
#include "search/move_hints.hpp"
#include "search/solver.hpp"

namespace rastros {
namespace {

enum Mode : int { kValueOnly = 0, kRemoteness = 1 };
enum Aids : int {
  kAllAids = 0,
  kPlainAlphaBeta = 1,
  kWithoutOneGoalRule = 2,
  kMobilityOrdering = 3,     // every aid, with the move order before the fitted one
  kSmallPages = 4,           // every aid, the table on small pages (RASTROS_HUGE_PAGES=0)
  kDeferBusyBrothers = 5,    // every aid, and ABDADA deferral of brothers being searched
  kWithoutPockets = 6,       // every aid but pockets (value only; with remoteness never used)
  kWithoutMoveMemory = 7,    // every aid but the move memory
  kWithoutLateEdge = 8,      // every aid, the fitted order without edge moves put late
  kWithoutLostMoveRule = 9,  // every aid but the lost-move rule (value only)
  kWithoutGoalPockets = 10,  // every aid but goal pockets (value only)
  kWithoutLazyPacking = 11,  // every aid, every child packed before the first is searched
  kWideTable = 12,           // every aid, the table's wide layout in 8 MiB (the layout win/loss searches used before the compact one)
  kWithoutTrapRule = 13,     // every aid but the trap rule (to measure the rule)
};

/// `whole`: Solver::analyse (what `rastros solve` runs: the position and every move), else
/// Solver::solve (the position's value alone, `--root-only`).
void run_solve(benchmark::State& state, const Board& board, const std::string& moves,
               bool whole = false) {
  const int threads = static_cast<int>(state.range(0));
  const bool value_only = state.range(1) == kValueOnly;
  const bool plain = state.range(2) == kPlainAlphaBeta;
  const Rastros game(board);
  const Position position = parse_game(game, moves).position;
  SolverOptions options;
  options.value_only = value_only;
  options.prune_region = options.use_symmetry = options.use_matching = !plain;
  options.use_one_goal_rule = state.range(2) != kWithoutOneGoalRule && !plain;
  if (plain || state.range(2) == kMobilityOrdering) options.move_ordering = MoveOrdering::mobility;
  if (state.range(2) == kWithoutLateEdge) options.move_ordering = MoveOrdering::tuned_without_edge;
  options.defer_busy_brothers = state.range(2) == kDeferBusyBrothers;
  options.simplify_pockets = state.range(2) != kWithoutPockets && !plain;
  options.summarize_goal_pockets = state.range(2) != kWithoutGoalPockets && !plain;
  options.remember_moves = state.range(2) != kWithoutMoveMemory && !plain;
  options.lost_move_rule = state.range(2) != kWithoutLostMoveRule && !plain;
  options.trap_rule = state.range(2) != kWithoutTrapRule && !plain;
  if (state.range(2) == kWithoutLazyPacking || plain) options.lazy_packing_max_region = 0;
  options.table_bytes = default_table_bytes(value_only);
  if (state.range(2) == kWideTable) {
    options.compact_table = false;
    options.table_bytes = std::size_t{8} << 20;
  }
  oneapi::tbb::task_arena arena(threads);
  const SmallPagesOnly small_pages(state.range(2) == kSmallPages);
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    // Built inside the arena: the solver sizes its parallel work by the arena it starts in.
    arena.execute([&] {
      Solver solver(game, options);
      if (whole) {
        benchmark::DoNotOptimize(solver.analyse(position));
      } else {
        benchmark::DoNotOptimize(solver.solve(position));
      }
      nodes += solver.nodes();
    });
  }
  state.counters["nodes"] = static_cast<double>(nodes) / state.iterations();
  state.counters["nodes/s"] =
      benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
}

void BM_Solve7x7Start(benchmark::State& state) {
  run_solve(state, Board(7, 7), "");
}
void BM_Analyse7x7Start(benchmark::State& state) {
  run_solve(state, Board(7, 7), "", true);
}
void BM_Solve6x6Start(benchmark::State& state) {
  run_solve(state, Board(6, 6), "");
}
void BM_Solve7x7AfterC3(benchmark::State& state) {
  run_solve(state, Board(7, 7), "c3");
}

/// One thread (node counts are then exact). Arguments: the band of region sizes where the
/// oracle's hints are used, from state.range(0) squares up to fewer than state.range(1).
void BM_Analyse7x7OracleOrder(benchmark::State& state) {
  const Rastros game(Board(7, 7));
  const Position start = game.start_position();
  SolverOptions options;
  options.value_only = true;
  options.table_bytes = default_table_bytes(true);
  oneapi::tbb::task_arena arena(1);
  std::uint64_t plain_nodes = 0;
  std::uint64_t oracle_nodes = 0;
  for (auto _ : state) {
    arena.execute([&] {
      state.PauseTiming();  // the recording run is the baseline, not the measured one
      MoveHints hints;
      SolverOptions recording = options;
      recording.record_winning_moves = &hints;
      Solver first(game, recording);
      benchmark::DoNotOptimize(first.analyse(start));
      plain_nodes += first.nodes();
      hints.set_band(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
      SolverOptions hinted = options;
      hinted.move_hints = &hints;
      state.ResumeTiming();
      Solver second(game, hinted);
      benchmark::DoNotOptimize(second.analyse(start));
      oracle_nodes += second.nodes();
    });
  }
  state.counters["nodes"] = static_cast<double>(oracle_nodes) / state.iterations();
  state.counters["plain_nodes"] = static_cast<double>(plain_nodes) / state.iterations();
  state.counters["node_ratio"] = static_cast<double>(plain_nodes) /
                                 static_cast<double>(std::max<std::uint64_t>(oracle_nodes, 1));
}

// Arguments: threads, mode, aids.
BENCHMARK(BM_Solve7x7Start)
    ->Args({1, kValueOnly, kAllAids})
    ->Args({1, kValueOnly, kPlainAlphaBeta})  // about 20x the nodes: seconds
    ->Args({1, kRemoteness, kAllAids})
    ->Args({1, kRemoteness, kPlainAlphaBeta})  // about half a minute
    ->Args({1, kValueOnly, kWithoutLazyPacking})
    ->Args({1, kValueOnly, kWithoutGoalPockets})
    ->Args({1, kValueOnly, kWithoutOneGoalRule})
    ->Args({1, kValueOnly, kMobilityOrdering})
    ->Args({1, kValueOnly, kWithoutPockets})
    ->Args({1, kValueOnly, kWithoutMoveMemory})
    ->Args({1, kValueOnly, kWithoutLateEdge})
    ->Args({1, kValueOnly, kWithoutLostMoveRule})
    ->Args({1, kValueOnly, kWithoutTrapRule})
    ->Args({2, kValueOnly, kAllAids})
    ->Args({2, kValueOnly, kWithoutTrapRule})
    ->Args({2, kValueOnly, kDeferBusyBrothers})
    ->Args({2, kValueOnly, kWithoutPockets})
    ->Args({2, kValueOnly, kWithoutMoveMemory})
    ->Args({2, kValueOnly, kWithoutLateEdge})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);
// The README's main job (`rastros solve`, remoteness) and its value-only form.
BENCHMARK(BM_Analyse7x7Start)
    ->Args({1, kRemoteness, kAllAids})
    ->Args({1, kRemoteness, kMobilityOrdering})
    ->Args({1, kRemoteness, kWithoutTrapRule})
    ->Args({2, kRemoteness, kAllAids})
    ->Args({2, kRemoteness, kWithoutTrapRule})
    ->Args({2, kRemoteness, kWithoutLazyPacking})
    ->Args({2, kRemoteness, kSmallPages})
    ->Args({2, kRemoteness, kDeferBusyBrothers})
    ->Args({1, kRemoteness, kWithoutMoveMemory})
    ->Args({2, kRemoteness, kWithoutMoveMemory})
    ->Args({1, kValueOnly, kAllAids})
    ->Args({1, kValueOnly, kWideTable})
    ->Args({1, kValueOnly, kWithoutTrapRule})
    ->Args({1, kValueOnly, kPlainAlphaBeta})
    ->Args({1, kValueOnly, kMobilityOrdering})
    ->Args({1, kValueOnly, kWithoutLazyPacking})
    ->Args({1, kValueOnly, kWithoutGoalPockets})
    ->Args({1, kValueOnly, kWithoutPockets})
    ->Args({1, kValueOnly, kWithoutMoveMemory})
    ->Args({1, kValueOnly, kWithoutLateEdge})
    ->Args({1, kValueOnly, kWithoutLostMoveRule})
    ->Args({2, kValueOnly, kAllAids})
    ->Args({2, kValueOnly, kWideTable})
    ->Args({2, kValueOnly, kWithoutTrapRule})
    ->Args({2, kValueOnly, kWithoutLazyPacking})
    ->Args({2, kValueOnly, kWithoutGoalPockets})
    ->Args({2, kValueOnly, kSmallPages})
    ->Args({2, kValueOnly, kDeferBusyBrothers})
    ->Args({2, kValueOnly, kWithoutPockets})
    ->Args({2, kValueOnly, kWithoutMoveMemory})
    ->Args({2, kValueOnly, kWithoutLateEdge})
    ->Args({2, kValueOnly, kWithoutLostMoveRule})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);
// Bands of region sizes (docs/performance.md).
BENCHMARK(BM_Analyse7x7OracleOrder)
    ->Args({0, kMaxSquares + 1})
    ->Args({20, kMaxSquares + 1})
    ->Args({30, kMaxSquares + 1})
    ->Args({38, kMaxSquares + 1})
    ->Args({44, kMaxSquares + 1})
    ->Args({0, 38})
    ->Args({0, 30})
    ->Args({0, 20})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);
BENCHMARK(BM_Solve6x6Start)
    ->Args({1, kValueOnly, kAllAids})
    ->Args({1, kValueOnly, kMobilityOrdering})
    ->Args({1, kValueOnly, kPlainAlphaBeta})
    ->Args({1, kRemoteness, kAllAids})
    ->Args({2, kRemoteness, kAllAids})
    ->Args({1, kRemoteness, kPlainAlphaBeta})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_Solve7x7AfterC3)
    ->Args({1, kRemoteness, kAllAids})
    ->Args({2, kRemoteness, kAllAids})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

}  // namespace
}  // namespace rastros
