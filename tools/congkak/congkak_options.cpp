#include "congkak/congkak_options.hpp"

namespace rastros::tools::congkak_cli {

using namespace rastros::congkak;

void add_congkak_options(po::options_description& description, CongkakOptions& options,
                         bool with_position) {
  mancala_cli::add_size_options(description, options);
  if (with_position) {
    mancala_cli::add_position_options(description, options,
                                      "7,7,7,7,7,7,7,0/7,7,7,7,7,7,7,0 1");
  }
}

CongkakInput resolve_input(const CongkakOptions& options) {
  return resolve_congkak_input(options.houses, options.seeds, options.moves, options.position);
}

Json variant_json(const Congkak& game) {
  Json json = Json::object();
  json.set("game", "congkak").set("houses", game.houses()).set("seeds", game.seeds());
  return json;
}

mancala_cli::MancalaView congkak_view(const CongkakInput& input) {
  const Congkak& game = input.game;
  mancala_cli::MancalaView view{game.board(),
                                "Congkak(" + std::to_string(game.houses()) + "," +
                                    std::to_string(game.seeds()) + ")",
                                variant_json(game),
                                input.moves,
                                input.position,
                                {}};
  for (const CongkakMove move : game.legal_moves(search_state(game, input.position))) {
    view.legal_moves.push_back(move);
  }
  return view;
}

}  // namespace rastros::tools::congkak_cli
