#pragma once
// One Congkak move lap by lap, for showing it (`show --trace`): where each lap started (the
// house lifted) and ended (the pit its last seed fell into), the capture that ends the move,
// whether the mover moves again, and the position after. Written seed by seed from the rules
// text (docs/rules.md, "Congkak"), apart from Congkak::play, which adds whole rings at once;
// the tests check that both give the same position.

#include <optional>
#include <vector>

#include "games/congkak/congkak.hpp"
#include "games/congkak/congkak_position.hpp"

namespace rastros::congkak {

using CongkakPit = mancala::MancalaPit;

struct CongkakLap {
  CongkakPit start;  // the house lifted (the move's house for the first lap)
  int seeds = 0;     // the seeds it held, sown one a pit from the next pit on
  CongkakPit end;    // where the last seed fell
  /// Where each seed fell, in order (`seeds` pits, the last one `end`): for animating a lap.
  std::vector<CongkakPit> path;
};

/// The last seed in an empty house of the mover's, banked with the opposite house's seeds.
struct CongkakCapture {
  CongkakPit house;
  CongkakPit opposite;
  int seeds = 0;  // moved to the mover's store: the opposite seeds and the last seed
};

struct CongkakSowing {
  int mover = 0;  // 0: player 1, 1: player 2
  CongkakMove move = 0;
  std::vector<CongkakLap> laps;
  std::optional<CongkakCapture> capture;
  /// The last seed fell into the mover's store: the mover moves again.
  bool again = false;
  /// The position after the move (equal to play(game, position, move)).
  CongkakPosition after;
};

/// Sows `move` (0-based house of the side to move) seed by seed. Throws InputError when the
/// game has ended or the house is empty.
CongkakSowing sow(const Congkak& game, const CongkakPosition& position, CongkakMove move);

}  // namespace rastros::congkak
