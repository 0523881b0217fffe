#pragma once
// `rastros serve`'s options for the mancala games (--game kalah, congkak or oware) and setting
// the Api up for the one asked for.

#include <boost/program_options.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kalah/kalah_endgame_options.hpp"
#include "serve/api.hpp"

namespace rastros::tools::serve {

/// --houses --seeds (no defaults here: each game has its own), --rules (Kalah), --endgame FILE
/// and --endgame-seeds K (Kalah and Oware), --max-positions (Oware).
struct MancalaServeOptions {
  std::optional<int> houses;
  std::optional<int> seeds;
  std::optional<std::string> rules;
  kalah_cli::EndgameOptions endgame;
  std::optional<std::uint64_t> max_positions;
};
void add_mancala_serve_options(boost::program_options::options_description& description,
                               MancalaServeOptions& options);

/// Sets `api` up for the mancala game of `arguments` (--game): Kalah (default Kalah(4,4),
/// standard rules, and its endgame database, built or read from --endgame), Congkak (default
/// Congkak(7,7); the page may start any variant) or Oware (default Oware(6,4), its endgame
/// database read from --endgame or built in memory); for any other game, checks that none of
/// these options was given. Throws InputError for options that do not apply (--db with a
/// mancala game, --houses without one, --rules without kalah), FileError for an unusable
/// --endgame file. Returns a line describing the game served ("kalah(4,4), endgame database of
/// 20 seeds"), empty for another game.
std::string configure_mancala(Api& api, const std::vector<std::string>& arguments,
                              const MancalaServeOptions& options,
                              const std::vector<std::string>& databases, bool quiet);

}  // namespace rastros::tools::serve
