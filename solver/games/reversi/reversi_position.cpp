#include "games/reversi/reversi_position.hpp"

#include <cctype>

#include "core/errors.hpp"

namespace rastros::reversi {

ReversiPosition start_position(const Reversi& game) {
  const ReversiState start = game.start();
  return {start.mine, start.theirs, 0};
}

ReversiState search_state(const ReversiPosition& position) {
  return position.to_move == 0 ? ReversiState{position.black, position.white}
                               : ReversiState{position.white, position.black};
}

ReversiPosition play_move(const Reversi& game, const ReversiPosition& position, ReversiMove move) {
  const ReversiState next = game.play(search_state(position), move).next;
  // `next` is seen from the opponent: its `mine` is the colour that moves next.
  const int mover = 1 - position.to_move;
  return mover == 0 ? ReversiPosition{next.mine, next.theirs, 0}
                    : ReversiPosition{next.theirs, next.mine, 1};
}

char colour_letter(int player) { return player == 0 ? 'X' : 'O'; }

std::string move_name(ReversiMove move) {
  if (move == kPass) return "pass";
  return std::string{static_cast<char>('a' + move % 8)} + std::to_string(move / 8 + 1);
}

std::string moves_text(const std::vector<ReversiMove>& moves) {
  std::string text;
  for (const ReversiMove move : moves) {
    if (!text.empty()) text += ' ';
    text += move_name(move);
  }
  return text;
}

std::string position_string(const Reversi& game, const ReversiPosition& position) {
  std::string text;
  for (int row = 0; row < game.size(); ++row) {
    for (int column = 0; column < game.size(); ++column) {
      const Bits bit = Bits{1} << (8 * row + column);
      text += (position.black & bit) ? 'X' : (position.white & bit) ? 'O' : '-';
    }
  }
  return text + ' ' + colour_letter(position.to_move);
}

ReversiPosition parse_position(const Reversi& game, std::string_view text) {
  const std::size_t squares = static_cast<std::size_t>(game.size() * game.size());
  const std::string expected = "a " + game.name() + " position string is " +
                               std::to_string(squares) + " squares (X, O or -), a space and X or O";
  if (text.size() != squares + 2 || text[squares] != ' ') {
    throw InputError("bad position " + quote_input(text) + ": " + expected);
  }
  ReversiPosition position;
  for (std::size_t i = 0; i < squares; ++i) {
    const Bits bit = Bits{1} << (8 * (i / game.size()) + i % game.size());
    switch (text[i]) {
      case 'X': case 'x': case '*': position.black |= bit; break;
      case 'O': case 'o': position.white |= bit; break;
      case '-': case '.': break;
      default:
        throw InputError("bad position " + quote_input(text) + ": unexpected " +
                         quote_character(text, i) + "; " + expected);
    }
  }
  const char side = static_cast<char>(std::toupper(static_cast<unsigned char>(text[squares + 1])));
  if (side != 'X' && side != 'O' && side != '*') {
    throw InputError("bad position " + quote_input(text) + ": the side to move must be X or O");
  }
  position.to_move = side == 'O' ? 1 : 0;
  return position;
}

ReversiMove parse_move(const Reversi& game, std::string_view text) {
  std::string lower;
  for (const char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "pass") return kPass;
  const char last = static_cast<char>('a' + game.size() - 1);
  if (lower.size() == 2 && lower[0] >= 'a' && lower[0] <= last && lower[1] >= '1' &&
      lower[1] < '1' + game.size()) {
    return static_cast<ReversiMove>(8 * (lower[1] - '1') + (lower[0] - 'a'));
  }
  throw InputError("bad move " + quote_input(text, 20) + ": a square a1.." + std::string{last} +
                   std::to_string(game.size()) + " or pass");
}

int parse_board_size(std::string_view text) {
  if (text == "4x4") return 4;
  if (text == "6x6") return 6;
  if (text == "8x8") return 8;
  throw InputError("bad board " + quote_input(text, 20) + ": --board takes 4x4, 6x6 or 8x8");
}

namespace {

std::vector<std::string_view> words(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == ',' || text[i] == '\t')) ++i;
    std::size_t j = i;
    while (j < text.size() && text[j] != ' ' && text[j] != ',' && text[j] != '\t') ++j;
    if (j > i) out.push_back(text.substr(i, j - i));
    i = j;
  }
  return out;
}

}  // namespace

bool is_legal(const Reversi& game, const ReversiPosition& position, ReversiMove move) {
  for (const ReversiMove legal : game.legal_moves(search_state(position))) {
    if (legal == move) return true;
  }
  return false;
}

ReversiInput resolve_reversi_input(std::string_view board, const std::optional<std::string>& moves,
                                   const std::optional<std::string>& position) {
  if (moves && position) throw InputError("give --moves or --position, not both");
  ReversiInput input{Reversi(parse_board_size(board)), {}, {}};
  const Reversi& game = input.game;
  if (position) {
    input.position = parse_position(game, *position);
    return input;
  }
  input.position = start_position(game);
  if (!moves) return input;
  int ply = 0;
  for (const std::string_view word : words(*moves)) {
    ++ply;
    const ReversiMove move = parse_move(game, word);
    if (!is_legal(game, input.position, move)) {
      throw InputError("illegal move " + quote_input(word, 20) + " at ply " + std::to_string(ply) +
                       (game.is_terminal(search_state(input.position)) ? ": the game has ended"
                                                                      : ""));
    }
    input.moves.push_back(move);
    input.position = play_move(game, input.position, move);
  }
  return input;
}

}  // namespace rastros::reversi
