// A game against perfect play (analysis/play_session.hpp): on 4x4 and 5x5, against random
// human moves, the computer never loses a position it was to move in and winning, each of its
// moves keeps the position's outcome per the live solver, hints match Solver::analyse, undo
// restores the exact previous position, and bad input is refused with an InputError naming
// the problem. The same with a strong database as the oracle.

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "analysis/play_session.hpp"
#include "core/errors.hpp"
#include "db/strong_database.hpp"
#include "rastros/notation.hpp"
#include "search/solver.hpp"

namespace rastros {
namespace {

// The message of the InputError `action` throws ("" when it throws none).
template <typename Action>
std::string input_error(Action action) {
  try {
    action();
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

void expect_same_children(const std::vector<MoveOutcome>& got,
                          const std::vector<MoveOutcome>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].move, want[i].move);
    EXPECT_EQ(got[i].outcome, want[i].outcome) << "move " << got[i].move;
  }
}

// Plays `games` games of random human moves against the session's computer, alternating the
// human's side, checking every computer move and every hint against `reference`.
template <typename MakeSession>
void play_random_games(const Rastros& game, MakeSession make_session, int games, unsigned seed) {
  Solver reference(game);
  std::mt19937 random(seed);
  for (int g = 0; g < games; ++g) {
    const Player human = g % 2 == 0 ? Player::one : Player::two;
    auto session = make_session(human);
    bool computer_had_a_win = false;
    while (!session->is_over()) {
      const Position before = session->position();
      if (session->humans_turn()) {
        const Analysis analysis = reference.analyse(before);
        expect_same_children(session->hint(), analysis.children);
        const std::vector<Square> legal = session->legal_moves();
        ASSERT_FALSE(legal.empty());
        const Square move = legal[random() % legal.size()];
        session->play(square_name(game.board(), move));
      } else {
        const Outcome outcome = reference.solve(before);
        const ComputerMove reply = session->computer_move();
        EXPECT_EQ(reply.outcome, outcome);
        // The move keeps the outcome: its child is worth exactly one ply less, negated.
        const Outcome child = reference.solve(session->position());
        EXPECT_EQ(parent_score(score_of(child)), score_of(outcome))
            << "move " << square_name(game.board(), reply.move) << " from "
            << position_string(game.board(), before);
        // Deterministic: the lowest best square.
        const Analysis analysis = reference.analyse(before);
        ASSERT_FALSE(analysis.best_moves.empty());
        EXPECT_EQ(reply.move, analysis.best_moves.front());
        if (outcome.value == Value::win) computer_had_a_win = true;
      }
    }
    if (computer_had_a_win) {
      EXPECT_EQ(session->winner(), session->computer()) << "game " << g;
    }
    EXPECT_TRUE(session->hint().empty());
  }
}

class PlaySessionBoards : public ::testing::TestWithParam<int> {};

TEST_P(PlaySessionBoards, LiveSolverNeverLosesAWonPosition) {
  const Rastros game(Board(GetParam(), GetParam()));
  play_random_games(
      game, [&](Player human) { return std::make_unique<PlaySession>(game, human); }, 50,
      static_cast<unsigned>(GetParam()));
}

TEST_P(PlaySessionBoards, DatabaseNeverLosesAWonPosition) {
  const Rastros game(Board(GetParam(), GetParam()));
  const Database database = build_strong_database(game);
  play_random_games(
      game,
      [&](Player human) {
        auto session = std::make_unique<PlaySession>(database, human);
        EXPECT_TRUE(session->has_database());
        return session;
      },
      50, 100 + static_cast<unsigned>(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Boards, PlaySessionBoards, ::testing::Values(4, 5));

TEST(PlaySession, ComputerMovesFromTheDatabase) {
  const Rastros game(Board(4, 4));
  const Database database = build_strong_database(game);
  PlaySession session(database, Player::two);
  EXPECT_TRUE(session.computer_move().from_database);
}

TEST(PlaySession, UndoRestoresThePreviousPosition) {
  const Rastros game(Board(5, 5));
  PlaySession session(game, Player::one);
  EXPECT_NE(input_error([&] { session.undo(); }).find("nothing to undo"), std::string::npos);

  session.play("b2");
  session.computer_move();
  const Position after_one = session.position();
  const std::vector<Square> moves_after_one = session.moves();
  ASSERT_EQ(moves_after_one.size(), 2u);

  const Square next = session.legal_moves().back();
  session.play(next);
  ASSERT_FALSE(session.is_over());
  const Square reply = session.computer_move().move;
  const std::vector<Square> taken = session.undo();
  EXPECT_EQ(taken, (std::vector<Square>{next, reply}));
  EXPECT_EQ(session.position(), after_one);
  EXPECT_EQ(session.moves(), moves_after_one);
  EXPECT_TRUE(session.humans_turn());

  // Human's move taken back before the computer replied.
  session.play(next);
  EXPECT_EQ(session.undo(), (std::vector<Square>{next}));
  EXPECT_EQ(session.position(), after_one);

  session.undo();
  EXPECT_EQ(session.position(), game.start_position());
  EXPECT_TRUE(session.moves().empty());
}

TEST(PlaySession, UndoAsPlayerTwoKeepsTheComputersOpening) {
  const Rastros game(Board(4, 4));
  PlaySession session(game, Player::two);
  session.computer_move();
  const Position opening = session.position();
  EXPECT_NE(input_error([&] { session.undo(); }).find("nothing to undo"), std::string::npos);
  session.play(session.legal_moves().front());
  if (!session.is_over()) session.computer_move();
  session.undo();
  EXPECT_EQ(session.position(), opening);
  EXPECT_EQ(session.moves().size(), 1u);
}

TEST(PlaySession, UndoAfterTheHumanEndsTheGame) {
  // 4x4 from c3: b2 then, after any reply next to a1, the human can step into a1 and win.
  const Rastros game(Board(4, 4));
  PlaySession session(game, Player::one);
  session.play("b2");
  session.computer_move();
  const Position before = session.position();
  session.play(session.legal_moves().front());
  if (session.is_over()) {
    session.undo();
    EXPECT_EQ(session.position(), before);
  }
}

TEST(PlaySession, RefusesIllegalInput) {
  const Rastros game(Board(4, 4));  // start c3
  PlaySession session(game, Player::one);
  const auto refused = [&](const std::string& text) {
    const Position before = session.position();
    const std::string message = input_error([&] { session.play(text); });
    EXPECT_EQ(session.position(), before) << text;
    return message;
  };
  EXPECT_NE(refused("zz").find("not a square"), std::string::npos);
  EXPECT_NE(refused("").find("not a square"), std::string::npos);
  EXPECT_NE(refused("e1").find("not a square"), std::string::npos);
  EXPECT_NE(refused("a5").find("not a square"), std::string::npos);
  EXPECT_NE(refused("a1").find("not a step from the snail"), std::string::npos);
  EXPECT_NE(refused("c3").find("not a step from the snail"), std::string::npos);

  session.play("b2");
  EXPECT_NE(refused("c2").find("computer's turn"), std::string::npos);
  session.computer_move();
  // The square the computer left is slime, and next to the snail.
  EXPECT_NE(refused("b2").find("onto slime"), std::string::npos);

  // Play on (randomly but legally) until the end.
  while (!session.is_over()) {
    if (session.humans_turn()) {
      session.play(session.legal_moves().back());
    } else {
      session.computer_move();
    }
  }
  EXPECT_NE(refused("b2").find("game over"), std::string::npos);
  EXPECT_NE(input_error([&] { session.computer_move(); }).find("game over"), std::string::npos);
  EXPECT_TRUE(session.winner().has_value());
  EXPECT_TRUE(session.legal_moves().empty());
}

}  // namespace
}  // namespace rastros
