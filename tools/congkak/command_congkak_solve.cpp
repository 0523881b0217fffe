// `rastros solve --game congkak`: the exact final score with perfect play, the value, the best
// moves and every move's score (or, with --value-only, win/draw/loss alone).

#include <chrono>
#include <iostream>

#include "congkak/congkak_commands.hpp"
#include "congkak/congkak_options.hpp"
#include "games/congkak/congkak_analysis.hpp"
#include "options.hpp"
#include "progress.hpp"

namespace rastros::tools::congkak_cli {

using namespace rastros::congkak;

int run_solve(const Arguments& arguments) {
  CongkakOptions options;
  ScoreSolveOptions solve{"64M"};
  std::string db, db_memory = "4G";
  std::optional<int> endgame_seeds;
  po::options_description description("Options");
  add_congkak_options(description, options);
  add_score_solve_options(description, solve);
  add_endgame_seeds_option(description, endgame_seeds);
  description.add_options()("db", po::value(&db),
                            "build the variant's strong database (every position reachable from "
                            "the start, small variants) and write it here")(
      "db-memory", po::value(&db_memory)->default_value(db_memory),
      "with --db: the most memory the build may use (72 bytes a position); a variant with "
      "more positions than that holds is refused as soon as the walk meets them");
  if (!parse_command_line(arguments, description,
                          "Usage: rastros solve --game congkak [options]\n"
                          "Solves a Congkak position: the exact final score with perfect play "
                          "(the mover's store minus the opponent's), its value, the best moves "
                          "and every move's score. With --db FILE: the strong database of every "
                          "position reachable from the start, for query, verify and stats.")) {
    return 0;
  }
  if (!db.empty()) {
    return write_database(options, db, parse_memory_size(db_memory), solve.quiet, solve.json);
  }
  const ThreadLimit limit(solve.threads);
  const CongkakInput input = resolve_input(options);
  const auto endgame = endgame_for_search(input.game, endgame_seeds, solve.quiet);
  CongkakSolver solver(input.game,
                       {parse_memory_size(solve.memory), solve.value_only, solve.root_only},
                       endgame.get());
  const auto started = std::chrono::steady_clock::now();
  CongkakResult result;
  {
    ProgressReporter reporter(!solve.quiet, [&](double seconds) {
      return "solve: " + human_count(static_cast<double>(solver.nodes())) + " nodes, " +
             std::to_string(static_cast<int>(seconds)) + " s";
    });
    result = solver.solve(input.position);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const auto view = congkak_view(input);
  const mancala_cli::MancalaReport report{
      view,           result,  solve.root_only,
      solver.nodes(), seconds, endgame ? endgame->max_seeds() : -1,
      std::nullopt};
  if (solve.json) {
    std::cout << mancala_cli::result_json(report).dump() << "\n";
  } else {
    mancala_cli::print_text(report);
  }
  return 0;
}

}  // namespace rastros::tools::congkak_cli
