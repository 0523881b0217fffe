#pragma once
// One Kalah move seed by seed, for showing it (the page of `rastros serve --game kalah`
// animates it): the pit each seed lands in, in order, the capture that follows, whether the
// mover moves again, and the position after. Written pit by pit from the rules text
// (docs/rules.md, "Kalah"), apart from Kalah::play, which sows whole laps at once; the tests
// check that both give the same position.

#include <optional>
#include <vector>

#include "games/kalah/kalah.hpp"
#include "games/kalah/kalah_position.hpp"

namespace rastros::kalah {

using KalahPit = mancala::MancalaPit;

/// The last seed in an empty house of the mover's, banked with the opposite house's seeds.
struct KalahCapture {
  KalahPit house;     // where the last seed landed
  KalahPit opposite;  // the opponent's house facing it (may be empty under empty-capture)
  int seeds = 0;      // moved to the mover's store: the opposite seeds and the last seed
};

struct KalahSowing {
  int mover = 0;  // 0: player 1, 1: player 2
  KalahMove move = 0;
  /// Where each seed lands, first sown first; as many as the house held.
  std::vector<KalahPit> path;
  std::optional<KalahCapture> capture;
  /// The last seed fell into the mover's store: the mover moves again.
  bool again = false;
  /// The position after the move (equal to play(game, position, move)); when a row is empty
  /// the game has ended and final_stores() gives each side's total.
  KalahPosition after;
};

/// Sows `move` (0-based house of the side to move) seed by seed. Throws InputError when the
/// game has ended or the house is empty.
KalahSowing sow(const Kalah& game, const KalahPosition& position, KalahMove move);

}  // namespace rastros::kalah
