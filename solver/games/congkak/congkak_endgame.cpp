#include "games/congkak/congkak_endgame.hpp"

#include <algorithm>
#include <string>

#include "core/errors.hpp"
#include "games/mancala/mancala_endgame.hpp"

namespace rastros::congkak {

namespace {

// A score is a signed byte: no level above this is stored.
constexpr int kMaxLevel = 127;

}  // namespace

CongkakEndgame CongkakEndgame::build(const Congkak& game, int max_seeds,
                                     const std::function<void(int, std::uint64_t)>& progress) {
  const int most = std::min(kMaxLevel, game.total_seeds());
  if (max_seeds < 0 || max_seeds > most) {
    throw InputError("--endgame-seeds must be between 0 and " + std::to_string(most) + ", not " +
                     std::to_string(max_seeds));
  }
  CongkakEndgame database;
  database.houses_ = game.houses();
  for (int seeds = 0; seeds <= max_seeds; ++seeds) {
    database.levels_.push_back(mancala::build_endgame_level(game, database.levels_, seeds));
    database.max_seeds_ = seeds;
    if (progress) progress(seeds, database.levels_.back().size());
  }
  return database;
}

std::uint64_t CongkakEndgame::states_up_to(const Congkak& game, int max_seeds) {
  return mancala::endgame_states_up_to(game, max_seeds);
}

int CongkakEndgame::seeds_within(const Congkak& game, std::uint64_t max_states) {
  return mancala::endgame_seeds_within(game, max_states, std::min(kMaxLevel, game.total_seeds()));
}

std::uint64_t CongkakEndgame::size() const {
  std::uint64_t total = 0;
  for (const auto& level : levels_) total += level.size();
  return total;
}

}  // namespace rastros::congkak
