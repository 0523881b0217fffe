#pragma once
// Game-theoretic values shared by every solver and database in the library.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rastros {

/// The value of a position for the side to move.
enum class Value : std::uint8_t { loss = 0, draw = 1, win = 2 };

/// The value of the same outcome seen from the other player.
constexpr Value negate(Value value) {
  return value == Value::win ? Value::loss : value == Value::loss ? Value::win : Value::draw;
}

constexpr std::string_view to_string(Value value) {
  return value == Value::win ? "win" : value == Value::loss ? "loss" : "draw";
}

/// A solved position: its value for the side to move and, when known, its remoteness
/// (plies to the end under perfect play: the winner hurries, the loser delays).
/// A draw carries a remoteness only when the game has ended in it or ends with the move valued:
/// 0 for a side to move that is stuck under stuck-draw (docs/rules.md), 1 for a move that
/// leaves the opponent stuck (counted from before the move). A draw still going on has none.
struct Outcome {
  Value value = Value::draw;
  std::optional<int> remoteness;

  friend bool operator==(const Outcome&, const Outcome&) = default;
};

/// Scores order outcomes for negamax: a quicker win is better, a slower loss is better.
///   win  in r plies  ->  kScoreMax - r      (positive)
///   draw             ->  0
///   loss in r plies  -> -(kScoreMax - r)    (negative)
/// r is at most 64, so every score fits in a signed byte.
using Score = int;
inline constexpr Score kScoreMax = 100;

constexpr Score score_of_win(int remoteness) {
  return kScoreMax - remoteness;
}
constexpr Score score_of_loss(int remoteness) {
  return -(kScoreMax - remoteness);
}

/// The score of a parent whose best move leads to a child scored `child` (child's view):
/// the sign flips and the game is one ply longer.
constexpr Score parent_score(Score child) {
  return child > 0 ? -child + 1 : child < 0 ? -child - 1 : 0;
}

/// The child score that would give the parent `parent` (the inverse of parent_score for
/// non-zero scores); used to turn a parent's window into the child's.
constexpr Score child_score(Score parent) {
  return parent > 0 ? -(parent + 1) : parent < 0 ? -(parent - 1) : 0;
}

constexpr Outcome outcome_of_score(Score score) {
  if (score > 0) return {Value::win, kScoreMax - score};
  if (score < 0) return {Value::loss, kScoreMax + score};
  return {Value::draw, std::nullopt};
}

constexpr Score score_of(const Outcome& outcome) {
  if (outcome.value == Value::draw) return 0;
  const int remoteness = outcome.remoteness.value_or(0);
  return outcome.value == Value::win ? score_of_win(remoteness) : score_of_loss(remoteness);
}

/// The outcome of a game that has already ended with `value` for the side to move: nothing is
/// left to play, so remoteness 0, a draw's (a stuck side under stuck-draw) included.
constexpr Outcome ended_outcome(Value value) {
  return {value, 0};
}

/// The outcome of a position whose game goes on, from its best move's outcome `best`: the same,
/// except that a draw carries no remoteness (a drawing move may end the game at once, the
/// position itself is not ended, and a draw still going on has none).
constexpr Outcome outcome_of_best_move(const Outcome& best) {
  if (best.value == Value::draw) return {Value::draw, std::nullopt};
  return best;
}

/// True when two outcomes are worth the same to the player who gets them: the same value and,
/// for a win or a loss, the same remoteness. Draws are all alike, whatever their remoteness.
constexpr bool equally_good(const Outcome& a, const Outcome& b) {
  if (a.value != b.value) return false;
  return a.value == Value::draw || a.remoteness == b.remoteness;
}

/// An outcome as tables and files store it: a draw's stored remoteness (0) is not one. (A
/// stored position is one the game goes on from; an ended one is valued by ended_outcome.)
constexpr Outcome stored_outcome(Value value, int remoteness) {
  if (value == Value::draw) return {Value::draw, std::nullopt};
  return {value, remoteness};
}

/// The outcome of a move for the player making it, from the outcome of the position it leads
/// to (for the other player): the value flips and the game is one ply longer.
constexpr Outcome outcome_of_move(const Outcome& child) {
  Outcome outcome{negate(child.value), std::nullopt};
  if (child.remoteness) outcome.remoteness = *child.remoteness + 1;
  return outcome;
}

/// "win in 17", "loss in 4", "draw"; just "win" or "loss" when the remoteness is not known.
inline std::string to_string(const Outcome& outcome) {
  std::string text(to_string(outcome.value));
  if (outcome.remoteness) text += " in " + std::to_string(*outcome.remoteness);
  return text;
}

}  // namespace rastros
