#include "serve/mancala_serve.hpp"

#include "core/errors.hpp"
#include "game_registry.hpp"
#include "oware/oware_endgame_options.hpp"
#include "serve/congkak_api.hpp"
#include "serve/kalah_api.hpp"
#include "serve/oware_api.hpp"

namespace rastros::tools::serve {

namespace {

/// The first option given that `game` does not take, or nullptr.
const char* option_not_for(const std::string& game, const MancalaServeOptions& options) {
  const bool mancala = game == "kalah" || game == "congkak" || game == "oware";
  if (!mancala && options.houses) return "--houses";
  if (!mancala && options.seeds) return "--seeds";
  if (game != "kalah" && options.rules) return "--rules";
  if (game != "kalah" && game != "oware" && options.endgame.file) return "--endgame";
  if (game != "kalah" && game != "oware" && options.endgame.seeds) return "--endgame-seeds";
  if (game != "oware" && options.max_positions) return "--max-positions";
  return nullptr;
}

/// The game it applies to, for the message of an option given with another.
const char* game_of_option(const std::string& option) {
  if (option == "--rules") return "kalah";
  if (option == "--max-positions") return "oware";
  if (option == "--endgame" || option == "--endgame-seeds") return "kalah or oware";
  return "kalah, congkak or oware";
}

std::string serve_kalah(Api& api, const MancalaServeOptions& options, bool quiet) {
  const kalah::Kalah game(options.houses.value_or(4), options.seeds.value_or(4),
                          kalah::parse_rules(options.rules.value_or("standard")));
  KalahServe serve{game, kalah_cli::endgame_for_search(game, options.endgame, quiet),
                   options.endgame.file.value_or("")};
  std::string line = game.name();
  line += serve.endgame ? ", endgame database of " + std::to_string(serve.endgame->max_seeds()) +
                              " seeds in play"
                        : ", no endgame database";
  api.serve_kalah(std::move(serve));
  return line;
}

std::string serve_congkak(Api& api, const MancalaServeOptions& options) {
  const congkak::Congkak game(options.houses.value_or(7), options.seeds.value_or(7));
  api.serve_congkak({game});
  return game.name() + " (the page may start any variant), live solver";
}

std::string serve_oware(Api& api, const MancalaServeOptions& options, bool quiet) {
  const oware::Oware game(options.houses.value_or(6), options.seeds.value_or(4));
  auto database =
      oware_cli::database_for_solve(game, options.endgame.file, options.endgame.seeds, quiet);
  OwareServe serve =
      make_oware_serve(game, std::move(database), options.endgame.file.value_or(""),
                       options.max_positions.value_or(OwareServe{}.max_positions));
  std::string line = game.name() + " (the page may start any variant), endgame database of " +
                     std::to_string(serve.database->max_seeds()) +
                     " seeds on the board, searches of at most " +
                     std::to_string(serve.max_positions) + " positions beyond it";
  api.serve_oware(std::move(serve));
  return line;
}

}  // namespace

void add_mancala_serve_options(boost::program_options::options_description& description,
                               MancalaServeOptions& options) {
  namespace po = boost::program_options;
  description.add_options()(
      "houses", po::value<int>()->notifier([&](int v) { options.houses = v; }),
      "with --game kalah, congkak or oware: houses per player, 1..8 (default 4, 7, 6)")(
      "seeds", po::value<int>()->notifier([&](int v) { options.seeds = v; }),
      "with --game kalah, congkak or oware: seeds per house at the start (default 4, 7, 4)")(
      "rules", po::value<std::string>()->notifier([&](const std::string& v) { options.rules = v; }),
      "with --game kalah: standard or empty-capture (default standard)")(
      "max-positions",
      po::value<std::uint64_t>()->notifier([&](std::uint64_t v) { options.max_positions = v; }),
      "with --game oware: the most positions beyond the endgame database a solve may gather; "
      "beyond, the answer is unknown (default 2000000)");
  kalah_cli::add_endgame_options(description, options.endgame);
}

std::string configure_mancala(Api& api, const std::vector<std::string>& arguments,
                              const MancalaServeOptions& options,
                              const std::vector<std::string>& databases, bool quiet) {
  const std::string game = game_of(arguments);
  if (const char* given = option_not_for(game, options)) {
    throw InputError(std::string(given) + " applies to rastros serve --game " +
                     game_of_option(given));
  }
  if (game != "kalah" && game != "congkak" && game != "oware") return "";
  if (!databases.empty()) {
    throw InputError(
        "--db reads Rastros databases: with --game " + game +
        (game == "congkak" ? " give none" : " give an endgame database with --endgame FILE"));
  }
  if (game == "kalah") return serve_kalah(api, options, quiet);
  if (game == "congkak") return serve_congkak(api, options);
  return serve_oware(api, options, quiet);
}

}  // namespace rastros::tools::serve
