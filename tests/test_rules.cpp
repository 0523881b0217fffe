// Rules: start position, move generation, play, game end and winner under both stuck rules,
// and canonical packing (side to move, region pruning, symmetry).

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "core/errors.hpp"
#include "rastros/canonical.hpp"
#include "rastros/notation.hpp"
#include "rastros/rastros.hpp"

namespace rastros {
namespace {

// 7x7 squares used below.
constexpr Square a1 = 0, b1 = 1, c1 = 2, d1 = 3, b2 = 8, c2 = 9, d2 = 10;
constexpr Square b3 = 15, c3 = 16, d3 = 17, e3 = 18, b4 = 22, c4 = 23, d4 = 24, e4 = 25;
constexpr Square c5 = 30, d5 = 31, e5 = 32, e6 = 39, f6 = 40, g6 = 41, e7 = 46, f7 = 47, g7 = 48;

SquareMask mask_of(std::initializer_list<Square> squares) {
  SquareMask mask = 0;
  for (Square s : squares) mask |= bit(s);
  return mask;
}

TEST(Rules, StartPosition) {
  const Rastros game(Board(7, 7));
  EXPECT_EQ(game.start(), d4);
  EXPECT_EQ(game.stuck_rule(), StuckRule::loses);
  const Position start = game.start_position();
  EXPECT_EQ(start.snail, d4);
  EXPECT_EQ(start.to_move, Player::one);
  EXPECT_EQ(start.free, game.board().all_squares() & ~bit(d4));
  EXPECT_FALSE(game.has_ended(start));
  EXPECT_FALSE(game.winner(start).has_value());

  const Rastros other(Board(5, 3), Square{1});  // b1
  EXPECT_EQ(other.start(), 1);
  EXPECT_EQ(other.start_position().snail, 1);
  EXPECT_EQ(count(other.start_position().free), 14);
}

TEST(Rules, StartOnAGoalIsRefused) {
  EXPECT_THROW(Rastros(Board(7, 7), a1), InputError);
  EXPECT_THROW(Rastros(Board(7, 7), g7), InputError);
  EXPECT_THROW(Rastros(Board(2, 2)), InputError);  // the default start is the goal b2
  EXPECT_THROW(Rastros(Board(7, 7), Square{49}), InputError);
  EXPECT_THROW(Rastros(Board(7, 7), Square{-1}), InputError);
  EXPECT_NO_THROW(Rastros(Board(2, 3)));  // default b2 is not a goal there
  EXPECT_NO_THROW(Rastros(Board(2, 2), Square{1}));
}

TEST(Rules, MovesFromTheStart) {
  const Rastros king(Board(7, 7));
  EXPECT_EQ(king.move_mask(king.start_position()), mask_of({c3, d3, e3, c4, e4, c5, d5, e5}));
  const Rastros orth(Board(7, 7, StepSet::orthogonal));
  EXPECT_EQ(orth.move_mask(orth.start_position()), mask_of({d3, c4, e4, d5}));

  std::vector<Square> listed;
  for (Square s : king.legal_moves(king.start_position())) listed.push_back(s);
  EXPECT_EQ(listed, (std::vector<Square>{c3, d3, e3, c4, e4, c5, d5, e5}));  // lowest first
  EXPECT_EQ(king.legal_moves(king.start_position()).size(), 8);

  EXPECT_TRUE(king.is_legal(king.start_position(), c3));
  EXPECT_FALSE(king.is_legal(king.start_position(), d4));  // the snail's own square
  EXPECT_FALSE(king.is_legal(king.start_position(), b2));  // two steps away
  EXPECT_FALSE(king.is_legal(king.start_position(), -1));  // off the board
  EXPECT_FALSE(king.is_legal(king.start_position(), 49));
  EXPECT_FALSE(orth.is_legal(orth.start_position(), c3));  // diagonal
}

TEST(Rules, PlaySlimesTheSquareLeftAndPassesTheTurn) {
  const Rastros game(Board(7, 7));
  const Position after_c3 = game.play(game.start_position(), c3);
  EXPECT_EQ(after_c3.snail, c3);
  EXPECT_EQ(after_c3.to_move, Player::two);
  EXPECT_EQ(after_c3.free, game.board().all_squares() & ~mask_of({d4, c3}));
  // d4 is slime now: not a legal move back.
  EXPECT_FALSE(game.is_legal(after_c3, d4));
  EXPECT_EQ(game.move_mask(after_c3), mask_of({b2, c2, d2, b3, d3, b4, c4}));

  const Position after_b2 = game.play(after_c3, b2);
  EXPECT_EQ(after_b2.to_move, Player::one);
  EXPECT_EQ(count(after_b2.free), 46);
  EXPECT_TRUE(game.is_legal(after_b2, a1));
}

TEST(Rules, EnteringOwnGoalWins) {
  for (StuckRule rule : {StuckRule::loses, StuckRule::draws}) {
    // 3x3, start b2: both goals are one step away.
    const Rastros game(Board(3, 3), std::nullopt, rule);
    ASSERT_EQ(game.start(), 4);
    const Position start = game.start_position();
    // Player 1 enters a1, its own goal.
    const Position p1_home = game.play(start, 0);
    EXPECT_TRUE(game.has_ended(p1_home));
    EXPECT_EQ(game.terminal_value(p1_home), Value::loss);  // for player 2, to move
    EXPECT_EQ(game.winner(p1_home), Player::one);
    EXPECT_EQ(game.move_mask(p1_home), 0u);
    // Player 1 enters c3, player 2's goal: legal, and loses at once.
    ASSERT_TRUE(game.is_legal(start, 8));
    const Position p1_away = game.play(start, 8);
    EXPECT_EQ(game.terminal_value(p1_away), Value::win);  // for player 2, to move
    EXPECT_EQ(game.winner(p1_away), Player::two);
    EXPECT_EQ(game.move_mask(p1_away), 0u);

    // Player 2 does the same one ply later.
    const Position mid = game.play(start, 1);  // b1
    ASSERT_FALSE(game.has_ended(mid));
    EXPECT_EQ(mid.to_move, Player::two);
    const Position p2_away = game.play(mid, 0);           // player 2 enters a1
    EXPECT_EQ(game.terminal_value(p2_away), Value::win);  // for player 1, to move
    EXPECT_EQ(game.winner(p2_away), Player::one);
    const Position mid2 = game.play(start, 5);             // c2
    const Position p2_home = game.play(mid2, 8);           // player 2 enters c3
    EXPECT_EQ(game.terminal_value(p2_home), Value::loss);  // for player 1
    EXPECT_EQ(game.winner(p2_home), Player::two);
  }
}

TEST(Rules, StuckSideToMoveLosesOrDraws) {
  const Board board(7, 7);
  // Snail c1, its neighbours b1 b2 c2 d2 d1 all slimed; the rest of the board empty.
  const SquareMask free = board.all_squares() & ~mask_of({c1, b1, b2, c2, d2, d1});
  for (Player side : {Player::one, Player::two}) {
    const Position stuck{free, c1, side};
    const Rastros standard(board, std::nullopt, StuckRule::loses);
    EXPECT_EQ(standard.move_mask(stuck), 0u);
    EXPECT_EQ(standard.terminal_value(stuck), Value::loss);
    EXPECT_EQ(standard.winner(stuck), opponent(side));
    const Rastros draws(board, std::nullopt, StuckRule::draws);
    EXPECT_EQ(draws.terminal_value(stuck), Value::draw);
    EXPECT_TRUE(draws.has_ended(stuck));
    EXPECT_FALSE(draws.winner(stuck).has_value());
  }
  // One free neighbour (d1): not stuck.
  const Position not_stuck{free | bit(d1), c1, Player::one};
  EXPECT_FALSE(Rastros(board).has_ended(not_stuck));
  EXPECT_EQ(Rastros(board).move_mask(not_stuck), bit(d1));
}

TEST(Rules, StuckAfterARealGame) {
  for (StuckRule rule : {StuckRule::loses, StuckRule::draws}) {
    // 4x4 from c3: the snail ends on a4 with a3, b3, b4 slimed; player 1 is to move, stuck.
    const Rastros small(Board(4, 4), std::nullopt, rule);
    const Position p1_stuck = parse_game(small, "b3 a3 b4 a4").position;
    EXPECT_EQ(p1_stuck.to_move, Player::one);
    EXPECT_EQ(small.move_mask(p1_stuck), 0u);
    EXPECT_TRUE(small.has_ended(p1_stuck));
    // 7x7 from d4: the snail ends on g1 with f1, f2, g2 slimed; player 2 is to move, stuck.
    const Rastros standard(Board(7, 7), std::nullopt, rule);
    const Position p2_stuck = parse_game(standard, "e3 f2 g2 f1 g1").position;
    EXPECT_EQ(p2_stuck.to_move, Player::two);
    EXPECT_TRUE(standard.has_ended(p2_stuck));
    if (rule == StuckRule::loses) {
      EXPECT_EQ(small.terminal_value(p1_stuck), Value::loss);
      EXPECT_EQ(small.winner(p1_stuck), Player::two);
      EXPECT_EQ(standard.terminal_value(p2_stuck), Value::loss);
      EXPECT_EQ(standard.winner(p2_stuck), Player::one);
    } else {
      EXPECT_EQ(small.terminal_value(p1_stuck), Value::draw);
      EXPECT_FALSE(small.winner(p1_stuck).has_value());
      EXPECT_EQ(standard.terminal_value(p2_stuck), Value::draw);
      EXPECT_FALSE(standard.winner(p2_stuck).has_value());
    }
  }
}

TEST(Rules, OnlyTheOpponentsGoalLeft) {
  const Board board(7, 7);
  const Rastros game(board);
  // Snail f7, neighbours e7 e6 f6 g6 slimed: the only move is into player 2's goal g7.
  const Position cornered{board.all_squares() & ~mask_of({f7, e7, e6, f6, g6}), f7, Player::one};
  EXPECT_FALSE(game.has_ended(cornered));
  EXPECT_EQ(game.move_mask(cornered), bit(g7));
  const Position after = game.play(cornered, g7);
  EXPECT_EQ(game.terminal_value(after), Value::win);
  EXPECT_EQ(game.winner(after), Player::two);
}

// A position rotated 180 degrees with the other side to move.
Position rotated(const Board& board, const Position& position) {
  const SquarePermutation rotation = rotation_180(board);
  return {rotation.apply(position.free), rotation.apply(position.snail),
          opponent(position.to_move)};
}

Position reflected(const Board& board, const Position& position) {
  const SquarePermutation reflection = diagonal_reflection(board);
  return {reflection.apply(position.free), reflection.apply(position.snail), position.to_move};
}

// Random non-terminal positions from random games.
std::vector<Position> random_positions(const Rastros& game, std::mt19937_64& random, int games) {
  std::vector<Position> positions;
  for (int g = 0; g < games; ++g) {
    Position position = game.start_position();
    while (!game.has_ended(position)) {
      positions.push_back(position);
      std::vector<Square> moves;
      for (Square s : game.legal_moves(position)) moves.push_back(s);
      position = game.play(position, moves[random() % moves.size()]);
    }
  }
  return positions;
}

TEST(Canonical, RotationWithOtherSideToMoveHasTheSameKey) {
  std::mt19937_64 random(2024);
  for (const auto& [w, h] : std::vector<std::pair<int, int>>{{7, 7}, {5, 3}, {8, 8}, {4, 6}}) {
    for (StepSet steps : {StepSet::king, StepSet::orthogonal}) {
      const Board board(w, h, steps);
      const Rastros game(board);
      for (bool prune : {false, true}) {
        const Canonicalizer canon(board, {prune, true});
        for (const Position& p : random_positions(game, random, 20)) {
          const PackedPosition key = canon.pack(p);
          EXPECT_EQ(key, canon.pack(rotated(board, p)))
              << board.name() << " " << position_string(board, p);
          if (board.is_square()) {
            EXPECT_EQ(key, canon.pack(reflected(board, p)))
                << board.name() << " " << position_string(board, p);
          }
          // Keys have player 1 to move.
          EXPECT_EQ(Canonicalizer::unpack(key).to_move, Player::one);
        }
      }
    }
  }
}

// With symmetry off (the baseline) the key keeps the side to move and the position itself.
TEST(Canonical, KeyWithoutSymmetryIsThePosition) {
  std::mt19937_64 random(5);
  for (const auto& [w, h] : std::vector<std::pair<int, int>>{{7, 7}, {8, 8}, {5, 3}}) {
    const Board board(w, h);
    const Rastros game(board);
    const Canonicalizer plain(board, {false, false});
    const Canonicalizer pruned(board, {true, false});
    for (const Position& p : random_positions(game, random, 20)) {
      EXPECT_EQ(Canonicalizer::unpack(plain.pack(p)), p) << position_string(board, p);
      const Position region_only{region_of(board, p.snail, p.free), p.snail, p.to_move};
      EXPECT_EQ(Canonicalizer::unpack(pruned.pack(p)), region_only) << position_string(board, p);
      // The two sides to move are told apart.
      const Position other_side{p.free, p.snail, opponent(p.to_move)};
      EXPECT_NE(plain.pack(p), plain.pack(other_side));
    }
  }
}

TEST(Canonical, PruningClearsOnlyUnreachableSquares) {
  std::mt19937_64 random(6);
  const Board board(7, 7);
  const Rastros game(board);
  const Canonicalizer pruned(board, {true, false});
  for (const Position& p : random_positions(game, random, 20)) {
    if (p.to_move != Player::one) continue;
    const PackedPosition key = pruned.pack(p);
    EXPECT_EQ(key.snail, p.snail);
    EXPECT_EQ(key.free, region_of(board, p.snail, p.free));
    EXPECT_EQ(key.free & ~p.free, 0u);
    // The snail's moves never change: every free neighbour is in its region.
    EXPECT_EQ(key.free & board.neighbours(p.snail), p.free & board.neighbours(p.snail));
  }
}

// The example in position.hpp, literally: both strings should give one key.
TEST(Canonical, PositionHeaderExamplesShareOneKey) {
  const Board board(7, 7);
  const Canonicalizer canon(board);
  const Position first = parse_position(board, "7/7/7/7/7/xxx4/1ox4 1");
  EXPECT_EQ(canon.pack(first), (PackedPosition{bit(a1), static_cast<std::uint8_t>(b1)}));
  const Position second = parse_position(board, "7/7/7/7/3x3/xxx4/1ox4 1");
  EXPECT_NE(first, second);
  EXPECT_EQ(canon.pack(first), canon.pack(second));
}

TEST(Canonical, RegionPruningMergesPositionsThatDifferOutsideTheRegion) {
  const Board board(7, 7);
  const Canonicalizer canon(board);
  // Snail b1 walled in by slime on a2 b2 c2 c1; only the goal a1 is reachable. Whatever lies
  // beyond the wall does not matter.
  const Position first = parse_position(board, "7/7/7/7/7/xxx4/1ox4 1");
  const Position second = parse_position(board, "7/7/x1x1x1x/7/1xx4/xxxx3/1ox1xx1 1");
  EXPECT_NE(first, second);
  EXPECT_EQ(canon.pack(first), canon.pack(second));
  EXPECT_EQ(canon.pack(first), (PackedPosition{bit(a1), static_cast<std::uint8_t>(b1)}));
  // Without pruning they differ.
  const Canonicalizer unpruned(board, {false, true});
  EXPECT_NE(unpruned.pack(first), unpruned.pack(second));
}

// Value and remoteness by plain negamax on raw positions, memoised on the raw position (not on
// the key under test): (value, remoteness) for the side to move.
using Solved = std::pair<Value, int>;

struct BruteSolver {
  const Rastros& game;
  std::map<std::tuple<SquareMask, Square, int>, Solved> memo;

  Solved solve(const Position& p) {
    if (const auto end = game.terminal_value(p)) return {*end, 0};
    const auto key = std::make_tuple(p.free, p.snail, number_of(p.to_move));
    if (const auto it = memo.find(key); it != memo.end()) return it->second;
    // Best for the mover: win fastest, else draw, else lose slowest.
    Solved best{Value::loss, -1};
    bool have = false;
    for (Square move : game.legal_moves(p)) {
      const auto [child_value, child_r] = solve(game.play(p, move));
      const Solved mine{negate(child_value), child_r + 1};
      auto rank = [](const Solved& s) {
        return s.first == Value::win    ? 1000 - s.second
               : s.first == Value::draw ? 0
                                        : -1000 + s.second;
      };
      if (!have || rank(mine) > rank(best)) best = mine;
      have = true;
    }
    if (best.first == Value::draw) best.second = 0;  // draws carry no remoteness
    memo[key] = best;
    return best;
  }
};

// Soundness of the canonical key: positions sharing a key have the same value and remoteness.
TEST(Canonical, EqualKeysHaveEqualValues) {
  for (const auto& [w, h] : std::vector<std::pair<int, int>>{{4, 4}, {5, 3}, {3, 4}}) {
    for (StuckRule rule : {StuckRule::loses, StuckRule::draws}) {
      const Board board(w, h);
      const Rastros game(board, std::nullopt, rule);
      const Canonicalizer canon(board);
      BruteSolver solver{game, {}};
      std::map<PackedPosition, Solved> by_key;
      // Every position reachable from the start.
      std::vector<Position> stack = {game.start_position()};
      std::set<std::tuple<SquareMask, Square, int>> seen;
      int checked = 0;
      while (!stack.empty()) {
        const Position p = stack.back();
        stack.pop_back();
        if (!seen.emplace(p.free, p.snail, number_of(p.to_move)).second) {
          continue;
        }
        if (game.has_ended(p)) continue;
        const Solved value = solver.solve(p);
        const auto [it, inserted] = by_key.emplace(canon.pack(p), value);
        if (!inserted) {
          ++checked;
          EXPECT_EQ(it->second, value) << board.name() << " " << position_string(board, p);
        }
        for (Square move : game.legal_moves(p)) stack.push_back(game.play(p, move));
      }
      EXPECT_GT(checked, 100) << board.name();  // the key does merge positions
    }
  }
}

}  // namespace
}  // namespace rastros
