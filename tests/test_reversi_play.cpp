// Reversi against the program (games/reversi/reversi_evaluation.hpp, reversi_play.hpp): the
// evaluation search against plain minimax written here over the naive rules of
// reversi_reference.hpp (same evaluation at the leaves), the exact moves the program picks
// against plain minimax to the end, and the session's commands (play, pass, undo).

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "core/errors.hpp"
#include "engine/score_solver.hpp"
#include "games/reversi/reversi_evaluation.hpp"
#include "games/reversi/reversi_play.hpp"
#include "reversi_reference.hpp"

namespace rastros::reversi {
namespace {

using reference::Board;

/// Plain minimax over the naive rules, no pruning: a pass is a ply, an ended game a leaf.
int plain_minimax(const Evaluator& evaluate, const Board& board, int depth) {
  const auto moves = reference::naive_moves(board, 1);
  const bool ended = moves.empty() && reference::naive_moves(board, 2).empty();
  if (depth == 0 || ended) return evaluate(reference::to_state(board));
  if (moves.empty()) return -plain_minimax(evaluate, reference::swapped(board), depth - 1);
  int best = -1'000'000'000;
  for (const int square : moves) {
    best =
        std::max(best, -plain_minimax(evaluate, reference::naive_play(board, square), depth - 1));
  }
  return best;
}

TEST(ReversiEvaluation, AnEndedGameIsWorthItsMarginTimesTheDiscValue) {
  const Reversi game(4);
  const Evaluator evaluate(game);
  // Black has the top row, white nothing: the game is over, 4 discs and 12 empties to black.
  const ReversiState state{0xF, 0};
  EXPECT_EQ(evaluate(state), 16 * kEndedDiscValue);
  EXPECT_EQ(evaluate({0, 0xF}), -16 * kEndedDiscValue);
}

TEST(ReversiEvaluation, CornersAndMobilityCountForTheMover) {
  const Reversi game(8);
  const Evaluator evaluate(game);
  EXPECT_EQ(evaluate(game.start()), 0);  // symmetric: 4 moves each, no corner, nothing stable
  std::mt19937_64 random(5);
  for (int i = 0; i < 200; ++i) {
    const ReversiState state = reference::random_game_state(random, game, 30);
    EXPECT_EQ(evaluate(state), -evaluate({state.theirs, state.mine}));
  }
}

void check_against_minimax(int n, int empties, int count, std::uint64_t seed) {
  const Reversi game(n);
  const Evaluator evaluate(game);
  std::mt19937_64 random(seed);
  for (int i = 0; i < count; ++i) {
    const ReversiState state = reference::random_game_state(random, game, empties);
    if (game.is_terminal(state)) continue;
    const Board board = reference::from_state(state, n);
    for (int depth = 1; depth <= 4; ++depth) {
      const EvaluationResult result = search_evaluation(evaluate, state, depth);
      // The value and the move: the first legal move (square order) of the best value.
      int best = -1'000'000'000;
      ReversiMove best_move = kPass;
      for (const ReversiMove move : game.legal_moves(state)) {
        const Board child =
            move == kPass ? reference::swapped(board) : reference::naive_play(board, move);
        const int value = -plain_minimax(evaluate, child, depth - 1);
        if (value > best) best = value, best_move = move;
      }
      ASSERT_EQ(result.value, best) << "n " << n << " position " << i << " depth " << depth;
      ASSERT_EQ(result.best, best_move) << "n " << n << " position " << i << " depth " << depth;
    }
  }
}

TEST(ReversiEvaluation, SearchMatchesPlainMinimaxFourByFour) {
  check_against_minimax(4, 9, 40, 1);
}
TEST(ReversiEvaluation, SearchMatchesPlainMinimaxSixBySix) {
  check_against_minimax(6, 22, 15, 2);
}
TEST(ReversiEvaluation, SearchMatchesPlainMinimaxEightByEight) {
  check_against_minimax(8, 40, 8, 3);
  check_against_minimax(8, 6, 20, 4);  // near the end: passes and ended games inside the tree
}

TEST(ReversiEvaluation, StopThrowsSearchStopped) {
  const Reversi game(8);
  const Evaluator evaluate(game);
  const std::atomic<bool> stop{true};
  EXPECT_THROW(search_evaluation(evaluate, game.start(), 8, &stop), engine::SearchStopped);
}

/// Program against program on 4×4 from the start: every move it picks (all exact, the whole
/// game within reach) is optimal by plain minimax to the end.
TEST(ReversiPlay, ExactMovesOnFourByFourAreOptimalByMinimax) {
  const ReversiInput start{Reversi(4), {}, start_position(Reversi(4))};
  ReversiPlaySession session(start, {false, false}, {}, std::size_t{1} << 20);
  int plies = 0;
  while (!session.is_over()) {
    const Board board = reference::from_state(search_state(session.position()), 4);
    const auto [move, advice] = session.computer_move();
    ASSERT_TRUE(advice.exact);
    const int best = reference::minimax(board);
    EXPECT_EQ(advice.score, best);
    const Board child =
        move == kPass ? reference::swapped(board) : reference::naive_play(board, move);
    EXPECT_EQ(-reference::minimax(child), best) << "ply " << plies;
    for (const auto& [each, score] : advice.moves) {
      const Board after =
          each == kPass ? reference::swapped(board) : reference::naive_play(board, each);
      EXPECT_EQ(score, -reference::minimax(after));
    }
    ++plies;
  }
  EXPECT_GE(plies, 10);
}

/// 8×8 endgames: within the threshold the program's move is optimal by plain minimax; beyond it
/// it is an estimate of the configured depth.
TEST(ReversiPlay, EightByEightEndgameMovesAreOptimalByMinimax) {
  const Reversi game(8);
  std::mt19937_64 random(88);
  ReversiAdvisor advisor(game, {7, 3}, std::size_t{1} << 20);
  for (int i = 0; i < 20; ++i) {
    const ReversiState state = reference::random_game_state(random, game, 7);
    if (game.is_terminal(state)) continue;
    const ReversiPosition position{state.mine, state.theirs, 0};
    const ReversiAdvice advice = advisor.advise(position);
    ASSERT_TRUE(advice.exact);
    const Board board = reference::from_state(state, 8);
    const Board child = advice.best == kPass ? reference::swapped(board)
                                             : reference::naive_play(board, advice.best);
    EXPECT_EQ(-reference::minimax(child), reference::minimax(board)) << "position " << i;
    EXPECT_EQ(advice.score, reference::minimax(board));
  }
  const ReversiAdvice early = advisor.advise(start_position(game));
  EXPECT_FALSE(early.exact);
  EXPECT_EQ(early.depth, 3);
  EXPECT_TRUE(early.moves.empty());
}

TEST(ReversiPlay, SessionPlaysUndoesAndRefuses) {
  const Reversi game(8);
  const ReversiInput start{game, {}, start_position(game)};
  ReversiPlaySession session(start, {true, false}, {20, 2}, std::size_t{1} << 20);
  EXPECT_TRUE(session.humans_turn());
  EXPECT_THROW(session.play("a1"), InputError);    // not legal
  EXPECT_THROW(session.play("pass"), InputError);  // a move exists
  EXPECT_THROW(session.play("z9"), InputError);    // not a square
  EXPECT_THROW(session.undo(), InputError);        // nothing played
  EXPECT_THROW(session.computer_move(), InputError);
  EXPECT_EQ(session.play("F5"), 8 * 4 + 5);
  EXPECT_FALSE(session.humans_turn());
  const auto [reply, advice] = session.computer_move();
  EXPECT_FALSE(advice.exact);
  EXPECT_EQ(session.moves().size(), 2u);
  const auto taken = session.undo();
  ASSERT_EQ(taken.size(), 2u);
  EXPECT_EQ(taken[0], 8 * 4 + 5);
  EXPECT_EQ(taken[1], reply);
  EXPECT_EQ(session.position(), start_position(game));
}

TEST(ReversiPlay, PassIsTheOnlyMoveWhenThereIsNone) {
  // White to move on 4×4 has no move (X X O in the top row, the rest empty), black has c1..:
  // the position of reversi_cli_test.sh's forced pass.
  const Reversi game(4);
  const ReversiInput start{game, {}, parse_position(game, "XXO------------- O")};
  ReversiPlaySession session(start, {true, true}, {}, std::size_t{1} << 20);
  EXPECT_THROW(session.play("d1"), InputError);
  EXPECT_EQ(session.play("pass"), kPass);
  EXPECT_EQ(session.position().to_move, 0);
  EXPECT_EQ(session.undo().size(), 1u);  // both people: one move back
}

TEST(ReversiPlay, OptionsOutOfRangeAreRefused) {
  EXPECT_THROW(check_play_options({65, 6}), InputError);
  EXPECT_THROW(check_play_options({-2, 6}), InputError);
  EXPECT_THROW(check_play_options({20, 0}), InputError);
  EXPECT_THROW(check_play_options({20, 13}), InputError);
  EXPECT_NO_THROW(check_play_options({-1, 6}));
}

}  // namespace
}  // namespace rastros::reversi
