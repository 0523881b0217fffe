// Reversi's bitboard rules against the square-by-square reference (reversi_reference.hpp) on
// random positions of every size, perft from the 8×8 start against the published counts, and
// the position strings and move names.

#include <gtest/gtest.h>

#include <random>

#include "core/errors.hpp"
#include "engine/score_perft.hpp"
#include "games/reversi/reversi.hpp"
#include "games/reversi/reversi_position.hpp"
#include "reversi_reference.hpp"

namespace rastros::reversi {
namespace {

Bits mask_of(const std::vector<int>& squares) {
  Bits mask = 0;
  for (const int s : squares) mask |= Bits{1} << s;
  return mask;
}

void check_random_positions(int n, int count) {
  const Reversi game(n);
  std::mt19937_64 random(1000 + n);
  for (int i = 0; i < count; ++i) {
    const double empty = (i % 10 + 1) / 11.0;
    const ReversiState state = reference::random_state(random, n, empty);
    const auto board = reference::from_state(state, n);
    const Bits moves = legal_moves(state.mine, state.theirs, game.geometry());
    ASSERT_EQ(moves, mask_of(reference::naive_moves(board, 1))) << "n=" << n << " i=" << i;
    ASSERT_EQ(legal_moves(state.theirs, state.mine, game.geometry()),
              mask_of(reference::naive_moves(board, 2)));
    for (int square = 0; square < 64; ++square) {
      // flips() is asked about empty squares only.
      if (square % 8 >= n || square / 8 >= n || ((state.mine | state.theirs) >> square & 1)) continue;
      ASSERT_EQ(flips(square, state.mine, state.theirs, game.geometry()),
                mask_of(reference::naive_flips(board, square / 8, square % 8, 1)))
          << "n=" << n << " i=" << i << " square=" << square;
    }
    for (const ReversiMove move : game.legal_moves(state)) {
      if (move == kPass) continue;
      ASSERT_EQ(game.play(state, move).next, reference::to_state(reference::naive_play(board, move)));
    }
  }
}

TEST(ReversiRules, MovesAndFlipsMatchTheNaiveGeneratorOn4x4) { check_random_positions(4, 3000); }
TEST(ReversiRules, MovesAndFlipsMatchTheNaiveGeneratorOn6x6) { check_random_positions(6, 3000); }
TEST(ReversiRules, MovesAndFlipsMatchTheNaiveGeneratorOn8x8) { check_random_positions(8, 3000); }

TEST(ReversiRules, PassIsTheOnlyMoveWhenTheMoverIsStuckAndNoneWhenBothAre) {
  const Reversi game(4);
  // White to move with black on a1 b1 and white on c1: white has no line to close, black has d1.
  const auto position = parse_position(game, "XXO" + std::string(13, '-') + " O");
  const ReversiState state = search_state(position);
  const auto moves = game.legal_moves(state);
  ASSERT_EQ(moves.size(), 1u);
  EXPECT_EQ(moves[0], kPass);
  EXPECT_FALSE(game.is_terminal(state));
  const auto ended = search_state(parse_position(game, "XX" + std::string(14, '-') + " O"));
  EXPECT_TRUE(game.is_terminal(ended));
  EXPECT_TRUE(game.legal_moves(ended).empty());
  // WOF: white (to move) has 0 discs, black 2, 14 empties to the winner: -16.
  EXPECT_EQ(game.terminal_score(ended), -16);
}

// Published perft of 8×8 Othello from the start (OEIS A124004; the same counts in many
// engines' tests): 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288. No game ends and no
// side passes before ply 9, so these depths do not depend on how passes are counted.
TEST(ReversiRules, PerftFromTheStartMatchesThePublishedCounts) {
  const Reversi game(8);
  const std::uint64_t published[] = {1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288};
  for (int depth = 0; depth <= 9; ++depth) {
    EXPECT_EQ(engine::perft(game, game.start(), depth), published[depth]) << depth;
  }
}

TEST(ReversiRules, PositionStringsRoundTrip) {
  for (const int n : {4, 6, 8}) {
    const Reversi game(n);
    std::mt19937_64 random(n);
    for (int i = 0; i < 200; ++i) {
      const auto state = reference::random_state(random, n, 0.4);
      const ReversiPosition position{state.mine, state.theirs, i % 2};
      EXPECT_EQ(parse_position(game, position_string(game, position)), position);
    }
  }
  const Reversi game(8);
  EXPECT_EQ(position_string(game, start_position(game)),
            "---------------------------OX------XO--------------------------- X");
}

TEST(ReversiRules, BadInputIsRefusedWithOneLine) {
  const Reversi game(8);
  for (const char* text : {"", "X", "---- X", "---------------------------OX------XO--------------------------- Z",
                           "---------------------------OX------XO---------------------------  X",
                           "---------------------------OQ------XO--------------------------- X"}) {
    try {
      parse_position(game, text);
      ADD_FAILURE() << text;
    } catch (const InputError& error) {
      EXPECT_EQ(std::string(error.what()).find('\n'), std::string::npos);
    }
  }
  EXPECT_THROW(parse_move(game, "i1"), InputError);
  EXPECT_THROW(parse_move(game, "a9"), InputError);
  EXPECT_THROW(parse_move(Reversi(6), "g1"), InputError);
  EXPECT_EQ(parse_move(game, "F5"), 8 * 4 + 5);
  EXPECT_EQ(parse_move(game, "pass"), kPass);
  EXPECT_THROW(Reversi(5), InputError);
  EXPECT_THROW(parse_board_size("10x10"), InputError);
  EXPECT_THROW(resolve_reversi_input("8x8", std::string("f5 f5"), std::nullopt), InputError);
  EXPECT_THROW(resolve_reversi_input("8x8", std::string("pass"), std::nullopt), InputError);
  EXPECT_THROW(resolve_reversi_input("8x8", std::string("f5"), std::string("x")), InputError);
  const auto input = resolve_reversi_input("8x8", std::string("f5 d6 c3"), std::nullopt);
  EXPECT_EQ(input.moves.size(), 3u);
  EXPECT_EQ(input.position.to_move, 1);
}

}  // namespace
}  // namespace rastros::reversi
