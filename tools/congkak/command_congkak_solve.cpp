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
  std::string memory = "64M";
  bool value_only = false, root_only = false, quiet = false, json = false;
  int threads = 0;
  po::options_description description("Options");
  add_congkak_options(description, options);
  description.add_options()("memory", po::value(&memory)->default_value(memory),
                            "transposition table size, e.g. 64M or 1G")(
      "value-only", po::bool_switch(&value_only),
      "win/draw/loss only, by null-window searches (no scores; faster)")(
      "root-only", po::bool_switch(&root_only),
      "the position's value and score alone, not each move's");
  add_threads_option(description, threads);
  description.add_options()("quiet", po::bool_switch(&quiet), "no progress lines on stderr")(
      "json", po::bool_switch(&json), "print one JSON object");
  if (!parse_command_line(arguments, description,
                          "Usage: rastros solve --game congkak [options]\n"
                          "Solves a Congkak position: the exact final score with perfect play "
                          "(the mover's store minus the opponent's), its value, the best moves "
                          "and every move's score.")) {
    return 0;
  }
  const ThreadLimit limit(threads);
  const CongkakInput input = resolve_input(options);
  CongkakSolver solver(input.game, {parse_memory_size(memory), value_only, root_only});
  const auto started = std::chrono::steady_clock::now();
  CongkakResult result;
  {
    ProgressReporter reporter(!quiet, [&](double seconds) {
      return "solve: " + human_count(static_cast<double>(solver.nodes())) + " nodes, " +
             std::to_string(static_cast<int>(seconds)) + " s";
    });
    result = solver.solve(input.position);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const auto view = congkak_view(input);
  const mancala_cli::MancalaReport report{view, result, root_only, solver.nodes(), seconds, -1,
                                          std::nullopt};
  if (json) {
    std::cout << mancala_cli::result_json(report).dump() << "\n";
  } else {
    mancala_cli::print_text(report);
  }
  return 0;
}

}  // namespace rastros::tools::congkak_cli
