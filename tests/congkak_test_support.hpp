#pragma once
// Between the Congkak reference (congkak_reference.hpp) and the library: converting positions
// and seeding random choices (a fixed seed plus RASTROS_TEST_SEED when set).

#include <cstdint>
#include <cstdlib>
#include <string>

#include "congkak_reference.hpp"
#include "games/congkak/congkak.hpp"
#include "games/congkak/congkak_position.hpp"

namespace congkak_test {

inline std::uint64_t seeded(std::uint64_t seed) {
  const char* extra = std::getenv("RASTROS_TEST_SEED");
  return extra ? seed ^ std::strtoull(extra, nullptr, 10) : seed;
}

inline rastros::congkak::CongkakPosition to_library(const congkak_reference::RefGame& game,
                                                    const congkak_reference::RefPosition& ref) {
  rastros::congkak::CongkakPosition position;
  for (int p = 0; p < 2; ++p) {
    for (int i = 0; i < game.houses; ++i) position.rows[p][i] = ref.pits[game.house(p, i)];
    position.stores[p] = ref.pits[game.store(p)];
  }
  position.to_move = ref.to_move;
  return position;
}

inline std::string text(const rastros::congkak::Congkak& game,
                        const rastros::congkak::CongkakPosition& position) {
  return game.name() + " '" + rastros::mancala::position_string(game.board(), position) + "'";
}

}  // namespace congkak_test
