#pragma once
// The options every `--game kalah` command shares (--houses --seeds --rules --moves
// --position) and their resolution into a checked variant and position.

#include <boost/program_options.hpp>
#include <optional>
#include <string>
#include <vector>

#include "games/kalah/kalah.hpp"
#include "games/kalah/kalah_input.hpp"
#include "games/kalah/kalah_position.hpp"
#include "json.hpp"
#include "mancala/mancala_options.hpp"
#include "mancala/mancala_output.hpp"

namespace rastros::tools::kalah_cli {

namespace po = boost::program_options;

struct KalahOptions : mancala_cli::MancalaOptions {
  std::string rules = "standard";
};

using kalah::KalahInput;

/// Adds --houses --seeds --rules, and --moves --position when `with_position`.
void add_kalah_options(po::options_description& description, KalahOptions& options,
                       bool with_position = true);

kalah::Kalah resolve_game(const KalahOptions& options);
KalahInput resolve_input(const KalahOptions& options);

/// "game", "houses", "seeds", "rules".
Json variant_json(const kalah::Kalah& game);
/// The variant's keys, then "moves", "position", "to_move".
Json position_json(const KalahInput& input);

using mancala_cli::player_name;
/// What the shared mancala printers (mancala/mancala_output.hpp) need of a Kalah position.
mancala_cli::MancalaView kalah_view(const KalahInput& input);

}  // namespace rastros::tools::kalah_cli
