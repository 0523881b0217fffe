// `rastros perft --game congkak`: count move sequences, the move generator's check. A move
// that earns another turn counts as one ply, and the same player's next move as another.

#include "congkak/congkak_commands.hpp"
#include "congkak/congkak_options.hpp"
#include "core/errors.hpp"
#include "games/mancala/mancala_position.hpp"
#include "perft_output.hpp"
#include "options.hpp"

namespace rastros::tools::congkak_cli {

int run_perft(const Arguments& arguments) {
  CongkakOptions options;
  int depth = -1;
  bool divide = false;
  bool json = false;
  po::options_description description("Options");
  description.add_options()("depth", po::value(&depth)->required(), "plies to count (0..40)");
  add_congkak_options(description, options);
  description.add_options()("divide", po::bool_switch(&divide), "break the count down by first move")(
      "json", po::bool_switch(&json), "print one JSON object")(
      "quiet", po::bool_switch(), "accepted for uniformity: perft prints nothing on stderr");
  if (!parse_command_line(arguments, description,
                          "Usage: rastros perft --game congkak --depth N [options]\n"
                          "Counts the move sequences of exactly N plies from a Congkak position. "
                          "Every move is a ply, a move that earns another turn included.")) {
    return 0;
  }
  if (depth < 0 || depth > 40) throw InputError("--depth must be between 0 and 40");
  const auto input = resolve_input(options);
  print_perft(input.game, congkak::search_state(input.game, input.position), depth, divide, json,
              mancala::move_name, {variant_json(input.game), "", nullptr, true});
  return 0;
}

}  // namespace rastros::tools::congkak_cli
