// libFuzzer target: Reversi's text parsers (games/reversi/reversi_position.hpp) on arbitrary
// bytes. The first byte picks the board (4x4, 6x6, 8x8) and whether the rest is a position
// string or a list of moves from the start. A parser either throws InputError or returns a
// position whose string parses back to itself, with no square of both colours and, for moves,
// one reached by legal moves only.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include "core/errors.hpp"
#include "games/reversi/reversi_position.hpp"

namespace {

using namespace rastros;
using namespace rastros::reversi;

void check(bool condition) {
  if (!condition) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const char* boards[] = {"4x4", "6x6", "8x8"};
  const std::string board = boards[data[0] % 3];
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  const bool as_moves = data[0] & 0x80;
  try {
    const ReversiInput input = as_moves ? resolve_reversi_input(board, text, std::nullopt)
                                        : resolve_reversi_input(board, std::nullopt, text);
    const ReversiPosition& position = input.position;
    check((position.black & position.white) == 0);
    check(((position.black | position.white) & ~input.game.geometry().inside) == 0);
    check(parse_position(input.game, position_string(input.game, position)) == position);
  } catch (const InputError&) {
  }
  return 0;
}
