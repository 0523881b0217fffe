// libFuzzer target: the notation parsers (rastros/notation.hpp) on arbitrary text.
//
// The first three input bytes pick the variant (width, height and step set, rules, start
// square); the rest is text handed to every parser: board, square, game, position (as written,
// and as a position some game reaches), rules and steps. A parser either throws InputError or
// returns a value whose text form parses back to the same value (and, for squares and
// positions, is the canonical spelling of it); the position of every game read passes the
// checks of positions some game reaches.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "core/errors.hpp"
#include "rastros/notation.hpp"
#include "rastros/rastros.hpp"

namespace {

using namespace rastros;

void check(bool condition) {
  if (!condition) std::abort();
}

std::optional<Rastros> variant_of(const std::uint8_t* selector) {
  const int width = 2 + selector[0] % 25;                          // 2..26 files
  const int height = 2 + (selector[1] & 0x7f) % (64 / width - 1);  // W*H <= 64
  const StepSet steps = selector[1] & 0x80 ? StepSet::orthogonal : StepSet::king;
  const StuckRule rules = selector[2] & 0x40 ? StuckRule::draws : StuckRule::loses;
  const Board board(width, height, steps);
  try {
    if (selector[2] & 0x80) return Rastros(board, (selector[2] & 0x3f) % (width * height), rules);
    return Rastros(board, std::nullopt, rules);
  } catch (const InputError&) {
    return std::nullopt;  // a start on a goal (the default start of 2x2 is one)
  }
}

void check_position(const Board& board, const Position& position) {
  check((position.free & ~board.all_squares()) == 0);
  check((position.free & bit(position.snail)) == 0);
  // The snail may be on a goal (an ended game); slime never is.
  check((board.goals() & ~position.free & ~bit(position.snail)) == 0);
  const std::string text = position_string(board, position);
  const Position again = parse_position(board, text);
  check(again == position);
  check(position_string(board, again) == text);
}

template <class Parse>
void try_parse(Parse parse) {
  try {
    parse();
  } catch (const InputError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return 0;
  const std::optional<Rastros> rastros = variant_of(data);
  if (!rastros) return 0;
  const Board& board = rastros->board();
  const std::string_view text(reinterpret_cast<const char*>(data + 3), size - 3);

  try_parse([&] {
    const Board parsed = parse_board(text);
    const Board again = parse_board(parsed.name());
    check(again.width() == parsed.width() && again.height() == parsed.height());
  });
  try_parse([&] { check(steps_name(parse_steps(text)) == text); });
  try_parse([&] { check(rules_name(parse_rules(text)) == text); });
  try_parse([&] {
    const Square square = parse_square(board, text);
    check(square >= 0 && square < board.square_count());
    check(square_name(board, square) == text);
    check(parse_square(board, square_name(board, square)) == square);
  });
  try_parse([&] {
    const PlayedGame game = parse_game(*rastros, text);
    const PlayedGame again = parse_game(*rastros, game_text(board, game.moves));
    check(again.moves == game.moves && again.position == game.position);
    // Every game's position, an ended one's too, prints as a string that reads back the same.
    check_position(board, game.position);
    // And passes the checks that refuse positions no game reaches.
    try {
      check(parse_reachable_position(*rastros, position_string(board, game.position)) ==
            game.position);
    } catch (const InputError&) {
      std::abort();
    }
  });
  try_parse([&] { check_position(board, parse_position(board, text)); });
  try_parse([&] {
    const Position position = parse_reachable_position(*rastros, text);
    check_position(board, position);
    check(parse_reachable_position(*rastros, position_string(board, position)) == position);
  });
  return 0;
}
