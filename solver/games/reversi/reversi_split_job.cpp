#include "games/reversi/reversi_split_job.hpp"

#include <algorithm>

#include "engine/score_solver.hpp"  // engine::SearchStopped

namespace rastros::reversi {

ReversiSplitJob::ReversiSplitJob(const Reversi& game, ReversiSolver& solver,
                                 SplitJobOptions options)
    : game_(game),
      solver_(solver),
      options_(std::move(options)),
      log_(options_.directory, game.size(), options_.resume),
      bound_(game.size() * game.size()) {
  std::uint64_t nodes = 0;
  for (const PieceRecord& r : log_.records()) {
    learn(pieces_, r.key, r.alpha, r.beta, r.result);
    nodes += r.nodes;
  }
  counters_.logged_nodes = nodes;
  records_ = log_.records().size();
}

std::uint64_t ReversiSplitJob::nodes() const {
  return counters_.logged_nodes.load(std::memory_order_relaxed) + solver_.nodes();
}

int ReversiSplitJob::score(const ReversiState& root) {
  // As ReversiSolver::score: the sign first by a null window, then the exact margin on that
  // side of 0 from the bound the first search returned.
  const int probe = search(root, 0, -1, 1);
  if (probe >= 1) return search(root, 0, probe - 1, bound_);
  if (probe <= -1) return search(root, 0, -bound_, probe + 1);
  return probe;
}

Value ReversiSplitJob::value(const ReversiState& root) {
  const int result = search(root, 0, -1, 1);
  return result > 0 ? Value::win : result < 0 ? Value::loss : Value::draw;
}

CanonicalKey ReversiSplitJob::key_of(const ReversiState& state) const {
  return canonical_key(state.mine, state.theirs, game_.size());
}

int ReversiSplitJob::search(const ReversiState& state, int depth, int alpha, int beta) {
  if (game_.is_terminal(state)) return game_.terminal_score(state);
  const CanonicalKey key = key_of(state);
  if (depth >= options_.split_depth) return piece(state, key, alpha, beta);
  if (const auto known = tree_.find(key); known != tree_.end()) {
    if (const auto result = decided(known->second, alpha, beta)) return *result;
  }
  const int result = search_children(state, depth, alpha, beta);
  learn(tree_, key, alpha, beta, result);
  return result;
}

// Principal variation search, fail-soft: the first child in the full window, the others in a
// null window, searched again only when one beats alpha.
int ReversiSplitJob::search_children(const ReversiState& state, int depth, int alpha, int beta) {
  int best = -bound_ - 1;
  bool first = true;
  for (const Child& child : children_of(state)) {
    int result;
    if (first) {
      result = -search(child.state, depth + 1, -beta, -alpha);
      first = false;
    } else {
      result = -search(child.state, depth + 1, -alpha - 1, -alpha);
      if (result > alpha && result < beta) result = -search(child.state, depth + 1, -beta, -alpha);
    }
    if (result > best) {
      best = result;
      alpha = std::max(alpha, result);
      if (alpha >= beta) break;
    }
  }
  return best;
}

// The moves' positions, one of each set of symmetric images, fastest first (the fewest replies
// left to the opponent), as the solver orders its moves.
std::vector<ReversiSplitJob::Child> ReversiSplitJob::children_of(const ReversiState& state) const {
  std::vector<Child> children;
  for (const ReversiMove move : game_.legal_moves(state)) {
    const ReversiState next = game_.play(state, move).next;
    const CanonicalKey key = key_of(next);
    if (std::any_of(children.begin(), children.end(),
                    [&](const Child& c) { return c.key == key; })) {
      continue;
    }
    const int replies = count(legal_moves(next.mine, next.theirs, game_.geometry()));
    children.push_back({next, key, replies});
  }
  std::stable_sort(children.begin(), children.end(),
                   [](const Child& a, const Child& b) { return a.order < b.order; });
  return children;
}

int ReversiSplitJob::piece(const ReversiState& state, const CanonicalKey& key, int alpha,
                           int beta) {
  if (const auto known = pieces_.find(key); known != pieces_.end()) {
    if (const auto result = decided(known->second, alpha, beta)) {
      counters_.pieces_reused.fetch_add(1, std::memory_order_relaxed);
      return *result;
    }
  }
  const std::uint64_t searched = counters_.pieces_searched.load(std::memory_order_relaxed);
  if (options_.stop_after_pieces && searched >= *options_.stop_after_pieces) {
    throw engine::SearchStopped{};
  }
  const std::uint64_t before = solver_.nodes();
  const int result = solver_.bounded_score(state, alpha, beta);
  const std::uint64_t nodes = solver_.nodes() - before;
  log_.append({key, alpha, beta, result, nodes});
  records_.fetch_add(1, std::memory_order_relaxed);
  learn(pieces_, key, alpha, beta, result);
  counters_.pieces_searched.fetch_add(1, std::memory_order_relaxed);
  return result;
}

// A fail-soft result in (alpha, beta) is exact inside the window, an upper bound at or below
// alpha, a lower bound at or above beta: all a position's results narrow one pair of bounds.
void ReversiSplitJob::learn(std::unordered_map<CanonicalKey, Bounds, CanonicalKeyHash>& bounds,
                            const CanonicalKey& key, int alpha, int beta, int result) const {
  Bounds& b = bounds.try_emplace(key, Bounds{-bound_, bound_}).first->second;
  if (result <= alpha) {
    b.upper = std::min(b.upper, result);
  } else if (result >= beta) {
    b.lower = std::max(b.lower, result);
  } else {
    b = {result, result};
  }
}

// The answer the bounds give a search in (alpha, beta), when they settle it: a fail-soft
// result the search itself could have returned.
std::optional<int> ReversiSplitJob::decided(const Bounds& b, int alpha, int beta) {
  if (b.lower >= beta) return b.lower;
  if (b.upper <= alpha) return b.upper;
  if (b.lower == b.upper) return b.lower;
  return std::nullopt;
}

}  // namespace rastros::reversi
