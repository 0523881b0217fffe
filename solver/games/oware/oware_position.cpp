#include "games/oware/oware_position.hpp"

#include <algorithm>
#include <charconv>
#include <iomanip>
#include <optional>
#include <sstream>

#include "core/errors.hpp"
#include "games/mancala/mancala_position.hpp"

namespace rastros::oware {

namespace {

// Input quoted in messages is cut here so that a huge argument stays a short line.
constexpr std::size_t kQuoteMax = 40;

// A whole number 0..999 (a house, a capture count, a side), or nothing.
std::optional<int> parse_count(std::string_view text) {
  if (text.empty() || text.size() > 3) return std::nullopt;
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

// The shared mancala text forms, with the captured seeds where Kalah writes its stores.
mancala::MancalaBoard text_board(const Oware& game) {
  return {game.houses(), game.seeds(), game.name(), "a capture count"};
}
mancala::MancalaPosition as_mancala(const OwarePosition& position) {
  mancala::MancalaPosition out;
  out.rows = position.rows;
  out.stores = position.captured;
  out.to_move = position.to_move;
  return out;
}

}  // namespace

OwarePosition start_position(const Oware& game) {
  OwarePosition position;
  for (int p = 0; p < 2; ++p) {
    for (int i = 0; i < game.houses(); ++i) position.rows[p][i] = game.seeds();
  }
  return position;
}

OwareState search_state(const Oware& game, const OwarePosition& position) {
  OwareState state;
  const int m = std::min(game.houses(), kMaxHouses);  // bounded for the compiler
  const int mover = position.to_move & 1;
  for (int i = 0; i < m; ++i) {
    state.houses[i] = static_cast<std::uint8_t>(position.rows[mover][i]);
    state.houses[m + i] = static_cast<std::uint8_t>(position.rows[1 - mover][i]);
  }
  return state;
}

int captured_margin(const OwarePosition& position) {
  return position.captured[position.to_move] - position.captured[1 - position.to_move];
}

bool has_ended(const Oware& game, const OwarePosition& position) {
  return game.is_terminal(search_state(game, position));
}

std::array<int, 2> final_captures(const Oware& game, const OwarePosition& position) {
  std::array<int, 2> captured = position.captured;
  const int score = game.terminal_score(search_state(game, position));
  captured[score >= 0 ? position.to_move : 1 - position.to_move] += std::abs(score);
  return captured;
}

OwarePosition play(const Oware& game, const OwarePosition& position, OwareMove move) {
  const OwarePlayed played = game.play(search_state(game, position), move);
  const int m = game.houses();
  const int mover = position.to_move;
  OwarePosition after;
  after.captured = position.captured;
  after.captured[mover] += played.gain;
  after.to_move = 1 - mover;
  for (int i = 0; i < m; ++i) {
    after.rows[1 - mover][i] = played.next.houses[i];
    after.rows[mover][i] = played.next.houses[m + i];
  }
  return after;
}

std::string move_name(OwareMove move) { return mancala::move_name(move); }

OwareMove parse_move(const Oware& game, const OwarePosition& position, std::string_view text) {
  const auto house = parse_count(text);
  if (!house || *house < 1 || *house > game.houses()) {
    throw InputError("bad move " + quote_input(text, kQuoteMax) + ": a house number 1.." +
                     std::to_string(game.houses()));
  }
  if (has_ended(game, position)) {
    throw InputError("move " + quote_input(text, kQuoteMax) + " after the game has ended");
  }
  const auto move = static_cast<OwareMove>(*house - 1);
  const std::string who = "player " + std::to_string(position.to_move + 1) + "'s house " +
                          std::to_string(*house);
  if (position.rows[position.to_move][move] == 0) {
    throw InputError("illegal move " + quote_input(text, kQuoteMax) + ": " + who + " is empty");
  }
  const auto moves = game.legal_moves(search_state(game, position));
  if (std::find(moves.begin(), moves.end(), move) == moves.end()) {
    throw InputError("illegal move " + quote_input(text, kQuoteMax) + ": " + who +
                     " does not feed the opponent, whose houses are all empty");
  }
  return move;
}

std::vector<OwareMove> parse_moves(const Oware& game, std::string_view text) {
  std::vector<OwareMove> moves;
  OwarePosition position = start_position(game);
  std::istringstream words{std::string(text)};
  std::string word;
  while (words >> word) {
    const OwareMove move = parse_move(game, position, word);
    moves.push_back(move);
    position = play(game, position, move);
  }
  return moves;
}

std::string moves_text(const std::vector<OwareMove>& moves) { return mancala::moves_text(moves); }

std::string position_string(const Oware& game, const OwarePosition& position) {
  return mancala::position_string(text_board(game), as_mancala(position));
}

OwarePosition parse_position(const Oware& game, std::string_view text) {
  const mancala::MancalaPosition read = mancala::parse_position(text_board(game), text);
  return {read.rows, read.stores, read.to_move};
}

std::string board_diagram(const Oware& game, const OwarePosition& position) {
  const int m = game.houses();
  std::ostringstream out;
  const auto rule = [&] {
    out << "  +";
    for (int i = 0; i < m; ++i) out << "----+";
    out << "\n";
  };
  out << "   ";
  for (int i = m; i >= 1; --i) out << std::setw(3) << i << "  ";
  out << "  player 2's houses, captured " << position.captured[1] << "\n";
  rule();
  out << "  |";
  for (int i = m - 1; i >= 0; --i) out << std::setw(3) << position.rows[1][i] << " |";
  out << "\n  |";
  for (int i = 0; i < m; ++i) out << std::setw(3) << position.rows[0][i] << " |";
  out << "\n";
  rule();
  out << "   ";
  for (int i = 1; i <= m; ++i) out << std::setw(3) << i << "  ";
  out << "  player 1's houses, captured " << position.captured[0] << "\n";
  out << "sowing runs counter-clockwise\n";
  return out.str();
}

}  // namespace rastros::oware
