#pragma once
// The games the `rastros` command knows, each with the commands it has. Rastros's commands are
// the ones in commands.hpp; every other game registers its own here, one entry a game
// (game_registry.cpp), and `--game NAME` picks them.

#include <map>
#include <string>
#include <vector>

#include "commands.hpp"

namespace rastros::tools {

using CommandFunction = int (*)(const Arguments&);

struct GameEntry {
  std::string name;
  std::string summary;
  std::map<std::string, CommandFunction> commands;
};

/// Every game but Rastros, whose commands main.cpp dispatches itself.
const std::vector<GameEntry>& other_games();

/// The game `arguments` name with --game NAME or --game=NAME: "rastros" when none does.
/// Throws InputError for a game no entry has.
std::string game_of(const Arguments& arguments);

/// The command `command` of game `game` (not rastros). Throws InputError when the game lacks it.
CommandFunction find_game_command(const std::string& game, const std::string& command);

/// "rastros, kalah": the names --game takes.
std::string game_names();

}  // namespace rastros::tools
