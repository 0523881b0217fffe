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
  if (json) {
    std::cout << show_json(input).dump() << "\n";
  } else {
    mancala_cli::print_show(kalah_view(input));
  }
  return 0;
}

}  // namespace rastros::tools::kalah_cli
