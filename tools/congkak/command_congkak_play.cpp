// `rastros play --game congkak`: a game against perfect play, commands on stdin.

#include <optional>

#include "congkak/congkak_commands.hpp"
#include "congkak/congkak_options.hpp"
#include "core/errors.hpp"
#include "games/congkak/congkak_analysis.hpp"
#include "games/mancala/mancala_play.hpp"
#include "mancala/mancala_play_loop.hpp"
#include "options.hpp"
#include "progress.hpp"

namespace rastros::tools::congkak_cli {

using namespace rastros::congkak;

int run_play(const Arguments& arguments) {
  CongkakOptions options;
  int side = 1;
  int threads = 0;
  bool quiet = false;
  std::string memory = "64M";
  po::options_description description("Options");
  add_congkak_options(description, options, false);
  description.add_options()("side", po::value(&side)->default_value(1),
                            "your side: 1 (moves first) or 2")(
      "memory", po::value(&memory)->default_value(memory), "transposition table size")(
      "quiet", po::bool_switch(&quiet), "no \"thinking\" line on stderr");
  std::optional<int> endgame_seeds;
  add_endgame_seeds_option(description, endgame_seeds);
  add_threads_option(description, threads);
  if (!parse_command_line(arguments, description,
                          "Usage: rastros play --game congkak [--houses M --seeds N] "
                          "[--side 1|2]\nA game of Congkak against perfect play. Commands are "
                          "read from stdin: a house number plays it;\nhint, undo, show, help, "
                          "quit. End of input ends the game.")) {
    return 0;
  }
  if (side != 1 && side != 2) throw InputError("--side must be 1 or 2, not " + std::to_string(side));
  const Congkak game(options.houses, options.seeds);
  const ThreadLimit limit(threads);
  const auto endgame = endgame_for_search(game, endgame_seeds, quiet);
  mancala::MancalaPlaySession<Congkak, CongkakSolver> session(
      game, side - 1, CongkakSolveOptions{parse_memory_size(memory), false, false},
      endgame.get());
  mancala_cli::run_play_loop(session, quiet, "Congkak(" + std::to_string(game.houses()) + "," +
                                                 std::to_string(game.seeds()) + ")");
  return 0;
}

}  // namespace rastros::tools::congkak_cli
