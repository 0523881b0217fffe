// `rastros show --game kalah`: the board, whose turn it is, the legal moves, how the game ended.

#include <iostream>

#include "kalah/kalah_commands.hpp"
#include "kalah/kalah_options.hpp"
#include "kalah/kalah_output.hpp"
#include "options.hpp"

namespace rastros::tools::kalah_cli {

using namespace rastros::kalah;

int run_show(const Arguments& arguments) {
  KalahOptions options;
  bool json = false;
  po::options_description description("Options");
  add_kalah_options(description, options);
  description.add_options()("json", po::bool_switch(&json), "print one JSON object")(
      "quiet", po::bool_switch(), "accepted for uniformity: show prints nothing on stderr");
  if (!parse_command_line(arguments, description,
                          "Usage: rastros show --game kalah [options]\n"
                          "Draws a Kalah position: both rows and stores, whose turn it is, the "
                          "legal moves, and the final stores if the game has ended.")) {
    return 0;
  }
  const KalahInput input = resolve_input(options);
  const Kalah& game = input.game;
  const KalahPosition& position = input.position;
  const bool ended = has_ended(game, position);
  const auto moves = game.legal_moves(search_state(game, position));

  if (json) {
    std::cout << show_json(input).dump() << "\n";
    return 0;
  }
  std::cout << "Kalah(" << game.houses() << "," << game.seeds() << "), " << rules_name(game.rule())
            << " rules\n\n"
            << board_diagram(game, position) << "\n"
            << "Position: " << position_string(game, position) << "\n";
  if (!input.moves.empty()) std::cout << "Moves:    " << moves_text(input.moves) << "\n";
  if (ended) {
    const auto stores = final_stores(game, position);
    std::cout << "The game has ended: player 1 " << stores[0] << ", player 2 " << stores[1];
    if (stores[0] == stores[1]) {
      std::cout << ", a draw\n";
    } else {
      std::cout << ": " << player_name(stores[0] > stores[1] ? 0 : 1) << " wins by "
                << std::abs(stores[0] - stores[1]) << "\n";
    }
    return 0;
  }
  std::cout << "Player " << position.to_move + 1 << " to move. Legal moves:";
  for (const KalahMove move : moves) std::cout << ' ' << move_name(move);
  std::cout << "\n";
  return 0;
}

}  // namespace rastros::tools::kalah_cli
