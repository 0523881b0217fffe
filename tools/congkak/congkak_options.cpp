#include "congkak/congkak_options.hpp"

#include <algorithm>

#include "core/errors.hpp"

namespace rastros::tools::congkak_cli {

using namespace rastros::congkak;

void add_congkak_options(po::options_description& description, CongkakOptions& options,
                         bool with_position) {
  mancala_cli::add_size_options(description, options);
  if (with_position) {
    mancala_cli::add_position_options(description, options, "7,7,7,7,7,7,7,0/7,7,7,7,7,7,7,0 1");
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
  mancala_cli::MancalaView view{
      game.board(),
      "Congkak(" + std::to_string(game.houses()) + "," + std::to_string(game.seeds()) + ")",
      variant_json(game),
      input.moves,
      input.position,
      {}};
  for (const CongkakMove move : game.legal_moves(search_state(game, input.position))) {
    view.legal_moves.push_back(move);
  }
  return view;
}

namespace {

// A database of this many states builds in a fraction of a second and answers every position
// near the end of a game at once (Kalah's choice too).
constexpr std::uint64_t kAutoStates = std::uint64_t{2} << 20;

}  // namespace

void add_endgame_seeds_option(po::options_description& description, std::optional<int>& seeds) {
  description.add_options()(
      "endgame-seeds", po::value<int>()->notifier([&](int v) { seeds = v; }),
      "build an endgame database of the states with at most this many seeds in play first "
      "(default: as many as build in well under a second; -1: none)");
}

std::shared_ptr<const CongkakEndgame> endgame_for_search(const Congkak& game,
                                                         std::optional<int> seeds, bool quiet) {
  const int k = seeds.value_or(CongkakEndgame::seeds_within(game, kAutoStates));
  if (k == -1) return nullptr;
  const int most = std::min(127, game.total_seeds());
  if (k < -1 || k > most) {
    throw InputError("--endgame-seeds must be between -1 and " + std::to_string(most) + ", not " +
                     std::to_string(k));
  }
  // The levels kept, and the last one twice while it fills.
  mancala_cli::check_endgame_fits(
      game.name(), k,
      static_cast<double>(CongkakEndgame::states_up_to(game, k) + game.level_size(k)));
  return std::make_shared<CongkakEndgame>(
      CongkakEndgame::build(game, k, mancala_cli::endgame_build_progress(quiet)));
}

}  // namespace rastros::tools::congkak_cli
