// Traps (rastros/traps.hpp): the bit-mask test against its definition played out move by move
// with the game's own rules, and every trap found against the plain minimax: a win within five
// plies.

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "rastros/notation.hpp"
#include "rastros/rastros.hpp"
#include "rastros/traps.hpp"
#include "reference_minimax.hpp"
#include "slimed_positions.hpp"
#include "sample_scale.hpp"

namespace rastros {
namespace {

/// Whether `player`'s goal is a legal move in `position`: the snail is next to the empty goal.
bool can_enter_goal(const Rastros& game, const Position& position, Player player) {
  return game.is_legal(position, game.board().goal_of(player));
}

/// The definition of a trap, played out with Rastros::play and legal_moves instead of masks:
/// after `move`, the opponent has not lost at once and cannot enter their goal; they have a
/// reply that is not a loss at once (into our goal, or beside it while it is empty); and each
/// such reply has an answer, neither into their goal nor beside it, after which they are
/// stuck (under the standard rules) or every move of theirs is into or beside our goal.
bool trap_by_definition(const Rastros& game, const Position& position, Square move) {
  const Player me = position.to_move;
  const Square my_goal = game.board().goal_of(me);
  const Square their_goal = game.board().goal_of(opponent(me));
  const Position after_move = game.play(position, move);
  if (game.has_ended(after_move)) return false;
  bool safe_reply_seen = false;
  for (Square reply : game.legal_moves(after_move)) {
    if (reply == their_goal) return false;
    const Position after_reply = game.play(after_move, reply);
    if (reply == my_goal || can_enter_goal(game, after_reply, me)) continue;  // not safe
    safe_reply_seen = true;
    bool answered = false;
    for (Square answer : game.legal_moves(after_reply)) {
      if (answer == their_goal) continue;
      const Position after_answer = game.play(after_reply, answer);
      if (can_enter_goal(game, after_answer, opponent(me))) continue;
      const SquareSet theirs = game.legal_moves(after_answer);
      bool all_lose = game.stuck_rule() == StuckRule::loses || theirs.size() > 0;
      for (Square last : theirs) {
        if (last != my_goal && !can_enter_goal(game, game.play(after_answer, last), me)) {
          all_lose = false;
        }
      }
      if (all_lose) {
        answered = true;
        break;
      }
    }
    if (!answered) return false;
  }
  return safe_reply_seen;
}

struct TrapBoard {
  Board board;
  StuckRule rule;
};

std::vector<TrapBoard> trap_boards() {
  std::vector<TrapBoard> boards;
  for (const StuckRule rule : {StuckRule::loses, StuckRule::draws}) {
    for (const Board& board :
         {Board(4, 4), Board(5, 5), Board(6, 5), Board(6, 6), Board(5, 5, StepSet::orthogonal),
          Board(6, 6, StepSet::orthogonal)}) {
      boards.push_back({board, rule});
    }
  }
  return boards;
}

std::string variant_text(const Board& board, StuckRule rule) {
  return "--board " + std::to_string(board.width()) + "x" + std::to_string(board.height()) +
         " --steps " + std::string(steps_name(board.steps())) + " --rules " +
         std::string(rules_name(rule));
}

std::string describe(const Board& board, StuckRule rule, const Position& position, Square move) {
  return variant_text(board, rule) + " --position '" + position_string(board, position) +
         "', move " + square_name(board, move);
}

TEST(Traps, AgreeWithTheirDefinitionPlayedOutMoveByMove) {
  std::mt19937 rng(2027);
  for (const auto& [board, rule] : trap_boards()) {
    const Rastros game = Rastros::for_positions(board, std::nullopt, rule);
    int traps = 0;
    int moves = 0;
    for (const Position& position : random_positions(board, 3000, rng, 0.1)) {
      for (Square move : game.legal_moves(position)) {
        if (board.is_goal(move)) continue;  // a move into a goal ends the game: never asked
        ++moves;
        const bool expected = trap_by_definition(game, position, move);
        traps += expected;
        ASSERT_EQ(is_trap(board, position, move, rule == StuckRule::loses), expected)
            << describe(board, rule, position, move);
      }
    }
    // Not vacuous: both answers are common.
    EXPECT_GE(traps, 20) << variant_text(board, rule);
    EXPECT_GE(moves - traps, 500) << variant_text(board, rule);
  }
}

TEST(Traps, WinWithinFivePliesByThePlainMinimax) {
  std::mt19937 rng(4049);
  for (const auto& [board, rule] : trap_boards()) {
    if (board.square_count() > 30) continue;  // the minimax of the fuller 6x6 positions is slow
    const Rastros game = Rastros::for_positions(board, std::nullopt, rule);
    int traps = 0;
    const int samples = rastros::testing_scale::samples(1500);  // sample_scale.hpp
    for (const Position& position : random_positions(board, samples, rng, 0.3)) {
      for (Square move : game.legal_moves(position)) {
        if (board.is_goal(move) || !is_trap(board, position, move, rule == StuckRule::loses)) {
          continue;
        }
        ++traps;
        rastros_reference::ReferenceMinimax reference({board.width(), board.height(),
                                                       board.steps() == StepSet::king,
                                                       rule == StuckRule::draws});
        const Position after = game.play(position, move);
        const rastros_reference::RefOutcome outcome =
            reference.solve(reference_position(board, after.snail, after.free, after.to_move));
        // The opponent, to move after the trap, loses within 4 more plies.
        EXPECT_EQ(outcome.value, rastros_reference::RefValue::loss)
            << describe(board, rule, position, move);
        EXPECT_LE(outcome.remoteness, 4) << describe(board, rule, position, move);
        EXPECT_GE(outcome.remoteness, 2) << describe(board, rule, position, move);
      }
    }
    EXPECT_GE(traps, rastros::testing_scale::samples(20)) << variant_text(board, rule);
  }
}

}  // namespace
}  // namespace rastros
