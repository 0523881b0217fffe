#pragma once
// The options every mancala game's commands share (--houses --seeds, --moves --position) and
// the player names; a game adds its own (Kalah's --rules) between them.

#include <boost/program_options.hpp>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace rastros::tools::mancala_cli {

namespace po = boost::program_options;

struct MancalaOptions {
  int houses = 6;
  int seeds = 4;
  std::optional<std::string> moves;
  std::optional<std::string> position;
};

/// Adds --houses and --seeds.
void add_size_options(po::options_description& description, MancalaOptions& options);
/// Adds --moves and --position; `example` is the start's position string.
void add_position_options(po::options_description& description, MancalaOptions& options,
                          const std::string& example);

/// "player 1" / "player 2".
std::string player_name(int player);

/// Refuses (InputError, "lower --endgame-seeds") an endgame database of `seeds` seeds for
/// `game_name` whose build needs about `bytes`, more than 80% of this machine's memory.
void check_endgame_fits(const std::string& game_name, int seeds, double bytes);
/// What an endgame build tells of its levels: a line on stderr a finished level once it has
/// run a second (a quick build says nothing), nothing when `quiet`.
std::function<void(int seeds, std::uint64_t states)> endgame_build_progress(bool quiet);

}  // namespace rastros::tools::mancala_cli
