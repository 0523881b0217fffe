#include "reversi/reversi_options.hpp"

namespace rastros::tools::reversi_cli {

using namespace rastros::reversi;

void add_reversi_options(po::options_description& description, ReversiOptions& options) {
  description.add_options()("board", po::value(&options.board)->default_value(options.board),
                            "board size: 4x4, 6x6 or 8x8")(
      "moves", po::value<std::string>()->notifier([&](const std::string& v) { options.moves = v; }),
      "moves from the start, squares a1..h8 (rows from the top) or pass: \"f5 d6 c3\"")(
      "position",
      po::value<std::string>()->notifier([&](const std::string& v) { options.position = v; }),
      "position string instead of moves: N*N squares (X, O, -) row by row from a1, a space, "
      "the side to move (X or O)");
}

ReversiInput resolve_input(const ReversiOptions& options) {
  return resolve_reversi_input(options.board, options.moves, options.position);
}

Json position_json(const ReversiInput& input) {
  Json moves = Json::array();
  for (const ReversiMove move : input.moves) moves.push(move_name(move));
  Json json = Json::object();
  json.set("game", "reversi")
      .set("board", std::to_string(input.game.size()) + "x" + std::to_string(input.game.size()))
      .set("moves", moves)
      .set("position", position_string(input.game, input.position))
      .set("to_move", input.position.to_move + 1);
  return json;
}

Json show_json(const ReversiInput& input) {
  const ReversiState state = search_state(input.position);
  const bool ended = input.game.is_terminal(state);
  Json out = position_json(input);
  Json legal = Json::array();
  for (const ReversiMove move : input.game.legal_moves(state)) legal.push(move_name(move));
  out.set("legal_moves", legal)
      .set("black", reversi::count(input.position.black))
      .set("white", reversi::count(input.position.white))
      .set("ended", ended);
  if (ended) out.set("score", input.game.terminal_score(state));
  return out;
}

std::string board_diagram(const ReversiInput& input) {
  const Reversi& game = input.game;
  const ReversiPosition& position = input.position;
  const ReversiState state = search_state(position);
  const Bits legal = legal_moves(state.mine, state.theirs, game.geometry());
  std::string text = "   ";
  for (int column = 0; column < game.size(); ++column) text += std::string(" ") + char('a' + column);
  text += "\n";
  for (int row = 0; row < game.size(); ++row) {
    text += ' ';
    text += std::to_string(row + 1);
    text += ' ';
    for (int column = 0; column < game.size(); ++column) {
      const Bits bit = Bits{1} << (8 * row + column);
      text += ' ';
      text += (position.black & bit) ? 'X' : (position.white & bit) ? 'O' : (legal & bit) ? '*' : '.';
    }
    text += "\n";
  }
  return text;
}

std::string side_name(int player) {
  return player == 0 ? "X (black)" : "O (white)";
}

}  // namespace rastros::tools::reversi_cli
