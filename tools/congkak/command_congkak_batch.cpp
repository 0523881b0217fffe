// `rastros batch --game congkak`: every line of a file (games or position strings of any
// Congkak variant) solved as `solve --game congkak` solves it, one JSON object a line.

#include <chrono>
#include <memory>
#include <optional>
#include <utility>

#include "congkak/congkak_options.hpp"
#include "games/congkak/congkak_analysis.hpp"
#include "games/congkak/congkak_batch_line.hpp"
#include "interrupt.hpp"
#include "mpi_world.hpp"
#include "options.hpp"
#include "progress.hpp"
#include "score_batch_games.hpp"

namespace rastros::tools::congkak_cli {

using namespace rastros::congkak;

namespace {

// The solver of the variant met last (its table is --memory) and its endgame database.
struct LineSolver {
  CongkakBatchSettings settings;
  LastSolver<std::pair<int, int>, CongkakSolver> last;
  std::shared_ptr<const CongkakEndgame> endgame;

  std::string solve(const CongkakInput& input, std::uint64_t number) {
    CongkakSolver& solver = last.get({input.game.houses(), input.game.seeds()}, [&] {
      endgame = endgame_for_search(input.game, settings.endgame_seeds, true);
      return std::make_unique<CongkakSolver>(
          input.game,
          mancala::MancalaSolveOptions{settings.table_bytes, settings.value_only,
                                       settings.root_only},
          endgame.get());
    });
    const std::uint64_t nodes_before = solver.nodes();
    const auto started = std::chrono::steady_clock::now();
    const CongkakResult result = solver.solve(input.position);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const auto view = congkak_view(input);
    const mancala_cli::MancalaReport report{view,
                                            result,
                                            settings.root_only,
                                            solver.nodes() - nodes_before,
                                            seconds,
                                            endgame ? endgame->max_seeds() : -1,
                                            std::nullopt,
                                            settings.timing};
    Json json = mancala_cli::result_json(report);
    json.prepend("line", number);
    return json.dump();
  }
};

}  // namespace

namespace {

ScoreBatchAnswer answer_with(const std::shared_ptr<LineSolver>& solver) {
  const CongkakBatchSettings& settings = solver->settings;
  return score_batch_answer<CongkakInput>(
      [settings](std::string_view text) {
        return parse_congkak_batch_line(text, settings.houses, settings.seeds);
      },
      [solver](const CongkakInput& input, std::uint64_t number) {
        return solver->solve(input, number);
      });
}

}  // namespace

ScoreBatchAnswer batch_answer(const CongkakBatchSettings& settings) {
  auto solver = std::make_shared<LineSolver>();
  solver->settings = settings;
  return answer_with(solver);
}

int run_batch(const Arguments& arguments) {
  CongkakOptions options;
  ScoreBatchFiles files;
  ScoreSolveOptions solve{"64M"};
  bool timing = false;
  std::optional<int> endgame_seeds;
  po::options_description description("Options");
  add_score_batch_files(description, files);
  add_congkak_options(description, options, false);
  add_score_solve_options(description, solve);
  add_endgame_seeds_option(description, endgame_seeds);
  description.add_options()("timing", po::bool_switch(&timing),
                            "add \"nodes\" and \"seconds\" to each line");
  add_score_batch_run(description, files);
  if (!parse_command_line(
          arguments, description,
          "Usage: rastros batch --game congkak --input FILE [--output FILE] [options]\n"
          "Solves each line of FILE: a game (3 6 1) or a position string "
          "(7,7,7,7,7,7,7,0/7,7,7,7,7,7,7,0 1), optionally preceded by --houses, "
          "--seeds for that line alone. Blank lines and # comments are skipped. "
          "Prints one JSON object a line, in input order, with the keys of "
          "`rastros solve --game congkak --json` plus \"line\"; a bad line gives "
          "{\"line\": N, \"error\": \"...\"} and the exit status is 2 at the end.")) {
    return 0;
  }
  files.quiet = solve.quiet;
  const ThreadLimit limit(solve.threads);
  resolve_input(options);  // the defaults themselves must be a variant
  const CongkakBatchSettings settings{
      options.houses,   options.seeds,   parse_memory_size(solve.memory),
      solve.value_only, solve.root_only, timing,
      endgame_seeds};
  const std::string identity = "game=congkak;houses=" + std::to_string(settings.houses) +
                               ";seeds=" + std::to_string(settings.seeds) +
                               ";value_only=" + std::to_string(settings.value_only) +
                               ";root_only=" + std::to_string(settings.root_only) +
                               ";timing=" + std::to_string(settings.timing) +
                               ";endgame_seeds=" + std::to_string(endgame_seeds.value_or(-2));
  auto solver = std::make_shared<LineSolver>();
  solver->settings = settings;
  // Ctrl-C stops a long line at once (in one process: under mpirun the dealing ends instead).
  std::optional<StopWatcher> watcher;
  if (mpi_size() == 1) watcher.emplace([solver] { solver->last.stop(); });
  return run_score_batch(files, identity, answer_with(solver), stop_requested());
}

}  // namespace rastros::tools::congkak_cli
