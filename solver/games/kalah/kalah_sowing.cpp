#include "games/kalah/kalah_sowing.hpp"

#include "core/errors.hpp"

namespace rastros::kalah {

KalahSowing sow(const Kalah& game, const KalahPosition& position, KalahMove move) {
  const int m = game.houses();
  const int mover = position.to_move;
  const int opponent = 1 - mover;
  if (has_ended(game, position)) throw InputError("the game has ended: no move to sow");
  if (move >= m || position.rows[mover][move] == 0) {
    throw InputError("illegal move " + move_name(move) + ": player " + std::to_string(mover + 1) +
                     "'s house " + move_name(move) + " is " +
                     (move >= m ? "not on the board" : "empty"));
  }
  KalahSowing sowing;
  sowing.mover = mover;
  sowing.move = move;
  KalahPosition& after = sowing.after;
  after = position;
  int seeds = after.rows[mover][move];
  after.rows[mover][move] = 0;
  KalahPit pit{mover, move};
  while (seeds-- > 0) {
    // Counter-clockwise: on along a row, from the mover's last house into its store, from a
    // store (only the mover's is ever reached) or the opponent's last house to the next row.
    if (pit.house + 1 < m) {
      ++pit.house;
    } else if (pit.house + 1 == m && pit.player == mover) {
      pit.house = m;
    } else {
      pit = {1 - pit.player, 0};
    }
    if (pit.house == m) {
      ++after.stores[mover];
    } else {
      ++after.rows[pit.player][pit.house];
    }
    sowing.path.push_back(pit);
  }
  const KalahPit last = pit;
  sowing.again = last.player == mover && last.house == m;
  if (last.player == mover && last.house < m && after.rows[mover][last.house] == 1) {
    const KalahPit opposite{opponent, m - 1 - last.house};
    const int facing = after.rows[opponent][opposite.house];
    if (facing > 0 || game.rule() == CaptureRule::empty_capture) {
      sowing.capture = KalahCapture{last, opposite, facing + 1};
      after.stores[mover] += facing + 1;
      after.rows[opponent][opposite.house] = 0;
      after.rows[mover][last.house] = 0;
    }
  }
  after.to_move = sowing.again ? mover : opponent;
  return sowing;
}

}  // namespace rastros::kalah
