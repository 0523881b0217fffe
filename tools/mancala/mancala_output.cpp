#include "mancala/mancala_output.hpp"

#include <cmath>
#include <iostream>

#include "mancala/mancala_options.hpp"
#include "progress.hpp"
#include "score_result_json.hpp"

namespace rastros::tools::mancala_cli {

using namespace rastros::mancala;

std::string value_text(Value value, int to_move, std::optional<int> score) {
  if (value == Value::draw) return "draw";
  const int winner = value == Value::win ? to_move : 1 - to_move;
  std::string text = std::string(to_string(value)) + " for " + player_name(to_move);
  if (score) text += " (" + player_name(winner) + " wins by " + std::to_string(std::abs(*score)) + ")";
  return text;
}

void print_text(const MancalaReport& report) {
  const MancalaView& input = report.view;
  const MancalaResult& result = report.result;
  std::cout << input.title << "\n\n"
            << board_diagram(input.board, input.position) << "\n"
            << "Position:   " << position_string(input.board, input.position) << "\n";
  if (!input.moves.empty()) std::cout << "Moves:      " << moves_text(input.moves) << "\n";
  std::cout << "To move:    " << player_name(input.position.to_move) << "\n"
            << "Value:      " << value_text(result.value, input.position.to_move, result.score) << "\n";
  if (result.score) {
    std::cout << "Score:      " << (*result.score > 0 ? "+" : "") << *result.score
              << " (the mover's store minus the opponent's at the end, perfect play)\n";
  }
  if (!report.root_only && !result.children.empty()) {
    std::cout << "Best moves:";
    for (const MancalaMove move : result.best_moves) std::cout << ' ' << move_name(move);
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
  if (report.source) std::cout << "Source:     " << *report.source << "\n";
  if (report.nodes > 0) {
    std::cout << "Searched:   " << report.nodes << " nodes in " << report.seconds << " s ("
              << human_count(report.seconds > 0 ? static_cast<double>(report.nodes) / report.seconds : 0)
              << " nodes/s)\n";
  }
}

Json result_json(const MancalaReport& report) {
  const MancalaView& input = report.view;
  const MancalaResult& result = report.result;
  Json out = position_json(input);
  const int to_move = input.position.to_move;
  set_score_result(out, result, to_move, report.root_only,
                   [](MancalaMove move) { return move_name(move); });
  if (report.source) out.set("source", *report.source);
  out.set("endgame_seeds", report.endgame_seeds);
  if (report.timing) out.set("nodes", report.nodes).set("seconds", report.seconds);
  return out;
}
Json position_json(const MancalaView& view) {
  Json json = view.variant;
  Json moves = Json::array();
  for (const MancalaMove move : view.moves) moves.push(move_name(move));
  json.set("moves", moves)
      .set("position", position_string(view.board, view.position))
      .set("to_move", view.position.to_move + 1);
  return json;
}

Json show_json(const MancalaView& view) {
  const MancalaPosition& position = view.position;
  const bool ended = has_ended(view.board, position);
  Json out = position_json(view);
  Json legal = Json::array();
  for (const MancalaMove move : view.legal_moves) legal.push(move_name(move));
  out.set("legal_moves", legal).set("ended", ended);
  if (ended) {
    const auto stores = final_stores(view.board, position);
    const int margin = stores[position.to_move] - stores[1 - position.to_move];
    out.set("score", margin)
        .set("winner", stores[0] == stores[1] ? Json(nullptr)
                                              : Json(stores[0] > stores[1] ? 1 : 2));
  }
  return out;
}

void print_show(const MancalaView& view) {
  const MancalaPosition& position = view.position;
  std::cout << view.title << "\n\n"
            << board_diagram(view.board, position) << "\n"
            << "Position: " << position_string(view.board, position) << "\n";
  if (!view.moves.empty()) std::cout << "Moves:    " << moves_text(view.moves) << "\n";
  if (has_ended(view.board, position)) {
    const auto stores = final_stores(view.board, position);
    std::cout << "The game has ended: player 1 " << stores[0] << ", player 2 " << stores[1];
    if (stores[0] == stores[1]) {
      std::cout << ", a draw\n";
    } else {
      std::cout << ": " << player_name(stores[0] > stores[1] ? 0 : 1) << " wins by "
                << std::abs(stores[0] - stores[1]) << "\n";
    }
    return;
  }
  std::cout << "Player " << position.to_move + 1 << " to move. Legal moves:";
  for (const MancalaMove move : view.legal_moves) std::cout << ' ' << move_name(move);
  std::cout << "\n";
}

}  // namespace rastros::tools::mancala_cli
