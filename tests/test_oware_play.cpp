// Oware games against perfect play (games/oware/oware_play.hpp): the computer's move is one of
// best score, undo goes back to the person's last turn, and beyond reach nothing is guessed.

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "games/oware/oware_play.hpp"

namespace {

using namespace rastros::oware;

TEST(OwarePlay, TheComputerPlaysABestMoveAndUndoReturnsToThePerson) {
  const Oware game(3, 2);
  const OwareDatabase database = OwareDatabase::build(game, 12);
  OwarePlaySession session(game, database, 0, start_position(game), 1);
  EXPECT_FALSE(session.humans_turn());
  EXPECT_THROW(session.undo(), rastros::InputError);
  const auto before = session.hint();
  ASSERT_TRUE(before.has_value());
  const auto move = session.computer_move();
  ASSERT_TRUE(move.has_value());
  // The move played scores what the position scores.
  for (const OwareMoveScore& m : before->moves) {
    if (m.move == *move) {
      EXPECT_EQ(m.score, before->score);
    }
  }
  ASSERT_TRUE(session.humans_turn());
  const OwarePosition after_reply = session.position();
  EXPECT_THROW(session.play("9"), rastros::InputError);
  session.play(move_name(game.legal_moves(search_state(game, session.position()))[0]));
  if (!session.is_over()) {
    ASSERT_TRUE(session.computer_move().has_value());
  }
  session.undo();
  EXPECT_EQ(session.position(), after_reply);
}

TEST(OwarePlay, BeyondTheDatabaseAndBudgetNothingIsPlayed) {
  const Oware game(6, 4);
  const OwareDatabase database = OwareDatabase::build(game, 4);
  OwarePlaySession session(game, database, 100, start_position(game), 1);
  EXPECT_FALSE(session.computer_move().has_value());
  EXPECT_EQ(session.position(), start_position(game));
}

}  // namespace
