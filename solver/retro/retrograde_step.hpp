#pragma once
// The two steps of strong solving that do not depend on where positions are stored, shared by
// the one-process solver (retro/strong_solver.cpp) and the MPI one (cluster/): the children of a
// stored position, and its record from its children's records.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

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
    for_each_stored_move(key, [&](Square, const PackedPosition& child) { visit(child); });
  }

  /// The same children, each with the move that makes it: `visit(move, child)`, moves in
  /// increasing square order.
  template <class Visit>
  void for_each_stored_move(const PackedPosition& key, Visit&& visit) const {
    const SquareMask moves = board_.neighbours(key.snail) & key.free & ~board_.goals();
    for (Square move : SquareSet(moves)) {
      const PackedPosition child = child_key(key, move);
      if (child.free) visit(move, child);
    }
  }

  /// A stored child's record and the move that leads to it, for value_of_children.
  struct ChildRecord {
    StrongRecord record;
    std::uint8_t move = 0;
  };

  /// Negamax over the children: the record of `key` for player 1, given `record_of(child)` for
  /// every stored child.
  template <class RecordOf>
  StrongRecord value_of(const PackedPosition& key, RecordOf&& record_of) const {
    return value_by_move(key, [&](Square move) -> std::optional<StrongRecord> {
      const PackedPosition child = child_key(key, move);
      if (!child.free) return std::nullopt;
      return record_of(child);
    });
  }

  /// The same record from `children`: every stored child's record with its move, in the order
  /// for_each_stored_move meets them. No child key is computed again, which is what makes it
  /// cheaper than value_of when the records were fetched while the children were listed.
  StrongRecord value_of_children(const PackedPosition& key,
                                 std::span<const ChildRecord> children) const {
    std::size_t next = 0;
    return value_by_move(key, [&](Square move) -> std::optional<StrongRecord> {
      if (next == children.size() || children[next].move != move) return std::nullopt;  // stuck
      return children[next++].record;
    });
  }

 private:
  /// Negamax over the moves of `key`; `record_of_move(move)` is the record of the stored child
  /// `move` leads to, or nullopt when that child is stuck (its region is empty). It is called
  /// for the moves that do not enter a goal, in increasing square order.
  template <class RecordOfMove>
  StrongRecord value_by_move(const PackedPosition& key, RecordOfMove&& record_of_move) const {
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
        const std::optional<StrongRecord> child = record_of_move(move);
        score = parent_score(child ? score_of_record(*child) : stuck_score_);
      }
      if (best_move < 0 || score > best) {
        best = score;
        best_move = move;
      }
    }
    return record_of_score(best, best_move);
  }

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
