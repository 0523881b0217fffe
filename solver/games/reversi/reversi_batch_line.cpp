#include "games/reversi/reversi_batch_line.hpp"

#include <optional>

#include "core/errors.hpp"

namespace rastros::reversi {

namespace {

// Moves are two characters or "pass"; a position string starts with the whole board.
constexpr std::size_t kLongestMove = 4;

ReversiInput parse_job(std::string_view text, const std::string& default_board) {
  std::string board = default_board;
  const std::string body =
      split_batch_line(text, [&](const std::string& name, const std::string& value) {
        if (name != "board") {
          throw InputError("unknown option " + quote_input("--" + name, 40) +
                           " (a line takes --board)");
        }
        board = value;
      },
      // A position string may start with empty squares ("--XO..."): not an option.
      [](const std::string& word) { return word.find_first_not_of("XOxo-") != std::string::npos; });
  const std::size_t first_word = std::min(body.find(' '), body.size());
  if (first_word > kLongestMove) return resolve_reversi_input(board, std::nullopt, body);
  return resolve_reversi_input(board, body, std::nullopt);
}

}  // namespace

ReversiBatchLine parse_reversi_batch_line(std::string_view text, const std::string& board) {
  return parse_score_batch_line<ReversiInput>(
      text, [&](std::string_view line) { return parse_job(line, board); });
}

}  // namespace rastros::reversi
