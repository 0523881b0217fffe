#include "games/kalah/kalah_position.hpp"

#include <algorithm>
#include <charconv>
#include <iomanip>
#include <optional>
#include <sstream>

#include "core/errors.hpp"

namespace rastros::kalah {

namespace {

// Input quoted in messages is cut here so that a huge argument stays a short line.
constexpr std::size_t kQuoteMax = 40;

int row_sum(const Kalah& game, const KalahPosition& position, int player) {
  int sum = 0;
  for (int i = 0; i < game.houses(); ++i) sum += position.rows[player][i];
  return sum;
}

// A whole number 0..999 (a house or store count, a side), or nothing.
std::optional<int> parse_count(std::string_view text) {
  if (text.empty() || text.size() > 3) return std::nullopt;
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t begin = 0;
  while (true) {
    const std::size_t end = text.find(separator, begin);
    parts.push_back(text.substr(begin, end == std::string_view::npos ? end : end - begin));
    if (end == std::string_view::npos) return parts;
    begin = end + 1;
  }
}

}  // namespace

KalahPosition start_position(const Kalah& game) {
  KalahPosition position;
  for (int p = 0; p < 2; ++p) {
    for (int i = 0; i < game.houses(); ++i) position.rows[p][i] = game.seeds();
  }
  return position;
}

KalahState search_state(const Kalah& game, const KalahPosition& position) {
  KalahState state;
  // Both bounded for the compiler, which cannot see the constructor's checks.
  const int m = std::min(game.houses(), kMaxHouses);
  const int mover = position.to_move & 1;
  for (int i = 0; i < m; ++i) {
    state.houses[i] = static_cast<std::uint8_t>(position.rows[mover][i]);
    state.houses[m + i] = static_cast<std::uint8_t>(position.rows[1 - mover][i]);
  }
  return state;
}

int store_margin(const KalahPosition& position) {
  return position.stores[position.to_move] - position.stores[1 - position.to_move];
}

bool has_ended(const Kalah& game, const KalahPosition& position) {
  return row_sum(game, position, 0) == 0 || row_sum(game, position, 1) == 0;
}

std::array<int, 2> final_stores(const Kalah& game, const KalahPosition& position) {
  return {position.stores[0] + row_sum(game, position, 0),
          position.stores[1] + row_sum(game, position, 1)};
}

KalahPosition play(const Kalah& game, const KalahPosition& position, KalahMove move) {
  const KalahPlayed played = game.play(search_state(game, position), move);
  const int m = game.houses();
  const int mover = position.to_move;
  const int next = played.again ? mover : 1 - mover;
  KalahPosition after;
  after.stores = position.stores;
  after.stores[mover] += played.gain;
  after.to_move = next;
  for (int i = 0; i < m; ++i) {
    after.rows[next][i] = played.next.houses[i];
    after.rows[1 - next][i] = played.next.houses[m + i];
  }
  return after;
}

std::string move_name(KalahMove move) {
  return std::to_string(move + 1);
}

KalahMove parse_move(const Kalah& game, const KalahPosition& position, std::string_view text) {
  const auto house = parse_count(text);
  if (!house || *house < 1 || *house > game.houses()) {
    throw InputError("bad move " + quote_input(text, kQuoteMax) + ": a house number 1.." +
                     std::to_string(game.houses()));
  }
  if (has_ended(game, position)) {
    throw InputError("move " + quote_input(text, kQuoteMax) + " after the game has ended");
  }
  const auto move = static_cast<KalahMove>(*house - 1);
  if (position.rows[position.to_move][move] == 0) {
    throw InputError("illegal move " + quote_input(text, kQuoteMax) + ": player " +
                     std::to_string(position.to_move + 1) + "'s house " + std::to_string(*house) +
                     " is empty");
  }
  return move;
}

std::vector<KalahMove> parse_moves(const Kalah& game, std::string_view text) {
  std::vector<KalahMove> moves;
  KalahPosition position = start_position(game);
  std::istringstream words{std::string(text)};
  std::string word;
  while (words >> word) {
    const KalahMove move = parse_move(game, position, word);
    moves.push_back(move);
    position = play(game, position, move);
  }
  return moves;
}

std::string moves_text(const std::vector<KalahMove>& moves) {
  std::string text;
  for (const KalahMove move : moves) {
    if (!text.empty()) text += ' ';
    text += move_name(move);
  }
  return text;
}

std::string position_string(const Kalah& game, const KalahPosition& position) {
  std::string text;
  for (int p = 0; p < 2; ++p) {
    if (p) text += '/';
    for (int i = 0; i < game.houses(); ++i) text += std::to_string(position.rows[p][i]) + ',';
    text += std::to_string(position.stores[p]);
  }
  return text + ' ' + std::to_string(position.to_move + 1);
}

KalahPosition parse_position(const Kalah& game, std::string_view text) {
  const std::string quoted = quote_input(text, kQuoteMax);
  const std::size_t space = text.find(' ');
  if (space == std::string_view::npos) {
    throw InputError("bad position " + quoted + ": expected ROW/ROW SIDE, e.g. " +
                     position_string(game, start_position(game)));
  }
  const auto side = parse_count(text.substr(space + 1));
  if (!side || (*side != 1 && *side != 2)) {
    throw InputError("bad position " + quoted + ": the side to move must be 1 or 2");
  }
  const auto rows = split(text.substr(0, space), '/');
  if (rows.size() != 2) {
    throw InputError("bad position " + quoted + ": expected two rows separated by '/'");
  }
  KalahPosition position;
  position.to_move = *side - 1;
  int total = 0;
  for (int p = 0; p < 2; ++p) {
    const auto counts = split(rows[p], ',');
    if (counts.size() != static_cast<std::size_t>(game.houses()) + 1) {
      throw InputError("bad position " + quoted + ": player " + std::to_string(p + 1) + "'s row has " +
                       std::to_string(counts.size()) + " numbers; " + game.name() + " needs " +
                       std::to_string(game.houses()) + " houses and a store");
    }
    for (int i = 0; i <= game.houses(); ++i) {
      const auto count = parse_count(counts[i]);
      if (!count) {
        throw InputError("bad position " + quoted + ": " + quote_input(counts[i], kQuoteMax) +
                         " is not a number of seeds");
      }
      (i < game.houses() ? position.rows[p][i] : position.stores[p]) = *count;
      total += *count;
    }
  }
  if (total != game.total_seeds()) {
    throw InputError("bad position " + quoted + ": it holds " + std::to_string(total) +
                     " seeds; " + game.name() + " has " + std::to_string(game.total_seeds()) +
                     " (give --houses and --seeds)");
  }
  return position;
}

std::string board_diagram(const Kalah& game, const KalahPosition& position) {
  const int m = game.houses();
  std::ostringstream out;
  const auto rule = [&] {
    out << "     +";
    for (int i = 0; i < m; ++i) out << "----+";
    out << "\n";
  };
  out << "      ";
  for (int i = m; i >= 1; --i) out << std::setw(3) << i << "  ";
  out << "   player 2's houses\n";
  rule();
  out << "     |";
  for (int i = m - 1; i >= 0; --i) out << std::setw(3) << position.rows[1][i] << " |";
  out << "\n" << std::setw(4) << position.stores[1] << " ";
  out << std::string(static_cast<std::size_t>(5 * m + 1), ' ') << std::setw(4)
      << position.stores[0] << "\n";
  out << "     |";
  for (int i = 0; i < m; ++i) out << std::setw(3) << position.rows[0][i] << " |";
  out << "\n";
  rule();
  out << "      ";
  for (int i = 1; i <= m; ++i) out << std::setw(3) << i << "  ";
  out << "   player 1's houses\n";
  out << "store 2 on the left, store 1 on the right; sowing runs counter-clockwise\n";
  return out.str();
}

}  // namespace rastros::kalah
