// `rastros solve`: the perfect-play value of a position and of every move from it.

#include <chrono>
#include <iostream>

#include "board_text.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "progress.hpp"
#include "search/solver.hpp"

namespace rastros::tools {
namespace {

Json outcome_json(Json json, const Outcome& outcome, bool value_only) {
  json.set("value", to_string(outcome.value));
  if (!value_only) {
    json.set("remoteness", outcome.remoteness ? Json(*outcome.remoteness) : Json(nullptr));
  }
  return json;
}

std::string outcome_text(const Outcome& outcome) {
  std::string text(to_string(outcome.value));
  if (outcome.remoteness) text += " in " + std::to_string(*outcome.remoteness);
  return text;
}

}  // namespace

int run_solve(const Arguments& arguments) {
  VariantOptions variant;
  PositionOptions where;
  int threads = 0;
  std::string memory;
  bool value_only = false;
  bool no_region = false;
  bool no_symmetry = false;
  bool no_matching = false;
  bool quiet = false;
  bool json = false;
  po::options_description description("Options");
  add_variant_options(description, variant);
  add_position_options(description, where);
  add_threads_option(description, threads);
  description.add_options()("memory", po::value(&memory),
                            "transposition table size, e.g. 512M or 2G "
                            "(default: 8M with --value-only, else 32M; "
                                   "see README: small tables are faster)")(
      "value-only", po::bool_switch(&value_only), "win/loss/draw only, no remoteness (faster)")(
      "no-region", po::bool_switch(&no_region), "search aid off: keep unreachable squares in keys")(
      "no-symmetry", po::bool_switch(&no_symmetry), "search aid off: no board symmetry")(
      "no-matching", po::bool_switch(&no_matching), "search aid off: no matching endgame")(
      "quiet", po::bool_switch(&quiet), "no progress lines on stderr")(
      "json", po::bool_switch(&json), "print one JSON object");
  if (!parse_command_line(arguments, description,
                          "Usage: rastros solve [options]\n"
                          "Solves a position with perfect play: its value for the side to move, "
                          "the winner, the remoteness\n(plies to the end: the winner hurries, the "
                          "loser delays), the best moves, and every legal move's value.")) {
    return 0;
  }
  const PositionInput input = resolve_position(variant, where);
  SolverOptions options;
  options.value_only = value_only;
  options.prune_region = !no_region;
  options.use_symmetry = !no_symmetry;
  options.use_matching = !no_matching;
  options.table_bytes = memory.empty() ? default_table_bytes(value_only) : parse_memory_size(memory);
  const ThreadLimit limit(threads);
  Solver solver(input.rastros, options);

  const auto started = std::chrono::steady_clock::now();
  Analysis analysis;
  {
    ProgressReporter progress(!quiet, [&](double seconds) {
      const double nodes = static_cast<double>(solver.nodes());
      return "searching: " + human_count(nodes) + " nodes, " + human_count(nodes / seconds) +
             " nodes/s, table " + std::to_string(static_cast<int>(solver.table_fill() * 100)) +
             "% full, " + std::to_string(static_cast<int>(seconds)) + " s";
    });
    analysis = solver.analyse(input.position);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  const Board& board = input.rastros.board();
  const Player to_move = input.position.to_move;
  const Value value = analysis.outcome.value;
  // 0 for a draw (no winner).
  const int winner = value == Value::draw  ? 0
                     : value == Value::win ? number_of(to_move)
                                           : number_of(opponent(to_move));
  if (json) {
    // Key order of the contract: value, winner, remoteness.
    Json ordered = position_json(input);
    ordered.set("value", to_string(value));
    ordered.set("winner", winner ? Json(winner) : Json(nullptr));
    if (!value_only) {
      ordered.set("remoteness",
                  analysis.outcome.remoteness ? Json(*analysis.outcome.remoteness) : Json(nullptr));
    }
    Json best = Json::array();
    for (Square move : analysis.best_moves) best.push(square_name(board, move));
    Json children = Json::array();
    for (const MoveOutcome& child : analysis.children) {
      Json entry = Json::object();
      entry.set("move", square_name(board, child.move));
      children.push(outcome_json(entry, child.outcome, value_only));
    }
    ordered.set("best_moves", best)
        .set("children", children)
        .set("nodes", analysis.nodes)
        .set("seconds", seconds);
    std::cout << ordered.dump() << "\n";
    return 0;
  }

  std::cout << "Board " << board.name() << ", " << steps_name(board.steps()) << " steps, "
            << rules_name(input.rastros.stuck_rule()) << " rules, start "
            << square_name(board, input.rastros.start()) << "\n\n"
            << board_diagram(input.rastros, input.position) << "\n"
            << "Position:   " << position_string(board, input.position) << "\n";
  if (!input.moves.empty()) std::cout << "Moves:      " << game_text(board, input.moves) << "\n";
  std::cout << "To move:    player " << number_of(to_move) << "\n"
            << "Value:      " << outcome_text(analysis.outcome) << " for player "
            << number_of(to_move) << "\n"
            << "Winner:     "
            << (winner ? "player " + std::to_string(winner) : std::string("none (draw)"));
  if (analysis.outcome.remoteness && winner) {
    std::cout << ", " << *analysis.outcome.remoteness << " plies with perfect play";
  }
  std::cout << "\n";
  if (!analysis.children.empty()) {
    std::cout << "Best moves: " << game_text(board, analysis.best_moves) << "\nMoves:     ";
    for (const MoveOutcome& child : analysis.children) {
      std::cout << " " << square_name(board, child.move) << " " << outcome_text(child.outcome)
                << ";";
    }
    std::cout << "\n";
  }
  std::cout << "Searched:   " << analysis.nodes << " nodes in " << seconds << " s ("
            << human_count(analysis.nodes / std::max(seconds, 1e-9)) << " nodes/s)\n";
  return 0;
}

}  // namespace rastros::tools
