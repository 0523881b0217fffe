// `rastros solve --game kalah`: the exact final score with perfect play, the value, the best
// moves and every move's score; or, with --db, an endgame database written to a file.

#include <chrono>
#include <cmath>
#include <iostream>
#include <optional>

#include "core/errors.hpp"
#include "games/kalah/kalah_analysis.hpp"
#include "kalah/kalah_commands.hpp"
#include "kalah/kalah_endgame_options.hpp"
#include "kalah/kalah_options.hpp"
#include "kalah/kalah_output.hpp"
#include "options.hpp"
#include "progress.hpp"

namespace rastros::tools::kalah_cli {

using namespace rastros::kalah;


int run_solve(const Arguments& arguments) {
  KalahOptions options;
  EndgameOptions endgame_options;
  std::string memory = "64M";
  bool value_only = false, root_only = false, quiet = false, json = false;
  int threads = 0;
  std::optional<std::string> db;
  po::options_description description("Options");
  add_kalah_options(description, options);
  description.add_options()(
      "memory", po::value(&memory)->default_value(memory), "transposition table size, e.g. 64M or 1G (larger is not always faster: see docs/performance.md)")(
      "value-only", po::bool_switch(&value_only),
      "win/draw/loss only, by null-window searches (no scores; faster)")(
      "root-only", po::bool_switch(&root_only), "the position's value and score alone, not each move's");
  add_threads_option(description, threads);
  add_endgame_options(description, endgame_options);
  add_optional_option(description, "db",
                      db, "write an endgame database of every state with at most --endgame-seeds "
                          "seeds in play (default: all of the game's seeds) to this file instead");
  description.add_options()("quiet", po::bool_switch(&quiet), "no progress lines on stderr")(
      "json", po::bool_switch(&json), "print one JSON object");
  if (!parse_command_line(arguments, description,
                          "Usage: rastros solve --game kalah [options]\n"
                          "Solves a Kalah position: the exact final score with perfect play (the "
                          "mover's store minus the opponent's), its value, the best moves and "
                          "every move's score.")) {
    return 0;
  }
  const ThreadLimit limit(threads);
  if (db) return write_endgame_database(options, endgame_options, *db, quiet, json);

  const KalahInput input = resolve_input(options);
  const std::size_t table_bytes = parse_memory_size(memory);
  const auto endgame = endgame_for_search(input.game, endgame_options, quiet);
  KalahSolver solver(input.game, {table_bytes, value_only, root_only}, endgame.get());
  const auto started = std::chrono::steady_clock::now();
  KalahResult result;
  {
    ProgressReporter progress(!quiet, [&](double seconds) {
      return "solve: " + human_count(static_cast<double>(solver.nodes())) + " nodes, " +
             std::to_string(static_cast<int>(seconds)) + " s";
    });
    result = solver.solve(input.position);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const int endgame_seeds = endgame ? endgame->max_seeds() : -1;
  if (json) {
    std::cout << result_json({input, result, root_only, solver.nodes(), seconds, endgame_seeds, std::nullopt}).dump()
              << "\n";
  } else {
    print_text({input, result, root_only, solver.nodes(), seconds, endgame_seeds, std::nullopt});
  }
  return 0;
}

}  // namespace rastros::tools::kalah_cli
