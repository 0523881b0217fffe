// Kalah moves seed by seed (games/kalah/kalah_sowing.hpp), as `rastros serve --game kalah`
// shows them: the position after each move equals Kalah::play's, the path holds one pit a seed
// in ring order and never the opponent's store, and captures and extra turns are reported
// where the rules put them.

#include <gtest/gtest.h>

#include <random>

#include "core/errors.hpp"
#include "games/kalah/kalah_sowing.hpp"

namespace rastros::kalah {
namespace {

/// The pit after `pit` on the mover's ring (the opponent's store skipped).
KalahPit next_pit(int houses, int mover, KalahPit pit) {
  if (pit.house < houses - 1) return {pit.player, pit.house + 1};
  if (pit.house == houses - 1 && pit.player == mover) return {pit.player, houses};
  return {1 - pit.player, 0};
}

TEST(KalahSowing, RandomGamesAgreeWithPlay) {
  std::mt19937_64 random(20261205);
  for (const auto& [houses, seeds] :
       {std::pair{1, 1}, {2, 3}, {3, 3}, {4, 4}, {6, 4}, {3, 12}, {6, 6}, {2, 20}}) {
    for (const CaptureRule rule : {CaptureRule::standard, CaptureRule::empty_capture}) {
      const Kalah game(houses, seeds, rule);
      for (int round = 0; round < 30; ++round) {
        KalahPosition position = start_position(game);
        while (!has_ended(game, position)) {
          const auto moves = game.legal_moves(search_state(game, position));
          const KalahMove move = moves[random() % moves.size()];
          const std::string where =
              game.name() + " " + position_string(game, position) + " move " + move_name(move);
          const KalahSowing sowing = sow(game, position, move);
          const KalahPosition expected = play(game, position, move);
          ASSERT_EQ(position_string(game, sowing.after), position_string(game, expected)) << where;
          ASSERT_EQ(sowing.path.size(),
                    static_cast<std::size_t>(position.rows[position.to_move][move]))
              << where;
          // Pit after pit round the ring, and the counts before plus the seeds sown (less the
          // capture) are the counts after.
          KalahPosition counted = position;
          counted.rows[position.to_move][move] = 0;
          KalahPit at{position.to_move, move};
          for (const KalahPit& pit : sowing.path) {
            at = next_pit(houses, position.to_move, at);
            ASSERT_EQ(pit, at) << where;
            if (pit.house == houses) {
              ASSERT_EQ(pit.player, position.to_move) << where << ": the opponent's store";
              ++counted.stores[pit.player];
            } else {
              ++counted.rows[pit.player][pit.house];
            }
          }
          if (sowing.capture) {
            const KalahCapture& capture = *sowing.capture;
            EXPECT_EQ(capture.house, sowing.path.back()) << where;
            EXPECT_EQ(capture.opposite.house, houses - 1 - capture.house.house) << where;
            EXPECT_EQ(capture.seeds, counted.rows[capture.opposite.player][capture.opposite.house] +
                                         counted.rows[capture.house.player][capture.house.house])
                << where;
            counted.stores[position.to_move] += capture.seeds;
            counted.rows[capture.opposite.player][capture.opposite.house] = 0;
            counted.rows[capture.house.player][capture.house.house] = 0;
          }
          counted.to_move = sowing.again ? position.to_move : 1 - position.to_move;
          ASSERT_EQ(counted, sowing.after) << where;
          EXPECT_EQ(sowing.again, sowing.path.back() == (KalahPit{position.to_move, houses}))
              << where;
          position = sowing.after;
        }
      }
    }
  }
}

TEST(KalahSowing, ExtraTurnCaptureAndLaps) {
  const Kalah game(6, 4);
  // House 3 of 4 seeds ends in player 1's store: another turn.
  const KalahSowing again = sow(game, start_position(game), 2);
  EXPECT_TRUE(again.again);
  EXPECT_EQ(again.path.back(), (KalahPit{0, 6}));
  EXPECT_EQ(position_string(game, again.after), "4,4,0,5,5,5,1/4,4,4,4,4,4,0 1");
  // Player 1's house 1 (one seed) into the empty house 2, facing player 2's house 5 (4 seeds).
  const KalahPosition capture_position = parse_position(game, "1,0,4,4,4,4,7/4,4,4,4,4,4,0 1");
  const KalahSowing captured = sow(game, capture_position, 0);
  ASSERT_TRUE(captured.capture);
  EXPECT_EQ(captured.capture->house, (KalahPit{0, 1}));
  EXPECT_EQ(captured.capture->opposite, (KalahPit{1, 4}));
  EXPECT_EQ(captured.capture->seeds, 5);
  EXPECT_EQ(position_string(game, captured.after), "0,0,4,4,4,4,12/4,4,4,4,0,4,0 2");
  // 13 seeds: a whole lap, back into the emptied house, which counts as empty: a capture.
  const KalahPosition lap_position = parse_position(game, "13,0,0,0,0,0,10/1,1,1,1,1,0,20 1");
  const KalahSowing lap = sow(game, lap_position, 0);
  EXPECT_EQ(lap.path.size(), 13u);
  EXPECT_EQ(lap.path.back(), (KalahPit{0, 0}));
  ASSERT_TRUE(lap.capture);
  EXPECT_EQ(lap.capture->seeds, 2);  // the last seed and the one sown facing it
  EXPECT_EQ(position_string(game, lap.after), position_string(game, play(game, lap_position, 0)));
  // Refusals.
  EXPECT_THROW(sow(game, capture_position, 1), InputError);
  EXPECT_THROW(sow(game, capture_position, 7), InputError);
  EXPECT_THROW(sow(game, parse_position(game, "0,0,0,0,0,0,24/4,4,4,4,4,4,0 2"), 0), InputError);
}

}  // namespace
}  // namespace rastros::kalah
