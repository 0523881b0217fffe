#include "games/reversi/reversi_evaluation.hpp"

#include <algorithm>
#include <limits>

#include "engine/score_solver.hpp"

namespace rastros::reversi {

namespace {

Bits corner_mask(int n) {
  const int last = n - 1;
  return (Bits{1} << 0) | (Bits{1} << last) | (Bits{1} << (8 * last)) |
         (Bits{1} << (8 * last + last));
}

constexpr int kInfinity = std::numeric_limits<int>::max() / 2;

class Search {
 public:
  Search(const Evaluator& evaluator, const std::atomic<bool>* stop)
      : evaluator_(evaluator), game_(evaluator.game()), stop_(stop) {}

  int negamax(const ReversiState& state, int depth, int alpha, int beta) {
    ++nodes;
    // Polled every 4096 nodes: a relaxed load is cheap, but not free at every leaf.
    if (stop_ && (nodes & 4095) == 1 && stop_->load(std::memory_order_relaxed)) {
      throw engine::SearchStopped{};
    }
    if (depth == 0 || game_.is_terminal(state)) return evaluator_(state);
    int best = -kInfinity;
    for (const ReversiMove move : ordered_moves(state)) {
      const int value = -negamax(game_.play(state, move).next, depth - 1, -beta, -alpha);
      best = std::max(best, value);
      alpha = std::max(alpha, value);
      if (alpha >= beta) break;
    }
    return best;
  }

  /// The legal moves, the likeliest best first: corners, then the fewest replies left to the
  /// opponent. Only the pruning depends on this order, never the value.
  ReversiMoveList ordered_moves(const ReversiState& state) const {
    ReversiMoveList moves = game_.legal_moves(state);
    if (moves.size() < 2) return moves;
    int keys[64];
    for (std::size_t i = 0; i < moves.size(); ++i)
      keys[moves[i]] = game_.move_order(state, moves[i]);
    std::stable_sort(moves.begin(), moves.end(),
                     [&](ReversiMove a, ReversiMove b) { return keys[a] < keys[b]; });
    return moves;
  }

  std::uint64_t nodes = 0;

 private:
  const Evaluator& evaluator_;
  const Reversi& game_;
  const std::atomic<bool>* stop_;
};

}  // namespace

Evaluator::Evaluator(const Reversi& game, EvaluationWeights weights)
    : game_(game),
      weights_(weights),
      corners_(corner_mask(game.size())),
      stability_(game.geometry()) {}

int Evaluator::operator()(const ReversiState& state) const {
  const Geometry& g = game_.geometry();
  if (game_.is_terminal(state)) return kEndedDiscValue * final_margin(state.mine, state.theirs, g);
  const int mobility = count(legal_moves(state.mine, state.theirs, g)) -
                       count(legal_moves(state.theirs, state.mine, g));
  const int corners = count(state.mine & corners_) - count(state.theirs & corners_);
  const int stable = count(stability_.stable(state.mine, state.theirs)) -
                     count(stability_.stable(state.theirs, state.mine));
  return weights_.mobility * mobility + weights_.corner * corners + weights_.stable * stable;
}

EvaluationResult search_evaluation(const Evaluator& evaluator, const ReversiState& state, int depth,
                                   const std::atomic<bool>* stop) {
  Search search(evaluator, stop);
  const ReversiMoveList moves = evaluator.game().legal_moves(state);
  EvaluationResult result{-kInfinity, kPass, 0};
  // The root: each move in square order, a strictly better value needed to replace the best,
  // so the move reported is the first in square order of the best value.
  for (const ReversiMove move : moves) {
    const ReversiState next = evaluator.game().play(state, move).next;
    // After the first move, a null window just above the best so far proves "no better"
    // cheaply; only a better move is searched again with a full window, for its value.
    if (result.value > -kInfinity &&
        -search.negamax(next, depth - 1, -result.value - 1, -result.value) <= result.value) {
      continue;
    }
    const int value = -search.negamax(next, depth - 1, -kInfinity, kInfinity);
    if (value > result.value) result = {value, move, 0};
  }
  result.nodes = search.nodes;
  return result;
}

}  // namespace rastros::reversi
