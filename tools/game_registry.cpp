#include "game_registry.hpp"

#include "core/errors.hpp"
#include "congkak/congkak_commands.hpp"
#include "kalah/kalah_commands.hpp"
#include "oware/oware_commands.hpp"
#include "reversi/reversi_commands.hpp"
#include "score_batch_games.hpp"

namespace rastros::tools {

const std::vector<GameEntry>& other_games() {
  static const std::vector<GameEntry> games = {
      {"kalah",
       "Kalah(M,N) mancala: exact scores, endgame databases",
       {{"show", kalah_cli::run_show},
        {"perft", kalah_cli::run_perft},
        {"solve", kalah_cli::run_solve},
        {"play", kalah_cli::run_play},
        {"query", kalah_cli::run_query},
        {"verify", kalah_cli::run_verify},
        {"stats", kalah_cli::run_stats},
        {"batch", kalah_cli::run_batch},
        {"serve", run_serve}}},
      {"oware",
       "Oware(M,N) Abapa mancala: endgame databases by retrograde analysis with cycles",
       {{"show", oware_cli::run_show},
        {"perft", oware_cli::run_perft},
        {"solve", oware_cli::run_solve},
        {"play", oware_cli::run_play},
        {"query", oware_cli::run_query},
        {"verify", oware_cli::run_verify},
        {"stats", oware_cli::run_stats},
        {"batch", oware_cli::run_batch},
        {"serve", run_serve}}},
      {"reversi",
       "Reversi (Othello) on 4x4, 6x6, 8x8: exact endgame solving",
       {{"show", reversi_cli::run_show},
        {"perft", reversi_cli::run_perft},
        {"solve", reversi_cli::run_solve},
        {"batch", reversi_cli::run_batch},
        {"play", reversi_cli::run_play},
        {"query", reversi_cli::run_query},
        {"verify", reversi_cli::run_verify},
        {"stats", reversi_cli::run_stats},
        {"serve", run_serve}}},
      {"congkak",
       "Congkak(M,N) relay-sowing mancala: exact scores",
       {{"show", congkak_cli::run_show},
        {"perft", congkak_cli::run_perft},
        {"solve", congkak_cli::run_solve},
        {"play", congkak_cli::run_play},
        {"query", congkak_cli::run_query},
        {"verify", congkak_cli::run_verify},
        {"stats", congkak_cli::run_stats},
        {"batch", congkak_cli::run_batch},
        {"serve", run_serve}}},
  };
  return games;
}

std::string game_names() {
  std::string names = "rastros";
  for (const GameEntry& game : other_games()) names += ", " + game.name;
  return names;
}

std::string game_of(const Arguments& arguments) {
  std::string game = "rastros";
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    if (arguments[i] == "--game" && i + 1 < arguments.size()) {
      game = arguments[++i];
    } else if (arguments[i].rfind("--game=", 0) == 0) {
      game = arguments[i].substr(7);
    }
  }
  if (game == "rastros") return game;
  for (const GameEntry& entry : other_games()) {
    if (entry.name == game) return game;
  }
  throw InputError("unknown game " + quote_input(game, 40) + ": --game takes " + game_names());
}

CommandFunction find_game_command(const std::string& game, const std::string& command) {
  for (const GameEntry& entry : other_games()) {
    if (entry.name != game) continue;
    const auto found = entry.commands.find(command);
    if (found != entry.commands.end()) return found->second;
    std::string has;
    for (const auto& [name, function] : entry.commands) has += (has.empty() ? "" : " ") + name;
    throw InputError("--game " + game + " has no " + command + " command yet (it has: " + has + ")");
  }
  throw InputError("unknown game " + quote_input(game, 40));
}

}  // namespace rastros::tools
