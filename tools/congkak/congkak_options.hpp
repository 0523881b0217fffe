#pragma once
// The options every `--game congkak` command shares (--houses --seeds --moves --position, by
// default the traditional Congkak(7, 7)) and what the shared mancala printers need.

#include <memory>
#include <optional>

#include "games/congkak/congkak_endgame.hpp"
#include "games/congkak/congkak_position.hpp"
#include "json.hpp"
#include "mancala/mancala_options.hpp"
#include "mancala/mancala_output.hpp"

namespace rastros::tools::congkak_cli {

namespace po = boost::program_options;

struct CongkakOptions : mancala_cli::MancalaOptions {
  CongkakOptions() {
    houses = 7;
    seeds = 7;
  }
};

/// Adds --houses --seeds, and --moves --position when `with_position`.
void add_congkak_options(po::options_description& description, CongkakOptions& options,
                         bool with_position = true);
congkak::CongkakInput resolve_input(const CongkakOptions& options);
/// "game", "houses", "seeds".
Json variant_json(const congkak::Congkak& game);
mancala_cli::MancalaView congkak_view(const congkak::CongkakInput& input);

/// Adds --endgame-seeds K: the endgame database by seeds built in memory before a search.
void add_endgame_seeds_option(po::options_description& description, std::optional<int>& seeds);
/// The database a search uses: built up to --endgame-seeds (by default as many seeds as
/// build in well under a second), or none with -1. Says how it goes on stderr when the build
/// takes more than a second, unless `quiet`. Throws InputError for a K out of range or a build
/// that would not fit in memory.
std::shared_ptr<const congkak::CongkakEndgame> endgame_for_search(const congkak::Congkak& game,
                                                                  std::optional<int> seeds,
                                                                  bool quiet);

}  // namespace rastros::tools::congkak_cli
