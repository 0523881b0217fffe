// The output of `rastros map`: the grid text and the design's JSON.

#include "map_output.hpp"

#include <algorithm>
#include <sstream>

#include "board_text.hpp"
#include "rastros/notation.hpp"

namespace rastros::tools {

Json map_json(const Rastros& rastros, const std::vector<StartSquareOutcome>& results,
              bool value_only) {
  const Board& board = rastros.board();
  Json squares = Json::object();
  for (const StartSquareOutcome& result : results) {
    Json entry = Json::object();
    if (result.over_budget) {
      // Not solved within --square-seconds: no value is known.
      entry.set("value", "unknown");
      if (!value_only) entry.set("remoteness", Json(nullptr));
      squares.set(square_name(board, result.start), entry);
      continue;
    }
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

namespace {

// "W12", "L7", "D" (no remoteness with --value-only), "?" over budget.
std::string map_cell(const StartSquareOutcome& result) {
  if (result.over_budget) return std::string(1, '?');
  const Outcome& outcome = result.outcome;
  std::string cell(1, outcome.value == Value::win    ? 'W'
                      : outcome.value == Value::loss ? 'L'
                                                     : 'D');
  if (outcome.remoteness) cell += std::to_string(*outcome.remoteness);
  return cell;
}

}  // namespace

std::string map_text(const Rastros& rastros, const std::vector<StartSquareOutcome>& results,
                     bool value_only) {
  const Board& board = rastros.board();
  std::vector<std::string> cells(board.square_count());
  for (const StartSquareOutcome& result : results) cells[result.start] = map_cell(result);
  cells[board.goal_of(Player::one)] = "[1]";
  cells[board.goal_of(Player::two)] = "[2]";
  std::ostringstream out;
  out << "Start-square map, " << board.name() << ", " << steps_name(board.steps()) << " steps, "
      << rules_name(rastros.stuck_rule()) << " rules\n"
      << "Value for player 1 moving first from each square"
      << (value_only ? "" : " (W win, L loss, D draw; number: remoteness in plies)") << "\n";
  if (std::any_of(results.begin(), results.end(),
                  [](const StartSquareOutcome& result) { return result.over_budget; })) {
    out << "?: not solved within the time budget of --square-seconds\n";
  }
  out << "\n"
      << board_grid(board, value_only ? 3 : 4, [&](Square square) { return cells[square]; })
      << "\n";
  return out.str();
}

}  // namespace rastros::tools
