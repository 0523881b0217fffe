#include "oware/oware_output.hpp"

#include <iostream>

namespace rastros::tools::oware_cli {

using namespace rastros::oware;

namespace {

// The final margin for the side to move: captured so far plus the score from here on.
int final_margin(const OwareReport& report) {
  return captured_margin(report.input.position) + report.analysis.score;
}

std::string basis(const OwareReport& report) {
  const std::string k = std::to_string(report.database_seeds);
  if (report.analysis.source == "database") return "the endgame database (K = " + k + ")";
  return "a search of " + std::to_string(report.analysis.positions) +
         " positions whose leaves are the endgame database (K = " + k + ")";
}

}  // namespace

std::string value_name(const OwareReport& report) {
  const int margin = final_margin(report);
  return margin > 0 ? "win" : margin < 0 ? "loss" : "draw";
}

Json report_json(const OwareReport& report) {
  const Oware& game = report.input.game;
  Json out = position_json(report.input);
  out.set("seeds_on_board", game.seeds_in_play(search_state(game, report.input.position)))
      .set("score", report.analysis.score)
      .set("value", value_name(report));
  Json children = Json::array();
  for (const OwareMoveScore& move : report.analysis.moves) {
    Json child = Json::object();
    child.set("move", move_name(move.move)).set("captures", move.gain).set("score", move.score);
    children.push(child);
  }
  out.set("children", children)
      .set("source", report.analysis.source)
      .set("database_seeds", report.database_seeds)
      .set("positions_searched", report.analysis.positions);
  return out;
}

Json show_json(const OwareInput& input) {
  const Oware& game = input.game;
  const bool ended = has_ended(game, input.position);
  Json out = position_json(input);
  Json legal = Json::array();
  for (const OwareMove move : game.legal_moves(search_state(game, input.position))) {
    legal.push(move_name(move));
  }
  out.set("legal_moves", legal).set("ended", ended);
  if (ended) {
    const auto captures = final_captures(game, input.position);
    out.set("captures", Json::array().push(captures[0]).push(captures[1]));
  }
  return out;
}

void print_report(const OwareReport& report) {
  const OwarePosition& position = report.input.position;
  const int mover = position.to_move + 1;
  std::cout << "Position: " << position_string(report.input.game, position) << "\n"
            << "Score:    " << report.analysis.score << " (net seeds player " << mover
            << " captures from here on)\n"
            << "Value:    " << value_name(report) << " for player " << mover << " (final margin "
            << captured_margin(position) + report.analysis.score << ")\n";
  if (!report.analysis.moves.empty()) {
    std::cout << "Moves:   ";
    for (const OwareMoveScore& move : report.analysis.moves) {
      std::cout << " " << move_name(move.move) << ":" << move.score;
    }
    std::cout << "\n";
  }
  std::cout << "Exact, from " << basis(report) << "\n";
}

}  // namespace rastros::tools::oware_cli
