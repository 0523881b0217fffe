#include "games/congkak/congkak_sowing.hpp"

#include <stdexcept>

#include "core/errors.hpp"

namespace rastros::congkak {
namespace {

// The pit after `pit` counter-clockwise: on along a row, from the mover's last house into its
// store, from a store (only the mover's is ever reached) or the opponent's last house to the
// next row.
CongkakPit next_pit(CongkakPit pit, int mover, int houses) {
  if (pit.house + 1 < houses) return {pit.player, pit.house + 1};
  if (pit.house + 1 == houses && pit.player == mover) return {pit.player, houses};
  return {1 - pit.player, 0};
}

}  // namespace

CongkakSowing sow(const Congkak& game, const CongkakPosition& position, CongkakMove move) {
  const int m = game.houses();
  const int mover = position.to_move;
  const mancala::MancalaBoard board = game.board();
  if (mancala::has_ended(board, position)) throw InputError("the game has ended: no move to sow");
  if (move >= m || position.rows[mover][move] == 0) {
    throw InputError("illegal move " + mancala::move_name(move) + ": player " +
                     std::to_string(mover + 1) + "'s house " + mancala::move_name(move) + " is " +
                     (move >= m ? "not on the board" : "empty"));
  }
  CongkakSowing sowing;
  sowing.mover = mover;
  sowing.move = move;
  CongkakPosition& after = sowing.after;
  after = position;
  const std::int64_t lap_limit = max_laps(m, game.total_seeds());
  CongkakPit pit{mover, move};
  while (true) {
    if (static_cast<std::int64_t>(sowing.laps.size()) >= lap_limit) {
      throw std::logic_error("congkak: a move ran past its lap bound");
    }
    CongkakLap lap{pit, after.rows[pit.player][pit.house], pit, {}};
    after.rows[pit.player][pit.house] = 0;
    for (int seed = 0; seed < lap.seeds; ++seed) {
      pit = next_pit(pit, mover, m);
      lap.path.push_back(pit);
      ++(pit.house == m ? after.stores[mover] : after.rows[pit.player][pit.house]);
    }
    lap.end = pit;
    sowing.laps.push_back(lap);
    if (pit.house == m) {
      sowing.again = true;
      break;
    }
    if (after.rows[pit.player][pit.house] > 1) continue;  // not empty before: relay
    if (pit.player == mover) {
      const CongkakPit opposite{1 - mover, m - 1 - pit.house};
      const int facing = after.rows[opposite.player][opposite.house];
      if (facing > 0) {
        sowing.capture = CongkakCapture{pit, opposite, facing + 1};
        after.stores[mover] += facing + 1;
        after.rows[opposite.player][opposite.house] = 0;
        after.rows[mover][pit.house] = 0;
      }
    }
    break;
  }
  after.to_move = sowing.again ? mover : 1 - mover;
  return sowing;
}

}  // namespace rastros::congkak
