#pragma once
// The options every `--game oware` command shares (--houses --seeds --moves --position), their
// resolution into a checked variant and position, and the JSON keys naming them. (The Oware
// twins of tools/kalah/kalah_options.hpp: candidates for a shared mancala layer.)

#include <boost/program_options.hpp>
#include <optional>
#include <string>

#include "games/oware/oware.hpp"
#include "games/oware/oware_input.hpp"
#include "json.hpp"

namespace rastros::tools::oware_cli {

namespace po = boost::program_options;

struct OwareOptions {
  int houses = 6;
  int seeds = 4;
  std::optional<std::string> moves;
  std::optional<std::string> position;
};

using oware::OwareInput;

/// Adds --houses --seeds, and --moves --position when `with_position`.
void add_oware_options(po::options_description& description, OwareOptions& options,
                       bool with_position = true);

/// Throws InputError naming what is wrong (both --moves and --position, a bad move, ...).
oware::Oware resolve_game(const OwareOptions& options);
OwareInput resolve_input(const OwareOptions& options);

/// "game", "houses", "seeds".
Json variant_json(const oware::Oware& game);
/// The variant's keys, then "moves", "position", "to_move".
Json position_json(const OwareInput& input);

}  // namespace rastros::tools::oware_cli
