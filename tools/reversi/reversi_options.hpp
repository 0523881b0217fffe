#pragma once
// The options every `--game reversi` command shares (--board --moves --position), their
// resolution into a checked position, and the pieces of output the commands share.

#include <boost/program_options.hpp>
#include <optional>
#include <string>

#include "games/reversi/reversi_position.hpp"
#include "json.hpp"

namespace rastros::tools::reversi_cli {

namespace po = boost::program_options;

struct ReversiOptions {
  std::string board = "8x8";
  std::optional<std::string> moves;
  std::optional<std::string> position;
};

using reversi::ReversiInput;

void add_reversi_options(po::options_description& description, ReversiOptions& options);
ReversiInput resolve_input(const ReversiOptions& options);

/// "game", "board", "moves", "position", "to_move" (1 black, 2 white).
Json position_json(const ReversiInput& input);
/// position_json and "legal_moves", "black" and "white" (disc counts), "ended", and "score"
/// (the final margin for the side to move) once ended: `rastros show --game reversi --json`.
Json show_json(const ReversiInput& input);
/// The board with coordinates, `*` on the side to move's legal squares.
std::string board_diagram(const ReversiInput& input);
/// "X (black)" / "O (white)".
std::string side_name(int player);

}  // namespace rastros::tools::reversi_cli
