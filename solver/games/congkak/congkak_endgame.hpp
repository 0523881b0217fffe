#pragma once
// Congkak endgame databases by seeds in play, built in memory before a search: the exact score
// (what the side to move gains from here on) of every state with at most K seeds left in the
// houses, for one number of houses (the seeds a house started with do not matter). Built level
// by level from 0 seeds up as Kalah's are (games/mancala/mancala_endgame.hpp: relay sowing that
// banks nothing stays in the mover's row, so a level's moves never cycle), one byte a state
// indexed by Congkak::level_rank. The solver asks it before searching a state it holds.

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "games/congkak/congkak.hpp"

namespace rastros::congkak {

class CongkakEndgame {
 public:
  /// Every level from 0 to `max_seeds` for `game`'s houses. `progress` (may be empty) is told
  /// each finished level and its size. Throws InputError for a K out of 0..min(127, total
  /// seeds) (a score is a signed byte).
  static CongkakEndgame build(
      const Congkak& game, int max_seeds,
      const std::function<void(int seeds, std::uint64_t states)>& progress = {});
  /// States of every level from 0 to `max_seeds` seeds.
  static std::uint64_t states_up_to(const Congkak& game, int max_seeds);
  /// The most seeds whose database holds at most `max_states` states.
  static int seeds_within(const Congkak& game, std::uint64_t max_states);

  int houses() const { return houses_; }
  int max_seeds() const { return max_seeds_; }
  std::uint64_t size() const;

  /// The score of `state` when it has at most max_seeds() seeds in play.
  std::optional<int> probe(const Congkak& game, const CongkakState& state) const {
    const int seeds = game.seeds_in_play(state);
    if (seeds > max_seeds_) return std::nullopt;
    return levels_[seeds][game.level_rank(state)];
  }
  int score_at(int seeds, std::uint64_t rank) const { return levels_[seeds][rank]; }

 private:
  int houses_ = 0;
  int max_seeds_ = -1;
  std::vector<std::vector<std::int8_t>> levels_;
};

}  // namespace rastros::congkak
