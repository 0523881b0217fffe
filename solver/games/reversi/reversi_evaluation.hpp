#pragma once
// A heuristic for Reversi positions too far from the end for the exact solver: a static
// evaluation (mobility, corners, stable discs) and a fixed-depth alpha-beta search over it.
// `rastros play --game reversi` and the Reversi page use it before the exact solver can
// answer; the value is an estimate in evaluation units, not a disc margin.

#include <atomic>
#include <vector>

#include "games/reversi/reversi.hpp"
#include "games/reversi/reversi_stability.hpp"

namespace rastros::reversi {

/// The weights of the evaluation, per unit of difference (mover's minus opponent's).
struct EvaluationWeights {
  int mobility = 10;  // a legal move
  int corner = 100;   // a disc on a corner
  int stable = 30;    // a disc no move can ever turn
};

/// A finished game is worth this much per disc of final margin: more than any evaluation of
/// an unfinished position, so a won ending is always preferred to an estimate.
inline constexpr int kEndedDiscValue = 10000;

/// The static value of a state for its side to move: the final margin times kEndedDiscValue
/// once the game has ended, else the weighted differences of mobility, corners and stable
/// discs. Antisymmetric: the value for the opponent (the sides swapped) is its negation.
class Evaluator {
 public:
  explicit Evaluator(const Reversi& game, EvaluationWeights weights = {});
  int operator()(const ReversiState& state) const;
  const Reversi& game() const { return game_; }

 private:
  Reversi game_;
  EvaluationWeights weights_;
  Bits corners_;
  Stability stability_;  // built once: its line masks cost more than an evaluation
};

struct EvaluationResult {
  int value = 0;             // for the side to move, `depth` plies ahead
  ReversiMove best = kPass;  // the first legal move (in square order) of that value
  std::uint64_t nodes = 0;
};

/// Negamax alpha-beta to `depth` plies (a forced pass is a ply; a finished game ends a line
/// early) with `evaluate` at the leaves. The value is exactly plain minimax's at that depth;
/// moves are tried best-first (corners, then fewest replies) only to prune more. Needs a
/// position with a legal move (the game not over) and depth >= 1. Throws
/// engine::SearchStopped when `stop` becomes true.
EvaluationResult search_evaluation(const Evaluator& evaluator, const ReversiState& state, int depth,
                                   const std::atomic<bool>* stop = nullptr);

}  // namespace rastros::reversi
