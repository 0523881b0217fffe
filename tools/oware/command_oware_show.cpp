// `rastros show --game oware`: the board, the captures, whose turn it is, the legal moves, how
// the game ended.

#include <iostream>

#include "oware/oware_commands.hpp"
#include "oware/oware_options.hpp"
#include "oware/oware_output.hpp"
#include "options.hpp"

namespace rastros::tools::oware_cli {

using namespace rastros::oware;

int run_show(const Arguments& arguments) {
  OwareOptions options;
  bool json = false;
  po::options_description description("Options");
  add_oware_options(description, options);
  description.add_options()("json", po::bool_switch(&json), "print one JSON object")(
      "quiet", po::bool_switch(), "accepted for uniformity: show prints nothing on stderr");
  if (!parse_command_line(arguments, description,
                          "Usage: rastros show --game oware [options]\n"
                          "Draws an Oware position: both rows, the seeds each player has "
                          "captured, whose turn it is, the legal moves, and the final captures "
                          "if the game has ended.")) {
    return 0;
  }
  const OwareInput input = resolve_input(options);
  const Oware& game = input.game;
  const OwarePosition& position = input.position;
  const bool ended = has_ended(game, position);
  const auto moves = game.legal_moves(search_state(game, position));
  const auto captures = final_captures(game, position);
  if (json) {
    std::cout << show_json(input).dump() << "\n";
    return 0;
  }
  std::cout << "Oware(" << game.houses() << "," << game.seeds() << "), Abapa rules\n\n"
            << board_diagram(game, position) << "\n"
            << "Position: " << position_string(game, position) << "\n";
  if (!input.moves.empty()) std::cout << "Moves:    " << moves_text(input.moves) << "\n";
  if (ended) {
    std::cout << "The game has ended: player 1 captured " << captures[0] << ", player 2 "
              << captures[1];
    if (captures[0] == captures[1]) {
      std::cout << ", a draw\n";
    } else {
      std::cout << ": player " << (captures[0] > captures[1] ? 1 : 2) << " wins\n";
    }
    return 0;
  }
  std::cout << "Player " << position.to_move + 1 << " to move. Legal moves:";
  for (const OwareMove move : moves) std::cout << ' ' << move_name(move);
  std::cout << "\n";
  return 0;
}

}  // namespace rastros::tools::oware_cli
