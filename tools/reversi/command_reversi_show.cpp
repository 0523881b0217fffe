// `rastros show --game reversi`: the board with coordinates, whose turn it is, the legal moves
// (marked * on the board), the disc count, and how the game ended.

#include <iostream>

#include "games/reversi/reversi_analysis.hpp"
#include "options.hpp"
#include "reversi/reversi_commands.hpp"
#include "reversi/reversi_options.hpp"

namespace rastros::tools::reversi_cli {

using namespace rastros::reversi;

int run_show(const Arguments& arguments) {
  ReversiOptions options;
  bool json = false;
  po::options_description description("Options");
  add_reversi_options(description, options);
  description.add_options()("json", po::bool_switch(&json), "print one JSON object")(
      "quiet", po::bool_switch(), "accepted for uniformity: show prints nothing on stderr");
  if (!parse_command_line(arguments, description,
                          "Usage: rastros show --game reversi [options]\n"
                          "Draws a Reversi position: the board (legal moves marked *), whose turn "
                          "it is, the legal moves, and the final margin if the game has ended.")) {
    return 0;
  }
  const ReversiInput input = resolve_input(options);
  const ReversiState state = search_state(input.position);
  const bool ended = input.game.is_terminal(state);
  const auto moves = input.game.legal_moves(state);
  const int black = reversi::count(input.position.black);
  const int white = reversi::count(input.position.white);
  if (json) {
    std::cout << show_json(input).dump() << "\n";
    return 0;
  }
  std::cout << "Reversi " << input.game.size() << "x" << input.game.size() << "\n\n"
            << board_diagram(input) << "\n"
            << "Position: " << position_string(input.game, input.position) << "\n";
  if (!input.moves.empty()) std::cout << "Moves:    " << moves_text(input.moves) << "\n";
  std::cout << "Discs:    X " << black << ", O " << white << "\n";
  if (ended) {
    const int margin = input.game.terminal_score(state);
    const int black_margin = input.position.to_move == 0 ? margin : -margin;
    std::cout << "The game has ended: "
              << (black_margin == 0 ? std::string("a draw")
                                    : side_name(black_margin > 0 ? 0 : 1) + " wins by " +
                                          std::to_string(std::abs(black_margin)))
              << " (empty squares to the winner)\n";
    return 0;
  }
  std::cout << side_name(input.position.to_move) << " to move. Legal moves:";
  for (const ReversiMove move : moves) std::cout << ' ' << move_name(move);
  std::cout << "\n";
  return 0;
}

}  // namespace rastros::tools::reversi_cli
