#pragma once
// The options every `--game congkak` command shares (--houses --seeds --moves --position, by
// default the traditional Congkak(7, 7)) and what the shared mancala printers need.

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

}  // namespace rastros::tools::congkak_cli
