#include "kalah/kalah_options.hpp"

namespace rastros::tools::kalah_cli {

using namespace rastros::kalah;

void add_kalah_options(po::options_description& description, KalahOptions& options,
                       bool with_position) {
  description.add_options()(
      "houses", po::value(&options.houses)->default_value(options.houses),
      "houses per player, 1..8")("seeds", po::value(&options.seeds)->default_value(options.seeds),
                                 "seeds per house at the start (at most 250 seeds in all)")(
      "rules", po::value(&options.rules)->default_value(options.rules),
      "standard (capture only when the opposite house holds seeds) or empty-capture (the last "
      "seed in an own empty house is always banked)");
  if (!with_position) return;
  description.add_options()(
      "moves", po::value<std::string>()->notifier([&](const std::string& v) { options.moves = v; }),
      "moves from the start, house numbers 1..M counted from the mover's side: \"3 6 1\"")(
      "position",
      po::value<std::string>()->notifier([&](const std::string& v) { options.position = v; }),
      "position string instead of moves: \"4,4,4,4,4,4,0/4,4,4,4,4,4,0 1\"");
}

// Read, as batch lines are, by games/kalah/kalah_input.hpp.
Kalah resolve_game(const KalahOptions& options) {
  return resolve_kalah_variant({options.houses, options.seeds, options.rules});
}

KalahInput resolve_input(const KalahOptions& options) {
  return resolve_kalah_input({options.houses, options.seeds, options.rules}, options.moves,
                             options.position);
}

Json variant_json(const Kalah& game) {
  Json json = Json::object();
  json.set("game", "kalah")
      .set("houses", game.houses())
      .set("seeds", game.seeds())
      .set("rules", rules_name(game.rule()));
  return json;
}

Json position_json(const KalahInput& input) {
  Json json = variant_json(input.game);
  Json moves = Json::array();
  for (const KalahMove move : input.moves) moves.push(move_name(move));
  json.set("moves", moves)
      .set("position", position_string(input.game, input.position))
      .set("to_move", input.position.to_move + 1);
  return json;
}

std::string player_name(int player) {
  return "player " + std::to_string(player + 1);
}

}  // namespace rastros::tools::kalah_cli
