// The output of `rastros solve` for one position (text or the design's JSON), shared with
// `rastros query`, `rastros batch` and the web API.

#include "analysis_output.hpp"

#include <algorithm>
#include <iostream>

#include "board_text.hpp"
#include "progress.hpp"

namespace rastros::tools {
namespace {

// The number of the winning player, 0 for a draw (no winner).
int winner_number(Value value, Player to_move) {
  return value == Value::draw  ? 0
         : value == Value::win ? number_of(to_move)
                               : number_of(opponent(to_move));
}

Json outcome_json(Json json, const Outcome& outcome, bool value_only) {
  json.set("value", to_string(outcome.value));
  if (!value_only) {
    json.set("remoteness", outcome.remoteness ? Json(*outcome.remoteness) : Json(nullptr));
  }
  return json;
}

}  // namespace

Json analysis_json(const AnalysisReport& report) {
  const PositionInput& input = report.input;
  const Analysis& analysis = report.analysis;
  const bool value_only = report.value_only;
  const Board& board = input.rastros.board();
  const Value value = analysis.outcome.value;
  // Key order of the contract: value, winner, remoteness.
  Json ordered = position_json(input);
  ordered.set("value", to_string(value));
  const int winner = winner_number(value, input.position.to_move);
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
  if (!report.root_only) ordered.set("best_moves", best).set("children", children);
  if (report.timing) ordered.set("nodes", analysis.nodes).set("seconds", report.seconds);
  if (report.source) ordered.set("source", *report.source);
  return ordered;
}

void print_analysis(const AnalysisReport& report, bool json) {
  if (json) {
    std::cout << analysis_json(report).dump() << "\n";
    return;
  }
  const PositionInput& input = report.input;
  const Analysis& analysis = report.analysis;
  const double seconds = report.seconds;
  const Board& board = input.rastros.board();
  const Player to_move = input.position.to_move;
  const int winner = winner_number(analysis.outcome.value, to_move);

  std::cout << "Board " << board.name() << ", " << steps_name(board.steps()) << " steps, "
            << rules_name(input.rastros.stuck_rule()) << " rules, start "
            << start_name(input.rastros) << "\n\n"
            << board_diagram(input.rastros, input.position) << "\n"
            << "Position:   " << position_string(board, input.position) << "\n";
  if (!input.moves.empty()) std::cout << "Moves:      " << game_text(board, input.moves) << "\n";
  std::cout << "To move:    player " << number_of(to_move) << "\n"
            << "Value:      " << to_string(analysis.outcome) << " for player " << number_of(to_move)
            << "\n"
            << "Winner:     "
            << (winner ? "player " + std::to_string(winner) : std::string("none (draw)"));
  if (analysis.outcome.remoteness && winner) {
    std::cout << ", " << *analysis.outcome.remoteness << " plies with perfect play";
  }
  std::cout << "\n";
  if (!analysis.children.empty()) {
    std::cout << "Best moves: " << game_text(board, analysis.best_moves) << "\nMoves:     ";
    for (const MoveOutcome& child : analysis.children) {
      std::cout << " " << square_name(board, child.move) << " " << to_string(child.outcome) << ";";
    }
    std::cout << "\n";
  }
  if (report.source == "database") {
    std::cout << "Source:     database, answered in " << seconds * 1e6 << " us\n";
    return;
  }
  if (report.source) std::cout << "Source:     search (the database lacks this position)\n";
  std::cout << "Searched:   " << analysis.nodes << " nodes in " << seconds << " s ("
            << human_count(analysis.nodes / std::max(seconds, 1e-9)) << " nodes/s)\n";
}

}  // namespace rastros::tools
