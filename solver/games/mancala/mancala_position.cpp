#include "games/mancala/mancala_position.hpp"

#include <algorithm>
#include <charconv>
#include <iomanip>
#include <optional>
#include <sstream>

#include "core/errors.hpp"

namespace rastros::mancala {

namespace {

// Input quoted in messages is cut here so that a huge argument stays a short line.
constexpr std::size_t kQuoteMax = 40;

int row_sum(const MancalaBoard& board, const MancalaPosition& position, int player) {
  int sum = 0;
  for (int i = 0; i < board.houses; ++i) sum += position.rows[player][i];
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

MancalaPosition start_position(const MancalaBoard& board) {
  MancalaPosition position;
  for (int p = 0; p < 2; ++p) {
    for (int i = 0; i < board.houses; ++i) position.rows[p][i] = board.seeds;
  }
  return position;
}


std::array<std::uint8_t, 2 * kMaxHouses> mover_view(const MancalaBoard& board,
                                                    const MancalaPosition& position) {
  std::array<std::uint8_t, 2 * kMaxHouses> houses{};
  // Both bounded for the compiler, which cannot see the variant's checks.
  const int m = std::min(board.houses, kMaxHouses);
  const int mover = position.to_move & 1;
  for (int i = 0; i < m; ++i) {
    houses[i] = static_cast<std::uint8_t>(position.rows[mover][i]);
    houses[m + i] = static_cast<std::uint8_t>(position.rows[1 - mover][i]);
  }
  return houses;
}

MancalaPosition after_move(const MancalaBoard& board, const MancalaPosition& position,
                           const std::array<std::uint8_t, 2 * kMaxHouses>& next_houses, int gain,
                           bool again) {
  const int m = std::min(board.houses, kMaxHouses);
  const int mover = position.to_move & 1;
  const int next = again ? mover : 1 - mover;
  MancalaPosition after;
  after.stores = position.stores;
  after.stores[mover] += gain;
  after.to_move = next;
  for (int i = 0; i < m; ++i) {
    after.rows[next][i] = next_houses[i];
    after.rows[1 - next][i] = next_houses[m + i];
  }
  return after;
}

int store_margin(const MancalaPosition& position) {
  return position.stores[position.to_move] - position.stores[1 - position.to_move];
}

bool has_ended(const MancalaBoard& board, const MancalaPosition& position) {
  return row_sum(board, position, 0) == 0 || row_sum(board, position, 1) == 0;
}

std::array<int, 2> final_stores(const MancalaBoard& board, const MancalaPosition& position) {
  return {position.stores[0] + row_sum(board, position, 0),
          position.stores[1] + row_sum(board, position, 1)};
}


std::string move_name(MancalaMove move) {
  return std::to_string(move + 1);
}

MancalaMove parse_move(const MancalaBoard& board, const MancalaPosition& position, std::string_view text) {
  const auto house = parse_count(text);
  if (!house || *house < 1 || *house > board.houses) {
    throw InputError("bad move " + quote_input(text, kQuoteMax) + ": a house number 1.." +
                     std::to_string(board.houses));
  }
  if (has_ended(board, position)) {
    throw InputError("move " + quote_input(text, kQuoteMax) + " after the game has ended");
  }
  const auto move = static_cast<MancalaMove>(*house - 1);
  if (position.rows[position.to_move][move] == 0) {
    throw InputError("illegal move " + quote_input(text, kQuoteMax) + ": player " +
                     std::to_string(position.to_move + 1) + "'s house " + std::to_string(*house) +
                     " is empty");
  }
  return move;
}


std::string moves_text(const std::vector<MancalaMove>& moves) {
  std::string text;
  for (const MancalaMove move : moves) {
    if (!text.empty()) text += ' ';
    text += move_name(move);
  }
  return text;
}

std::string position_string(const MancalaBoard& board, const MancalaPosition& position) {
  std::string text;
  for (int p = 0; p < 2; ++p) {
    if (p) text += '/';
    for (int i = 0; i < board.houses; ++i) text += std::to_string(position.rows[p][i]) + ',';
    text += std::to_string(position.stores[p]);
  }
  return text + ' ' + std::to_string(position.to_move + 1);
}

MancalaPosition parse_position(const MancalaBoard& board, std::string_view text) {
  const std::string quoted = quote_input(text, kQuoteMax);
  const std::size_t space = text.find(' ');
  if (space == std::string_view::npos) {
    throw InputError("bad position " + quoted + ": expected ROW/ROW SIDE, e.g. " +
                     position_string(board, start_position(board)));
  }
  const auto side = parse_count(text.substr(space + 1));
  if (!side || (*side != 1 && *side != 2)) {
    throw InputError("bad position " + quoted + ": the side to move must be 1 or 2");
  }
  const auto rows = split(text.substr(0, space), '/');
  if (rows.size() != 2) {
    throw InputError("bad position " + quoted + ": expected two rows separated by '/'");
  }
  MancalaPosition position;
  position.to_move = *side - 1;
  int total = 0;
  for (int p = 0; p < 2; ++p) {
    const auto counts = split(rows[p], ',');
    if (counts.size() != static_cast<std::size_t>(board.houses) + 1) {
      throw InputError("bad position " + quoted + ": player " + std::to_string(p + 1) + "'s row has " +
                       std::to_string(counts.size()) + " numbers; " + board.name + " needs " +
                       std::to_string(board.houses) + " houses and " + board.store);
    }
    for (int i = 0; i <= board.houses; ++i) {
      const auto count = parse_count(counts[i]);
      if (!count) {
        throw InputError("bad position " + quoted + ": " + quote_input(counts[i], kQuoteMax) +
                         " is not a number of seeds");
      }
      (i < board.houses ? position.rows[p][i] : position.stores[p]) = *count;
      total += *count;
    }
  }
  if (total != board.total_seeds()) {
    throw InputError("bad position " + quoted + ": it holds " + std::to_string(total) +
                     " seeds; " + board.name + " has " + std::to_string(board.total_seeds()) +
                     " (give --houses and --seeds)");
  }
  return position;
}

std::string board_diagram(const MancalaBoard& board, const MancalaPosition& position) {
  const int m = board.houses;
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

}  // namespace rastros::mancala
