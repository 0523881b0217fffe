// `rastros show --game congkak`: the board, whose turn it is, the legal moves, how the game
// ended; with --trace, each move of --moves lap by lap (where each lap started and ended).

#include <iostream>

#include "congkak/congkak_commands.hpp"
#include "congkak/congkak_options.hpp"
#include "congkak/congkak_trace.hpp"
#include "core/errors.hpp"
#include "options.hpp"

namespace rastros::tools::congkak_cli {

using namespace rastros::congkak;

int run_show(const Arguments& arguments) {
  CongkakOptions options;
  bool json = false, trace = false;
  po::options_description description("Options");
  add_congkak_options(description, options);
  description.add_options()("trace", po::bool_switch(&trace),
                            "explain each move of --moves lap by lap")(
      "json", po::bool_switch(&json), "print one JSON object")(
      "quiet", po::bool_switch(), "accepted for uniformity: show prints nothing on stderr");
  if (!parse_command_line(arguments, description,
                          "Usage: rastros show --game congkak [options]\n"
                          "Draws a Congkak position: both rows and stores, whose turn it is, the "
                          "legal moves, and the final stores if the game has ended; with --trace "
                          "and --moves, every move's laps.")) {
    return 0;
  }
  if (trace && !options.moves) throw InputError("--trace explains the moves of --moves: give them");
  const CongkakInput input = resolve_input(options);
  const Congkak& game = input.game;
  Json traces = Json::array();
  CongkakPosition position = mancala::start_position(game.board());
  for (std::size_t i = 0; trace && i < input.moves.size(); ++i) {
    const CongkakSowing sowing = sow(game, position, input.moves[i]);
    if (json) {
      traces.push(trace_json(game, sowing));
    } else {
      std::cout << "Move " << i + 1 << ": player " << sowing.mover + 1 << " plays house "
                << mancala::move_name(sowing.move) << "\n"
                << trace_text(game, sowing);
    }
    position = sowing.after;
  }
  const auto view = congkak_view(input);
  if (json) {
    Json out = mancala_cli::show_json(view);
    if (trace) out.set("trace", traces);
    std::cout << out.dump() << "\n";
    return 0;
  }
  if (trace) std::cout << "\n";
  mancala_cli::print_show(view);
  return 0;
}

}  // namespace rastros::tools::congkak_cli
