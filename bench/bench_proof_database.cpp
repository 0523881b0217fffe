// Proof databases on the 7x7 start (db/proof_database.hpp): the build (alpha-beta, value-only,
// one shared table) and the verification (each record from its children, small endgames by
// df-pn), in positions/s, with the file's bytes per stored position, for three leaf sizes.
#include <benchmark/benchmark.h>

#include "db/database_file.hpp"
#include "db/proof_database.hpp"
#include "db/verify.hpp"
#include "rastros/rastros.hpp"
#include "search/solver.hpp"

namespace rastros {
namespace {

Database build(int leaf_squares) {
  const Rastros game(Board(7, 7));
  SolverOptions options;
  options.value_only = true;
  options.table_bytes = std::size_t{256} << 20;  // what `solve --kind proof` uses by default
  Solver solver(game, options);
  return build_proof_database(game, leaf_squares, solver);
}

void BM_ProofDatabaseBuild7x7(benchmark::State& state) {
  const int leaf_squares = static_cast<int>(state.range(0));
  std::size_t positions = 0;
  std::size_t bytes = 0;
  for (auto _ : state) {
    const Database database = build(leaf_squares);
    positions = database.size();
    state.PauseTiming();
    bytes = encode_database(database).size();
    state.ResumeTiming();
  }
  state.counters["positions"] = static_cast<double>(positions);
  state.counters["positions/s"] =
      benchmark::Counter(static_cast<double>(positions) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
  state.counters["bytes/position"] = static_cast<double>(bytes) / static_cast<double>(positions);
}
BENCHMARK(BM_ProofDatabaseBuild7x7)
    ->Arg(0)
    ->Arg(16)
    ->Arg(24)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_ProofDatabaseVerify7x7(benchmark::State& state) {
  const Database database = build(static_cast<int>(state.range(0)));
  VerificationReport report;
  for (auto _ : state) {
    report = verify_database(database);
    if (!report.ok()) state.SkipWithError("the proof did not verify");
  }
  state.counters["positions/s"] = benchmark::Counter(
      static_cast<double>(database.size()) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate);
  state.counters["leaves"] = static_cast<double>(report.leaves_solved);
}
BENCHMARK(BM_ProofDatabaseVerify7x7)
    ->Arg(0)
    ->Arg(16)
    ->Arg(24)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace rastros
