#include "board_text.hpp"

#include "rastros/notation.hpp"

namespace rastros::tools {

std::string board_grid(const Board& board, int cell_width,
                       const std::function<std::string(Square)>& cell) {
  const int rank_width = board.height() >= 10 ? 2 : 1;
  auto pad = [](std::string text, int width) {
    while (static_cast<int>(text.size()) < width) text = ' ' + text;
    return text;
  };
  std::string header(rank_width + 1, ' ');
  for (int file = 0; file < board.width(); ++file) {
    header += ' ' + pad(std::string(1, static_cast<char>('a' + file)), cell_width);
  }
  std::string text = header + '\n';
  for (int rank = board.height() - 1; rank >= 0; --rank) {
    text += pad(std::to_string(rank + 1), rank_width) + ' ';
    for (int file = 0; file < board.width(); ++file) {
      text += ' ' + pad(cell(board.square_at(file, rank)), cell_width);
    }
    text += "  " + std::to_string(rank + 1) + '\n';
  }
  return text + header + '\n';
}

std::string board_diagram(const Rastros& rastros, const Position& position) {
  const Board& board = rastros.board();
  return board_grid(board, 1, [&](Square square) -> std::string {
    if (square == position.snail) return "o";
    if (!(position.free & bit(square))) return "x";
    if (square == board.goal_of(Player::one)) return "1";
    if (square == board.goal_of(Player::two)) return "2";
    return ".";
  });
}

std::string ending_text(const Rastros& rastros, const Position& position) {
  const Board& board = rastros.board();
  const std::string corner = square_name(board, position.snail);
  const std::string mover = std::to_string(number_of(opponent(position.to_move)));
  if (position.snail == board.goal_of(Player::one)) {
    return "Player 1 wins: player " + mover + " moved the snail into " + corner + ".";
  }
  if (position.snail == board.goal_of(Player::two)) {
    return "Player 2 wins: player " + mover + " moved the snail into " + corner + ".";
  }
  const std::string stuck = std::to_string(number_of(position.to_move));
  if (rastros.stuck_rule() == StuckRule::draws) {
    return "Draw: player " + stuck + " has no legal move (stuck-draw rules).";
  }
  return "Player " + mover + " wins: player " + stuck + " has no legal move.";
}

}  // namespace rastros::tools
