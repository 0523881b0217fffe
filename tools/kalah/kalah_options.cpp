#include "kalah/kalah_options.hpp"

namespace rastros::tools::kalah_cli {

using namespace rastros::kalah;

void add_kalah_options(po::options_description& description, KalahOptions& options,
                       bool with_position) {
  mancala_cli::add_size_options(description, options);
  description.add_options()(
      "rules", po::value(&options.rules)->default_value(options.rules),
      "standard (capture only when the opposite house holds seeds) or empty-capture (the last "
      "seed in an own empty house is always banked)");
  if (with_position) {
    mancala_cli::add_position_options(description, options, "4,4,4,4,4,4,0/4,4,4,4,4,4,0 1");
  }
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
  return mancala_cli::position_json(kalah_view(input));
}

mancala_cli::MancalaView kalah_view(const KalahInput& input) {
  const Kalah& game = input.game;
  mancala_cli::MancalaView view{board_of(game),
                                "Kalah(" + std::to_string(game.houses()) + "," +
                                    std::to_string(game.seeds()) + "), " +
                                    std::string(rules_name(game.rule())) + " rules",
                                variant_json(game),
                                input.moves,
                                input.position,
                                {}};
  for (const KalahMove move : game.legal_moves(search_state(game, input.position))) {
    view.legal_moves.push_back(move);
  }
  return view;
}

}  // namespace rastros::tools::kalah_cli
