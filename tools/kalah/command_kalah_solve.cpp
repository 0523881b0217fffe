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
#include "options.hpp"
#include "progress.hpp"

namespace rastros::tools::kalah_cli {

using namespace rastros::kalah;

namespace {

std::string value_text(Value value, int to_move, std::optional<int> score) {
  if (value == Value::draw) return "draw";
  const int winner = value == Value::win ? to_move : 1 - to_move;
  std::string text = std::string(to_string(value)) + " for " + player_name(to_move);
  if (score) text += " (" + player_name(winner) + " wins by " + std::to_string(std::abs(*score)) + ")";
  return text;
}

void print_text(const KalahInput& input, const KalahResult& result, bool root_only,
                std::uint64_t nodes, double seconds) {
  const Kalah& game = input.game;
  std::cout << "Kalah(" << game.houses() << "," << game.seeds() << "), " << rules_name(game.rule())
            << " rules\n\n"
            << board_diagram(game, input.position) << "\n"
            << "Position:   " << position_string(game, input.position) << "\n";
  if (!input.moves.empty()) std::cout << "Moves:      " << moves_text(input.moves) << "\n";
  std::cout << "To move:    " << player_name(input.position.to_move) << "\n"
            << "Value:      " << value_text(result.value, input.position.to_move, result.score) << "\n";
  if (result.score) {
    std::cout << "Score:      " << (*result.score > 0 ? "+" : "") << *result.score
              << " (the mover's store minus the opponent's at the end, perfect play)\n";
  }
  if (!root_only && !result.children.empty()) {
    std::cout << "Best moves:";
    for (const KalahMove move : result.best_moves) std::cout << ' ' << move_name(move);
    std::cout << "\nMoves:     ";
    for (const auto& child : result.children) {
      std::cout << ' ' << move_name(child.move) << ' ';
      if (child.score) {
        std::cout << (*child.score > 0 ? "+" : "") << *child.score;
      } else {
        std::cout << to_string(child.value);
      }
      std::cout << ';';
    }
    std::cout << "\n";
  }
  std::cout << "Searched:   " << nodes << " nodes in " << seconds << " s ("
            << human_count(seconds > 0 ? static_cast<double>(nodes) / seconds : 0) << " nodes/s)\n";
}

Json result_json(const KalahInput& input, const KalahResult& result, bool root_only,
                 std::uint64_t nodes, double seconds, int endgame_seeds) {
  Json out = position_json(input);
  const int to_move = input.position.to_move;
  out.set("value", to_string(result.value))
      .set("winner", result.value == Value::draw
                         ? Json(nullptr)
                         : Json((result.value == Value::win ? to_move : 1 - to_move) + 1));
  if (result.score) out.set("score", *result.score);
  if (!root_only) {
    Json best = Json::array();
    for (const KalahMove move : result.best_moves) best.push(move_name(move));
    Json children = Json::array();
    for (const auto& child : result.children) {
      Json entry = Json::object();
      entry.set("move", move_name(child.move)).set("value", to_string(child.value));
      if (child.score) entry.set("score", *child.score);
      children.push(entry);
    }
    out.set("best_moves", best).set("children", children);
  }
  out.set("endgame_seeds", endgame_seeds).set("nodes", nodes).set("seconds", seconds);
  return out;
}

}  // namespace

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
    std::cout << result_json(input, result, root_only, solver.nodes(), seconds, endgame_seeds).dump()
              << "\n";
  } else {
    print_text(input, result, root_only, solver.nodes(), seconds);
  }
  return 0;
}

}  // namespace rastros::tools::kalah_cli
