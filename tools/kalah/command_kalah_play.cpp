// `rastros play --game kalah`: a game against perfect play, commands on stdin.

#include "core/errors.hpp"
#include "games/kalah/kalah_play.hpp"
#include "kalah/kalah_commands.hpp"
#include "kalah/kalah_endgame_options.hpp"
#include "kalah/kalah_options.hpp"
#include "mancala/mancala_play_loop.hpp"
#include "options.hpp"
#include "progress.hpp"

namespace rastros::tools::kalah_cli {

using namespace rastros::kalah;

int run_play(const Arguments& arguments) {
  KalahOptions options;
  EndgameOptions endgame_options;
  int side = 1;
  int threads = 0;
  bool quiet = false;
  std::string memory = "64M";
  po::options_description description("Options");
  add_kalah_options(description, options, false);
  description.add_options()("side", po::value(&side)->default_value(1),
                            "your side: 1 (moves first) or 2")(
      "memory", po::value(&memory)->default_value(memory), "transposition table size")(
      "quiet", po::bool_switch(&quiet), "no \"thinking\" line on stderr");
  add_threads_option(description, threads);
  add_endgame_options(description, endgame_options);
  if (!parse_command_line(arguments, description,
                          "Usage: rastros play --game kalah [--houses M --seeds N --rules R] "
                          "[--side 1|2]\nA game of Kalah against perfect play. Commands are read "
                          "from stdin: a house number plays it;\nhint, undo, show, help, quit. "
                          "End of input ends the game.")) {
    return 0;
  }
  if (side != 1 && side != 2) throw InputError("--side must be 1 or 2, not " + std::to_string(side));
  const Kalah game = resolve_game(options);
  const std::size_t table_bytes = parse_memory_size(memory);
  const ThreadLimit limit(threads);
  const auto endgame = endgame_for_search(game, endgame_options, quiet);
  KalahPlaySession session(game, side - 1, {table_bytes, false, false}, endgame.get());
  mancala_cli::run_play_loop(session, quiet, "Kalah(" + std::to_string(game.houses()) + "," +
                                                 std::to_string(game.seeds()) + ")");
  return 0;
}

}  // namespace rastros::tools::kalah_cli
