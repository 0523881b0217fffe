#include "rastros/notation.hpp"

#include <charconv>
#include <sstream>

#include "core/errors.hpp"

namespace rastros {
namespace {

bool all_digits(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

/// Parses a small decimal number; nothing on overflow or garbage.
std::optional<int> parse_number(std::string_view text) {
  if (!all_digits(text) || text.size() > 4) return std::nullopt;
  int value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

}  // namespace

Board parse_board(std::string_view text, StepSet steps) {
  const auto x = text.find_first_of("xX");
  const auto width = x == std::string_view::npos ? std::nullopt : parse_number(text.substr(0, x));
  const auto height = x == std::string_view::npos ? std::nullopt : parse_number(text.substr(x + 1));
  if (!width || !height) {
    throw InputError("malformed board " + quote_input(text) + ": expected WxH, such as 7x7");
  }
  return Board(*width, *height, steps);
}

StepSet parse_steps(std::string_view text) {
  if (text == "king") return StepSet::king;
  if (text == "orthogonal") return StepSet::orthogonal;
  throw InputError("unknown step set " + quote_input(text) + ": expected king or orthogonal");
}

StuckRule parse_rules(std::string_view text) {
  if (text == "standard") return StuckRule::loses;
  if (text == "stuck-draw") return StuckRule::draws;
  throw InputError("unknown rules " + quote_input(text) + ": expected standard or stuck-draw");
}

std::string_view steps_name(StepSet steps) {
  return steps == StepSet::king ? "king" : "orthogonal";
}
std::string_view rules_name(StuckRule rule) {
  return rule == StuckRule::loses ? "standard" : "stuck-draw";
}

std::string square_name(const Board& board, Square square) {
  return std::string(1, static_cast<char>('a' + board.file_of(square))) +
         std::to_string(board.rank_of(square) + 1);
}

std::string start_name(const Rastros& rastros) {
  return rastros.has_start() ? square_name(rastros.board(), rastros.start()) : "none";
}

Square parse_square(const Board& board, std::string_view text) {
  const auto rank = text.size() >= 2 ? parse_number(text.substr(1)) : std::nullopt;
  if (!rank || text[0] < 'a' || text[0] > 'z' || text[1] == '0') {
    throw InputError("malformed square " + quote_input(text) +
                     ": expected a file letter and a rank, such as d4");
  }
  const int file = text[0] - 'a';
  if (!board.on_board(file, *rank - 1)) {
    throw InputError("square " + quote_input(text) + " is off the " + board.name() + " board");
  }
  return board.square_at(file, *rank - 1);
}

PlayedGame parse_game(const Rastros& rastros, std::string_view text) {
  const Board& board = rastros.board();
  PlayedGame game{{}, rastros.start_position()};
  std::istringstream words{std::string(text)};
  std::string word;
  while (words >> word) {
    const Square to = parse_square(board, word);
    const Position& now = game.position;
    const std::string where =
        "move " + std::to_string(game.moves.size() + 1) + " " + quote_input(word);
    if (rastros.has_ended(now)) {
      throw InputError(where + " comes after the game has ended");
    }
    if (!(board.neighbours(now.snail) & bit(to))) {
      throw InputError(where + " is not a step from the snail on " + square_name(board, now.snail));
    }
    if (!(now.free & bit(to))) {
      throw InputError(where + " is onto slime");
    }
    game.moves.push_back(to);
    game.position = rastros.play(now, to);
  }
  return game;
}

std::string game_text(const Board& board, const std::vector<Square>& moves) {
  std::string text;
  for (Square move : moves) {
    if (!text.empty()) text += ' ';
    text += square_name(board, move);
  }
  return text;
}

std::string game_identity(const Rastros& rastros) {
  const Board& board = rastros.board();
  std::ostringstream identity;
  identity << board.name() << " " << steps_name(board.steps()) << " "
           << rules_name(rastros.stuck_rule()) << " start " << start_name(rastros);
  return identity.str();
}

std::string position_string(const Board& board, const Position& position) {
  std::string text;
  for (int rank = board.height() - 1; rank >= 0; --rank) {
    int empty_run = 0;
    for (int file = 0; file < board.width(); ++file) {
      const Square square = board.square_at(file, rank);
      if (position.free & bit(square)) {
        ++empty_run;
        continue;
      }
      if (empty_run > 0) text += std::to_string(empty_run);
      empty_run = 0;
      text += square == position.snail ? 'o' : 'x';
    }
    if (empty_run > 0) text += std::to_string(empty_run);
    if (rank > 0) text += '/';
  }
  text += position.to_move == Player::one ? " 1" : " 2";
  return text;
}

Position parse_position(const Board& board, std::string_view text) {
  const std::string what = "position " + quote_input(text);
  const auto space = text.find(' ');
  if (space == std::string_view::npos) {
    throw InputError(what + " has no side to move: end it with ' 1' or ' 2'");
  }
  const std::string_view side = text.substr(space + 1);
  if (side != "1" && side != "2") {
    throw InputError(what + " has a bad side to move " + quote_input(side) + ": expected 1 or 2");
  }
  Position position;
  position.to_move = side == "1" ? Player::one : Player::two;
  int snails = 0;
  int rank = board.height() - 1;
  int file = 0;
  const std::string_view ranks = text.substr(0, space);
  auto finish_rank = [&] {
    if (file != board.width()) {
      throw InputError(what + ": rank " + std::to_string(rank + 1) + " has " +
                       std::to_string(file) + " squares, expected " +
                       std::to_string(board.width()));
    }
  };
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    const char c = ranks[i];
    if (c == '/') {
      finish_rank();
      if (--rank < 0) {
        throw InputError(what + " has more than " + std::to_string(board.height()) + " ranks");
      }
      file = 0;
    } else if (c >= '1' && c <= '9') {
      std::size_t end = i;
      while (end < ranks.size() && ranks[end] >= '0' && ranks[end] <= '9') ++end;
      const int run = parse_number(ranks.substr(i, end - i)).value_or(kMaxSquares + 1);
      if (file + run > board.width()) {
        file += run;
        finish_rank();
      }
      for (int k = 0; k < run; ++k) position.free |= bit(board.square_at(file++, rank));
      i = end - 1;
    } else if (c == 'x' || c == 'o') {
      if (file >= board.width()) {
        ++file;
        finish_rank();
      }
      const Square square = board.square_at(file++, rank);
      if (c == 'o') {
        ++snails;
        position.snail = square;
      }
      // The snail may stand on a goal: the game ended there. Slime never can, since a snail
      // that entered a goal never leaves it.
      if (c == 'x' && board.is_goal(square)) {
        throw InputError(what + " has slime on the goal " + square_name(board, square));
      }
    } else {
      throw InputError(what + " has an unexpected character " + quote_character(ranks, i) +
                       (c == '0' ? ": a run of empty squares is at least 1"
                                 : ": expected a number of empty squares, 'x', 'o' or '/'"));
    }
  }
  finish_rank();
  if (rank != 0) {
    throw InputError(what + " has " + std::to_string(board.height() - rank) + " ranks, expected " +
                     std::to_string(board.height()));
  }
  if (snails == 0) throw InputError(what + " has no snail ('o')");
  if (snails > 1)
    throw InputError(what + " has " + std::to_string(snails) + " snails; expected one");
  return position;
}

void check_reachable(const Rastros& rastros, const Position& position, const std::string& what) {
  const Board& board = rastros.board();
  const SquareMask snail = bit(position.snail);
  const SquareMask slime = board.all_squares() & ~position.free & ~snail;
  const int slimed = count(slime);

  // 1. Each move slimes one square, and player 1 moves first.
  const Player to_move = slimed % 2 == 0 ? Player::one : Player::two;
  if (position.to_move != to_move) {
    throw InputError(
        what + " has " + std::to_string(slimed) + " slimed square" + (slimed == 1 ? "" : "s") +
        ", so player " + std::to_string(number_of(to_move)) + " is to move, not player " +
        std::to_string(number_of(position.to_move)) + " (each move slimes one square)");
  }

  // 2. The first move slimes the start square (when there is one: a position on 2x2 read
  // without --start has none, its default start being a goal).
  const Square start = rastros.start();
  const std::string start_square = "the start square " + square_name(board, start);
  if (rastros.has_start() && slimed == 0 && position.snail != start) {
    throw StartSquareError(what + " has no slime, so the snail must be on " + start_square +
                           ", not " + square_name(board, position.snail));
  }
  if (!rastros.has_start() && slimed == 0 && board.is_goal(position.snail)) {
    throw InputError(what +
                     " has no slime, so the snail is on its start square, which is not the goal " +
                     square_name(board, position.snail));
  }
  if (rastros.has_start() && slimed > 0 && !(slime & bit(start))) {
    throw StartSquareError(what + " has slime, but not on " + start_square +
                           ", which the first move slimes");
  }

  // 3. The trail, slime and snail, is joined by steps.
  const SquareMask trail = slime | snail;
  SquareMask joined = snail;
  while (true) {
    const SquareMask grown = (board.dilate(joined) & trail) | joined;
    if (grown == joined) break;
    joined = grown;
  }
  if (joined != trail) {
    throw InputError(what + " has slime on " + square_name(board, lowest_square(trail & ~joined)) +
                     " not joined to the snail's trail: the slimed squares and the snail must "
                     "form one chain of " +
                     std::string(steps_name(board.steps())) + " steps");
  }
}

Position parse_reachable_position(const Rastros& rastros, std::string_view text) {
  const Position position = parse_position(rastros.board(), text);
  check_reachable(rastros, position, "position " + quote_input(text));
  return position;
}

}  // namespace rastros
