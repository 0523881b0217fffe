#pragma once
// The answer to "what is this position worth, and what is each move worth?", shared by the
// alpha-beta Solver and the proof-number search.

#include <cstdint>
#include <vector>

#include "core/value.hpp"
#include "rastros/rastros.hpp"

namespace rastros {

struct MoveOutcome {
  Square move = 0;
  Outcome outcome;  // for the player making the move; remoteness counted from before the move
};

struct Analysis {
  Outcome outcome;                    // the position's value for the side to move
  std::vector<Square> best_moves;     // every move achieving it (empty once the game ended)
  std::vector<MoveOutcome> children;  // every legal move, in square order
  std::uint64_t nodes = 0;            // nodes searched for this analysis
};

/// Fills `best_moves` and `outcome` from `children` (already solved): the position is worth its
/// best move (a draw without remoteness: the position has not ended, see outcome_of_best_move),
/// and every move worth as much is a best move. Value-only outcomes carry no remoteness;
/// score_of then ranks them win > draw > loss.
inline void settle_from_children(Analysis& analysis) {
  Score best = -kScoreMax - 1;
  for (const MoveOutcome& child : analysis.children) {
    const Score score = score_of(child.outcome);
    if (score > best) {
      best = score;
      analysis.outcome = outcome_of_best_move(child.outcome);
    }
  }
  analysis.best_moves.clear();
  for (const MoveOutcome& child : analysis.children) {
    if (equally_good(child.outcome, analysis.outcome)) analysis.best_moves.push_back(child.move);
  }
}

}  // namespace rastros
