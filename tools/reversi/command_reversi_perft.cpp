// `rastros perft --game reversi`: count move sequences, the move generator's check. A pass is
// a move (a ply) when it is the only one; a game that has ended has no moves.

#include <iostream>

#include "core/errors.hpp"
#include "options.hpp"
#include "perft_output.hpp"
#include "reversi/reversi_commands.hpp"
#include "reversi/reversi_options.hpp"

namespace rastros::tools::reversi_cli {

using namespace rastros::reversi;

int run_perft(const Arguments& arguments) {
  ReversiOptions options;
  int depth = -1;
  bool divide = false, json = false;
  po::options_description description("Options");
  description.add_options()("depth", po::value(&depth)->required(), "plies to count (0..20)");
  add_reversi_options(description, options);
  description.add_options()("divide", po::bool_switch(&divide), "break the count down by first move")(
      "json", po::bool_switch(&json), "print one JSON object")(
      "quiet", po::bool_switch(), "accepted for uniformity: perft prints nothing on stderr");
  if (!parse_command_line(arguments, description,
                          "Usage: rastros perft --game reversi --depth N [options]\n"
                          "Counts the move sequences of exactly N plies from a Reversi position. "
                          "A forced pass counts as a ply; a game that has ended has no moves.")) {
    return 0;
  }
  if (depth < 0 || depth > 20) throw InputError("--depth must be between 0 and 20");
  const ReversiInput input = resolve_input(options);
  const ReversiState state = search_state(input.position);
  print_perft(input.game, state, depth, divide, json,
              [](ReversiMove move) { return move_name(move); },
              {position_json(input), " (passes count as moves)", "passes_count", true});
  return 0;
}

}  // namespace rastros::tools::reversi_cli
