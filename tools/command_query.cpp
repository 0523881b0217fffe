// `rastros query`: a position answered from a solved database (solve's output plus "source"),
// falling back to a live search for positions the database lacks unless --no-search is given.

#include <chrono>
#include <iostream>

#include "analysis_output.hpp"
#include "commands.hpp"
#include "core/errors.hpp"
#include "db/database_query.hpp"
#include "db/database_reader.hpp"
#include "options.hpp"
#include "progress.hpp"

namespace rastros::tools {
namespace {

// Exit status for a position the database lacks when searching was ruled out (--no-search):
// neither bad input nor an unusable file, so neither 2 nor 3.
constexpr int kExitNotStored = 4;

}  // namespace

int run_query(const Arguments& arguments) {
  std::string file;
  GivenVariant checks;
  PositionOptions where;
  int threads = 0;
  std::string memory;
  bool no_search = false;
  bool quiet = false;
  bool json = false;
  po::options_description description("Options");
  description.add_options()("db", po::value(&file)->required(), "database file (.rdb)");
  add_optional_option(description, "board", checks.board,
                      "optional check: the database's board must be this one");
  add_optional_option(description, "start", checks.start,
                      "optional check: the database's start square");
  add_optional_option(description, "rules", checks.rules, "optional check: the database's rules");
  add_optional_option(description, "steps", checks.steps, "optional check: the database's steps");
  add_position_options(description, where);
  add_threads_option(description, threads);
  description.add_options()("memory", po::value(&memory),
                            "the most memory the fallback search may use: its transposition table "
                            "(default 32M)")(
      "no-search", po::bool_switch(&no_search),
      "never search: a position the database lacks exits with status 4, and a won position of "
      "a strategy database lists only the moves the file holds")("quiet", po::bool_switch(&quiet),
                                                                 "no progress lines on stderr")(
      "json", po::bool_switch(&json), "print one JSON object");
  if (!parse_command_line(arguments, description,
                          "Usage: rastros query --db FILE [--moves \"...\" | --position \"...\"]\n"
                          "Answers a position from a database: the output of rastros solve plus "
                          "where the answer came from\n(\"database\", or \"search\" when the file "
                          "lacks the position and it was solved on the spot;\nthe moves a strategy "
                          "database does not hold are searched too).\nThe board, start, "
                          "rules and steps are the database's; --moves are played from its "
                          "start.\nA proof database (solve --kind proof) holds values only: its "
                          "answers and searches have no remoteness,\nand where the side to move "
                          "wins it lists the stored winning move (and the moves it holds) only.")) {
    return 0;
  }
  // The search options are checked before reading the file, so a bad one fails fast, and
  // whether or not the answer then needs a search.
  const std::size_t table_bytes =
      memory.empty() ? default_table_bytes(false) : parse_memory_size(memory);
  check_table_bytes(table_bytes);
  const ThreadLimit limit(threads);
  // Only the header and the block index are read here; each lookup reads the block it needs.
  const DatabaseReader database(file);
  const DatabaseQuery query(database);
  check_given_variant(checks, query.game(), file);
  const Rastros& game = query.game();
  const VariantOptions variant{game.board().name(), square_name(game.board(), game.start()),
                               std::string(rules_name(game.stuck_rule())),
                               std::string(steps_name(game.board().steps()))};
  const PositionInput input = resolve_position(variant, where);

  // A proof database holds values only, and its boards are too big for a remoteness search.
  const bool value_only = database.header().kind == DatabaseKind::proof;
  const auto started = std::chrono::steady_clock::now();
  std::optional<DatabaseAnswer> answer = query.answer(input.position);
  SolverOptions options;
  options.table_bytes = table_bytes;
  options.value_only = value_only;
  if (answer) {
    // Moves the file does not hold (moves_to_search); with --no-search, what it holds.
    std::uint64_t nodes = 0;
    const SquareMask to_search =
        moves_to_search(*answer, game, input.position, database.header().kind);
    if (!no_search && to_search) {
      Solver solver(game, options);
      ProgressReporter progress(!quiet, [&](double seconds) {
        return "searching the moves the database does not hold: " +
               human_count(static_cast<double>(solver.nodes())) + " nodes, " +
               std::to_string(static_cast<int>(seconds)) + " s";
      });
      complete_by_search(*answer, game, input.position, to_search, solver);
      nodes = solver.nodes();
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const Analysis analysis{answer->outcome, answer->best_moves, answer->children, nodes};
    print_analysis({input, analysis, seconds, value_only, "database"}, json);
    return 0;
  }
  if (no_search) {
    std::cerr << "rastros query: " << file << " does not hold position "
              << position_string(game.board(), input.position)
              << " (or one of its moves) and --no-search was given\n";
    return kExitNotStored;
  }
  Solver solver(game, options);
  Analysis analysis;
  {
    ProgressReporter progress(!quiet, [&](double seconds) {
      return "not in the database, searching: " + human_count(static_cast<double>(solver.nodes())) +
             " nodes, " + std::to_string(static_cast<int>(seconds)) + " s";
    });
    analysis = solver.analyse(input.position);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  print_analysis({input, analysis, seconds, value_only, "search"}, json);
  return 0;
}

}  // namespace rastros::tools
