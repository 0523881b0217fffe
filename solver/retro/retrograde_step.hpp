#pragma once
// The two steps of strong solving that do not depend on where positions are stored, shared by
// the one-process solver (retro/strong_solver.cpp) and the MPI one (cluster/): the children of a
// stored position, and its record from its children's records.

#include "core/value.hpp"
#include "rastros/canonical.hpp"
#include "retro/strong_solver.hpp"

namespace rastros {

class RetrogradeStep {
 public:
  explicit RetrogradeStep(const Rastros& rastros)
      : board_(rastros.board()),
        canonicalizer_(board_),
        stuck_score_(rastros.stuck_rule() == StuckRule::loses ? score_of_loss(0) : 0) {}

  const Board& board() const { return board_; }
  const Canonicalizer& canonicalizer() const { return canonicalizer_; }

  /// The canonical key after player 1 (to move in every key) steps to `move`.
  PackedPosition child_key(const PackedPosition& key, Square move) const {
    return canonicalizer_.pack({key.free & ~bit(move), move, Player::two});
  }

  /// Calls `visit(child)` for every child of `key` that is a position still in play, the ones
  /// a strong table stores: moves into a goal end the game and children with an empty region
  /// are stuck, so neither is stored.
  template <class Visit>
  void for_each_stored_child(const PackedPosition& key, Visit&& visit) const {
    const SquareMask moves = board_.neighbours(key.snail) & key.free & ~board_.goals();
    for (Square move : SquareSet(moves)) {
      const PackedPosition child = child_key(key, move);
      if (child.free) visit(child);
    }
  }

  /// Negamax over the children: the record of `key` for player 1, given `record_of(child)` for
  /// every stored child.
  template <class RecordOf>
  StrongRecord value_of(const PackedPosition& key, RecordOf&& record_of) const {
    const SquareMask moves = board_.neighbours(key.snail) & key.free;
    if (!moves) return record_of_score(stuck_score_, StrongRecord::kNoMove);  // only the start
    const Square my_goal = board_.goal_of(Player::one);
    // Entering one's own goal is the quickest win there is: nothing can beat it.
    if (moves & bit(my_goal)) return record_of_score(score_of_win(1), my_goal);
    Score best = 0;
    int best_move = -1;
    for (Square move : SquareSet(moves)) {
      Score score;
      if (move == board_.goal_of(Player::two)) {
        score = score_of_loss(1);  // legal, and the opponent wins at once
      } else {
        const PackedPosition child = child_key(key, move);
        const Score child_score = child.free ? score_of_record(record_of(child)) : stuck_score_;
        score = parent_score(child_score);
      }
      if (best_move < 0 || score > best) {
        best = score;
        best_move = move;
      }
    }
    return record_of_score(best, best_move);
  }

 private:
  static Score score_of_record(const StrongRecord& record) {
    switch (record.value) {
      case Value::win:
        return score_of_win(record.remoteness);
      case Value::loss:
        return score_of_loss(record.remoteness);
      case Value::draw:
        break;
    }
    return 0;
  }

  static StrongRecord record_of_score(Score score, int best_move) {
    const Outcome outcome = outcome_of_score(score);
    return {outcome.value, static_cast<std::uint8_t>(outcome.remoteness.value_or(0)),
            static_cast<std::uint8_t>(best_move)};
  }

  const Board& board_;
  Canonicalizer canonicalizer_;
  Score stuck_score_;
};

}  // namespace rastros
