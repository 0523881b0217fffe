#pragma once
// Oware(M, N), Abapa rules: M houses a side, N seeds in each at the start (docs/rules.md,
// "Oware").
//
// The search state is Kalah's: the houses only, seen from the side to move (its houses 1..M,
// then the opponent's 1..M). The seeds captured so far are left out: rule 7's score, what the
// side to move captures from here on minus what the opponent does, depends on the board only,
// so one endgame-database record serves every split of the captured seeds. Oware uses Kalah's
// perfect ranking of seed distributions (Kalah::level_rank) for its levels.

#include <cstdint>
#include <string>

#include "core/small_vector.hpp"
#include "games/kalah/kalah.hpp"

namespace rastros::oware {

inline constexpr int kMaxHouses = kalah::kMaxHouses;
inline constexpr int kMaxSeeds = kalah::kMaxSeeds;

using OwareState = kalah::KalahState;
/// A move: the index (0-based) of the mover's house emptied. People write it 1-based.
using OwareMove = std::uint8_t;
using OwareMoveList = SmallVector<OwareMove, kMaxHouses>;

/// What one move does: the state after it (seen from the opponent, who always moves next), and
/// the seeds it captured. `again` is always false (the engine's API has it for Kalah).
struct OwarePlayed {
  OwareState next;
  int gain = 0;
  bool again = false;
};

class Oware {
 public:
  using State = OwareState;
  using Move = OwareMove;
  using MoveList = OwareMoveList;
  using Played = OwarePlayed;

  /// Throws InputError unless 1 <= houses <= 8, 1 <= seeds and 2*houses*seeds <= 250.
  Oware(int houses, int seeds);

  int houses() const { return houses_; }
  int seeds() const { return seeds_; }
  int total_seeds() const { return 2 * houses_ * seeds_; }
  std::string name() const;  // "oware(6,4)"

  State start() const;

  /// Seeds on the board: the most either side can still capture.
  int seeds_in_play(const State& state) const;
  /// The side to move has no seeds, or the opponent has none and no move feeds them.
  bool is_terminal(const State& state) const;
  /// Rule 4 at the end: + the board when the mover cannot feed, - the board when the mover has
  /// no seeds (0 on an empty board).
  int terminal_score(const State& state) const;

  /// The mover's non-empty houses; only the feeding ones when the opponent's row is empty.
  MoveList legal_moves(const State& state) const;
  /// Sows `move` (skipping its own house), captures the 2-or-3 chain unless it is a grand slam.
  Played play(const State& state, Move move) const;

  /// An exact identity of the houses (Kalah's key).
  std::uint64_t key(const State& state) const { return ranking_.key(state); }
  /// The number of states with exactly `seeds` on the board, and the rank of one among them.
  std::uint64_t level_size(int seeds) const { return ranking_.level_size(seeds); }
  std::uint64_t level_rank(const State& state) const { return ranking_.level_rank(state); }
  State level_unrank(int seeds, std::uint64_t rank) const {
    return ranking_.level_unrank(seeds, rank);
  }
  void level_next(State& state) const { ranking_.level_next(state); }

 private:
  int houses_;
  int seeds_;
  kalah::Kalah ranking_;  // the same houses: only its ranking of seed counts is used
};

}  // namespace rastros::oware
