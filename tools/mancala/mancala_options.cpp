#include "mancala/mancala_options.hpp"

namespace rastros::tools::mancala_cli {

void add_size_options(po::options_description& description, MancalaOptions& options) {
  description.add_options()(
      "houses", po::value(&options.houses)->default_value(options.houses),
      "houses per player, 1..8")("seeds", po::value(&options.seeds)->default_value(options.seeds),
                                 "seeds per house at the start (at most 250 seeds in all)");
}

void add_position_options(po::options_description& description, MancalaOptions& options,
                          const std::string& example) {
  description.add_options()(
      "moves", po::value<std::string>()->notifier([&](const std::string& v) { options.moves = v; }),
      "moves from the start, house numbers 1..M counted from the mover's side: \"3 6 1\"")(
      "position",
      po::value<std::string>()->notifier([&](const std::string& v) { options.position = v; }),
      ("position string instead of moves: \"" + example + "\"").c_str());
}

std::string player_name(int player) {
  return "player " + std::to_string(player + 1);
}

}  // namespace rastros::tools::mancala_cli
