// `rastros solve --game oware`: the exact score of a position from the endgame databases (or
// a search whose leaves they are), or with --db FILE the databases built and written.

#include <iostream>

#include "core/errors.hpp"
#include "games/oware/oware_analysis.hpp"
#include "options.hpp"
#include "oware/oware_commands.hpp"
#include "oware/oware_endgame_options.hpp"
#include "oware/oware_output.hpp"

namespace rastros::tools::oware_cli {

using namespace rastros::oware;

// Prints an answer as text or JSON. Shared with query.
int print_analysis(const OwareInput& input, const OwareAnalysis& analysis, int max_seeds,
                   bool json) {
  const OwareReport report{input, analysis, max_seeds};
  if (json) {
    std::cout << report_json(report).dump() << "\n";
  } else {
    print_report(report);
  }
  return 0;
}

// Answers `input` from `database`, or refuses in one line on stderr. Shared with query.
int answer(const OwareInput& input, const OwareDatabase& database, std::uint64_t max_positions,
           bool json, const char* command) {
  const OwareState state = search_state(input.game, input.position);
  const auto analysis = analyse(input.game, database, state, max_positions);
  if (!analysis) {
    std::cerr << "rastros " << command << ": " << position_string(input.game, input.position)
              << " has " << input.game.seeds_in_play(state)
              << " seeds on the board; the database holds up to " << database.max_seeds()
              << " and more than --max-positions " << max_positions
              << " positions lie beyond it: no exact answer (give a larger database or budget)\n";
    return kRefused;
  }
  return print_analysis(input, *analysis, database.max_seeds(), json);
}

int run_solve(const Arguments& arguments) {
  OwareOptions options;
  EndgameOptions endgame;
  WriteOptions write;
  bool json = false, quiet = false;
  int threads = 0;
  po::options_description description("Options");
  add_oware_options(description, options);
  add_endgame_options(description, endgame);
  add_write_options(description, write);
  description.add_options()(
      "quiet", po::bool_switch(&quiet), "no progress lines on stderr")(
      "json", po::bool_switch(&json), "print one JSON object");
  add_threads_option(description, threads);
  if (!parse_command_line(arguments, description,
                          "Usage: rastros solve --game oware [options]\n"
                          "The exact score of an Oware position (rule 7: net captures from here "
                          "on) from endgame databases, or a search whose leaves they are; a "
                          "position beyond both is refused. With --db FILE --endgame-seeds K, "
                          "builds the databases of 0..K seeds and writes them.")) {
    return 0;
  }
  const ThreadLimit limit(threads);
  if (!write.file.empty()) {
    return write_database(resolve_game(options), endgame, write, quiet, json);
  }
  if (!write.scratch.empty()) throw InputError("--scratch needs --db FILE");
  const OwareInput input = resolve_input(options);
  const auto database = database_for_solve(input.game, endgame, quiet);
  return answer(input, *database, endgame.max_positions, json, "solve");
}

}  // namespace rastros::tools::oware_cli
