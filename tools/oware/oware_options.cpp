#include "oware/oware_options.hpp"

namespace rastros::tools::oware_cli {

using namespace rastros::oware;

void add_oware_options(po::options_description& description, OwareOptions& options,
                       bool with_position) {
  description.add_options()("houses", po::value(&options.houses)->default_value(options.houses),
                            "houses per player, 1..8")(
      "seeds", po::value(&options.seeds)->default_value(options.seeds),
      "seeds per house at the start (at most 250 seeds in all)");
  if (!with_position) return;
  description.add_options()(
      "moves", po::value<std::string>()->notifier([&](const std::string& v) { options.moves = v; }),
      "moves from the start, house numbers 1..M counted from the mover's side: \"3 6 1\"")(
      "position",
      po::value<std::string>()->notifier([&](const std::string& v) { options.position = v; }),
      "position string instead of moves (captures where Kalah has stores): "
      "\"4,4,4,4,4,4,0/4,4,4,4,4,4,0 1\"");
}

Oware resolve_game(const OwareOptions& options) {
  return Oware(options.houses, options.seeds);
}

OwareInput resolve_input(const OwareOptions& options) {
  return resolve_oware_input(options.houses, options.seeds, options.moves, options.position);
}

Json variant_json(const Oware& game) {
  Json json = Json::object();
  json.set("game", "oware").set("houses", game.houses()).set("seeds", game.seeds());
  return json;
}

Json position_json(const OwareInput& input) {
  Json json = variant_json(input.game);
  Json moves = Json::array();
  for (const OwareMove move : input.moves) moves.push(move_name(move));
  json.set("moves", moves)
      .set("position", position_string(input.game, input.position))
      .set("to_move", input.position.to_move + 1);
  return json;
}

}  // namespace rastros::tools::oware_cli
