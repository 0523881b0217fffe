// `rastros perft --game oware`: count move sequences, the move generator's check.

#include <iostream>

#include "core/errors.hpp"
#include "oware/oware_commands.hpp"
#include "oware/oware_options.hpp"
#include "options.hpp"
#include "perft_output.hpp"

namespace rastros::tools::oware_cli {

using namespace rastros::oware;

int run_perft(const Arguments& arguments) {
  OwareOptions options;
  int depth = -1;
  bool divide = false, json = false;
  po::options_description description("Options");
  description.add_options()("depth", po::value(&depth)->required(), "plies to count (0..40)");
  add_oware_options(description, options);
  description.add_options()("divide", po::bool_switch(&divide), "break the count down by first move")(
      "json", po::bool_switch(&json), "print one JSON object")(
      "quiet", po::bool_switch(), "accepted for uniformity: perft prints nothing on stderr");
  if (!parse_command_line(arguments, description,
                          "Usage: rastros perft --game oware --depth N [options]\n"
                          "Counts the move sequences of exactly N plies from an Oware position.")) {
    return 0;
  }
  if (depth < 0 || depth > 40) throw InputError("--depth must be between 0 and 40");
  const OwareInput input = resolve_input(options);
  const OwareState state = search_state(input.game, input.position);
  print_perft(input.game, state, depth, divide, json,
              [](OwareMove move) { return move_name(move); },
              {variant_json(input.game), "", nullptr, false});
  return 0;
}

}  // namespace rastros::tools::oware_cli
