// `rastros map`: the value for player 1 moving first from every start square of a board.

#include <chrono>
#include <iostream>
#include <sstream>

#include "board_text.hpp"
#include "commands.hpp"
#include "map_output.hpp"
#include "options.hpp"
#include "progress.hpp"
#include "search/start_map.hpp"

namespace rastros::tools {

Json map_json(const Rastros& rastros, const std::vector<StartSquareOutcome>& results,
              bool value_only) {
  const Board& board = rastros.board();
  Json squares = Json::object();
  for (const StartSquareOutcome& result : results) {
    Json entry = Json::object();
    entry.set("value", to_string(result.outcome.value));
    if (!value_only) {
      entry.set("remoteness",
                result.outcome.remoteness ? Json(*result.outcome.remoteness) : Json(nullptr));
    }
    squares.set(square_name(board, result.start), entry);
  }
  Json out = Json::object();
  out.set("board", board.name())
      .set("rules", rules_name(rastros.stuck_rule()))
      .set("steps", steps_name(board.steps()))
      .set("squares", squares);
  return out;
}

std::string map_text(const Rastros& rastros, const std::vector<StartSquareOutcome>& results,
                     bool value_only) {
  const Board& board = rastros.board();
  std::vector<std::string> cells(board.square_count());
  for (const StartSquareOutcome& result : results) {
    const Outcome& outcome = result.outcome;
    std::string cell(1, outcome.value == Value::win    ? 'W'
                        : outcome.value == Value::loss ? 'L'
                                                       : 'D');
    if (outcome.remoteness) cell += std::to_string(*outcome.remoteness);
    cells[result.start] = cell;
  }
  cells[board.goal_of(Player::one)] = "[1]";
  cells[board.goal_of(Player::two)] = "[2]";
  std::ostringstream out;
  out << "Start-square map, " << board.name() << ", " << steps_name(board.steps()) << " steps, "
      << rules_name(rastros.stuck_rule()) << " rules\n"
      << "Value for player 1 moving first from each square"
      << (value_only ? "" : " (W win, L loss, D draw; number: remoteness in plies)") << "\n\n"
      << board_grid(board, value_only ? 3 : 4, [&](Square square) { return cells[square]; })
      << "\n";
  return out.str();
}

int run_map(const Arguments& arguments) {
  VariantOptions variant;
  int threads = 0;
  std::string memory;
  bool value_only = false;
  bool quiet = false;
  bool json = false;
  po::options_description description("Options");
  add_variant_options(description, variant, true, false);
  add_threads_option(description, threads);
  add_search_options(description, memory, value_only);
  description.add_options()("quiet", po::bool_switch(&quiet), "no progress lines on stderr")(
      "json", po::bool_switch(&json), "print one JSON object");
  if (!parse_command_line(arguments, description,
                          "Usage: rastros map [options]\n"
                          "Solves the game from every start square of a board (player 1 moving "
                          "first) and prints the values as a grid.")) {
    return 0;
  }
  // Any non-goal square serves as the variant's start: the map replaces it.
  const Board board = parse_board(variant.board, parse_steps(variant.steps));
  const Rastros rastros(board, board.is_goal(board.default_start()) ? 1 : board.default_start(),
                        parse_rules(variant.rules));
  SolverOptions options;
  options.value_only = value_only;
  options.table_bytes =
      memory.empty() ? default_table_bytes(value_only) : parse_memory_size(memory);
  const ThreadLimit limit(threads);
  Solver solver(rastros, options);

  const auto started = std::chrono::steady_clock::now();
  std::vector<StartSquareOutcome> results;
  {
    ProgressReporter progress(!quiet, [&](double seconds) {
      const double nodes = static_cast<double>(solver.nodes());
      return "mapping: " + human_count(nodes) + " nodes, " + human_count(nodes / seconds) +
             " nodes/s, " + std::to_string(static_cast<int>(seconds)) + " s";
    });
    results = solve_start_map(rastros, solver);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  if (json) {
    Json out = map_json(rastros, results, value_only);
    out.set("nodes", solver.nodes()).set("seconds", seconds);
    std::cout << out.dump() << "\n";
    return 0;
  }
  std::cout << map_text(rastros, results, value_only) << "Searched " << solver.nodes()
            << " nodes in " << seconds << " s\n";
  return 0;
}

}  // namespace rastros::tools
