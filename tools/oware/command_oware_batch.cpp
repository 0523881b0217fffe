// `rastros batch --game oware`: every line of a file (games or position strings of any Oware
// variant) answered as `solve --game oware` answers it: from the endgame database (--db FILE,
// or one built in memory) or a search whose leaves it is. A line beyond both within
// --max-positions gets an error object (solve's exit 4), and the run goes on.

#include <map>
#include <memory>
#include <utility>

#include "core/errors.hpp"
#include "games/oware/oware_analysis.hpp"
#include "games/oware/oware_batch_line.hpp"
#include "interrupt.hpp"
#include "mpi_world.hpp"
#include "options.hpp"
#include "oware/oware_endgame_options.hpp"
#include "oware/oware_output.hpp"
#include "score_batch_games.hpp"

namespace rastros::tools::oware_cli {

using namespace rastros::oware;

namespace {

// The databases the lines rest on: the file's (for the lines of its houses), or one built in
// memory for each variant met, kept for the lines after it (they are small: a million
// positions at most by default).
struct LineSolver {
  EndgameOptions endgame;
  bool quiet = false;
  std::map<std::pair<int, int>, std::shared_ptr<const OwareDatabase>> databases;

  const OwareDatabase& database_for(const Oware& game) {
    if (endgame.file) {
      const OwareDatabase& file = *databases.begin()->second;  // loaded up front
      if (file.houses() != game.houses()) {
        throw InputError("the database " + quote_input(*endgame.file, 200) + " is of " +
                         std::to_string(file.houses()) + " houses, not " +
                         std::to_string(game.houses()));
      }
      return file;
    }
    auto& database = databases[{game.houses(), game.seeds()}];
    if (!database) database = database_for_solve(game, endgame, quiet);
    return *database;
  }

  std::string solve(const OwareInput& input, std::uint64_t number) {
    const OwareDatabase& database = database_for(input.game);
    const OwareState state = search_state(input.game, input.position);
    const auto analysis = analyse(input.game, database, state, endgame.max_positions);
    if (!analysis) {
      throw InputError(position_string(input.game, input.position) + " has " +
                       std::to_string(input.game.seeds_in_play(state)) +
                       " seeds on the board; the database holds up to " +
                       std::to_string(database.max_seeds()) + " and more than --max-positions " +
                       std::to_string(endgame.max_positions) +
                       " positions lie beyond it: no exact answer");
    }
    Json json = report_json({input, *analysis, database.max_seeds()});
    json.prepend("line", number);
    return json.dump();
  }
};

}  // namespace

int run_batch(const Arguments& arguments) {
  OwareOptions options;
  EndgameOptions endgame;
  ScoreBatchFiles files;
  std::optional<std::string> db;
  int threads = 0;
  po::options_description description("Options");
  add_score_batch_files(description, files);
  add_oware_options(description, options, false);
  add_optional_option(description, "db", db,
                      "answer from this endgame database (written by solve --game oware --db; "
                      "the same as --endgame FILE)");
  add_endgame_options(description, endgame);
  description.add_options()("quiet", po::bool_switch(&files.quiet), "no progress lines on stderr");
  add_score_batch_run(description, files);
  add_threads_option(description, threads);
  if (!parse_command_line(arguments, description,
                          "Usage: rastros batch --game oware --input FILE [--db FILE] [options]\n"
                          "Answers each line of FILE as solve --game oware does: a game (3 6 1) or "
                          "a position string (4,4,4,4,4,4,0/4,4,4,4,4,4,0 1), optionally preceded "
                          "by --houses, --seeds for that line alone. Blank lines and # comments "
                          "are skipped. Prints one JSON object a line, in input order, with the "
                          "keys of `rastros solve --game oware --json` plus \"line\"; a bad line, "
                          "or one beyond the database and --max-positions, gives {\"line\": N, "
                          "\"error\": \"...\"} and the exit status is 2 at the end.")) {
    return 0;
  }
  if (db && endgame.file) throw InputError("give --db or --endgame, not both");
  if (db) endgame.file = db;
  const ThreadLimit limit(threads);
  const Oware game = resolve_game(options);  // the defaults themselves must be a variant
  auto solver = std::make_shared<LineSolver>();
  solver->endgame = endgame;
  solver->quiet = files.quiet || mpi_rank() != 0;
  // A file is read (and checked) once, before any line: a damaged one stops the run at once.
  if (endgame.file) solver->databases[{0, 0}] = database_for_solve(game, endgame, true);
  const auto answer = score_batch_answer<OwareInput>(
      [&options](std::string_view text) {
        return parse_oware_batch_line(text, options.houses, options.seeds);
      },
      [solver](const OwareInput& input, std::uint64_t number) { return solver->solve(input, number); });
  const std::string identity = "game=oware;houses=" + std::to_string(options.houses) +
                               ";seeds=" + std::to_string(options.seeds) +
                               ";endgame=" + endgame.file.value_or("") + ":" +
                               std::to_string(endgame.seeds.value_or(-1)) +
                               ";max_positions=" + std::to_string(endgame.max_positions);
  return run_score_batch(files, identity, answer, stop_requested());
}

}  // namespace rastros::tools::oware_cli
