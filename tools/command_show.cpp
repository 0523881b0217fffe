// `rastros show`: draw a position, its legal moves and whether the game has ended.

#include <iostream>

#include "board_text.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace rastros::tools {

int run_show(const Arguments& arguments) {
  VariantOptions variant;
  PositionOptions where;
  bool json = false;
  po::options_description description("Options");
  add_variant_options(description, variant);
  add_position_options(description, where);
  description.add_options()("json", po::bool_switch(&json), "print one JSON object")(
      "quiet", po::bool_switch(), "accepted for uniformity: show prints nothing on stderr");
  if (!parse_command_line(arguments, description,
                          "Usage: rastros show [options]\n"
                          "Draws a position: the board, whose turn it is, the legal moves, and "
                          "how the game ended if it has.")) {
    return 0;
  }
  const PositionInput input = resolve_position(variant, where);
  const Rastros& rastros = input.rastros;
  const Board& board = rastros.board();
  const bool ended = rastros.has_ended(input.position);

  if (json) {
    Json out = position_json(input);
    Json legal = Json::array();
    for (Square move : rastros.legal_moves(input.position)) legal.push(square_name(board, move));
    out.set("legal_moves", legal).set("ended", ended);
    if (ended) {
      const auto winner = rastros.winner(input.position);
      out.set("winner", winner ? Json(number_of(*winner)) : Json(nullptr));
    }
    std::cout << out.dump() << "\n";
    return 0;
  }

  std::cout << "Board " << board.name() << ", " << steps_name(board.steps()) << " steps, "
            << rules_name(rastros.stuck_rule()) << " rules, start " << start_name(rastros) << "\n\n"
            << board_diagram(rastros, input.position) << "\n"
            << "o snail   x slime   1 player 1's goal   2 player 2's goal\n\n"
            << "Position: " << position_string(board, input.position) << "\n";
  if (!input.moves.empty()) std::cout << "Moves:    " << game_text(board, input.moves) << "\n";
  if (ended) {
    std::cout << ending_text(rastros, input.position) << "\n";
    return 0;
  }
  std::cout << "Player " << number_of(input.position.to_move) << " to move. Legal moves:";
  for (Square move : rastros.legal_moves(input.position)) {
    std::cout << ' ' << square_name(board, move);
  }
  std::cout << "\n";
  return 0;
}

}  // namespace rastros::tools
