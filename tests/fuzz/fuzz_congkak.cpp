// libFuzzer target: Congkak's position strings and games (the shared mancala parsers of
// games/mancala/mancala_position.hpp) and its relay sowing on whatever they accept.
//
// The first two bytes pick the variant (houses 1..8, seeds 1..20; the refusal of a variant
// too big is expected), the third what to do with the rest: parse it as a position string and
// sow every legal move of it (fast and traced: they must agree, and end: the lap bound of
// congkak.hpp throws logic_error, which aborts), or parse it as a game from the start.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include "core/errors.hpp"
#include "games/congkak/congkak.hpp"
#include "games/congkak/congkak_position.hpp"
#include "games/congkak/congkak_sowing.hpp"

namespace {

using namespace rastros;
using namespace rastros::congkak;

void check(bool condition) {
  if (!condition) std::abort();
}

void check_position(const Congkak& game, const CongkakPosition& position) {
  int total = position.stores[0] + position.stores[1];
  for (int p = 0; p < 2; ++p) {
    for (int i = 0; i < game.houses(); ++i) total += position.rows[p][i];
  }
  check(total == game.total_seeds());
  check(mancala::parse_position(game.board(), mancala::position_string(game.board(), position)) ==
        position);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return 0;
  std::optional<Congkak> variant;
  try {
    variant.emplace(1 + data[0] % 8, 1 + data[1] % 20);
  } catch (const InputError&) {
    return 0;
  }
  const Congkak& game = *variant;
  const std::string text(reinterpret_cast<const char*>(data + 3), size - 3);
  try {
    if (data[2] % 2 == 0) {
      const CongkakPosition position = mancala::parse_position(game.board(), text);
      check_position(game, position);
      for (const CongkakMove move : game.legal_moves(search_state(game, position))) {
        const CongkakPosition after = play(game, position, move);
        check(sow(game, position, move).after == after);
        check_position(game, after);
      }
    } else {
      const auto moves = parse_moves(game, text);
      CongkakPosition position = mancala::start_position(game.board());
      for (const CongkakMove move : moves) position = play(game, position, move);
      check_position(game, position);
    }
  } catch (const InputError&) {
  }
  return 0;
}
