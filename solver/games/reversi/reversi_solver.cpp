#include "games/reversi/reversi_solver.hpp"

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <mutex>

#include "core/thread_sanitizer.hpp"
#include "engine/score_solver.hpp"  // engine::SearchStopped
#include "games/reversi/reversi_patterns.hpp"
#include "games/reversi/reversi_stability.hpp"

namespace rastros::reversi {

namespace {

constexpr std::uint64_t kLiveNodeStep = std::uint64_t{1} << 16;
// Enhanced transposition cutoffs at nodes with at least this many empty squares.
constexpr int kEtcMinEmpties = 12;
// The stability cutoff at nodes with at least this many: below, its cost outweighs it.
constexpr int kStabilityMinEmpties = 9;
// Far from the end, moves are ordered by a shallow search of quick_eval: at nodes with at
// least kShallowMinEmpties empties, one ply deeper every kShallowStep more, up to
// kShallowMaxDepth (measured on FFO #40-#49: 43% fewer nodes and 1.72x less CPU time than
// fastest-first alone; a larger or smaller minimum or a heavier weight gave less).
constexpr int kShallowMinEmpties = 14;
constexpr int kShallowStep = 3;
constexpr int kShallowMaxDepth = 3;
constexpr int kShallowWeight = 16;  // per unit of quick_eval, against fastest-first's keys
// On 8×8 the shallow search's leaves are the learned pattern evaluation instead
// (reversi_patterns.hpp), from kPatternMinEmpties, weighing kPatternWeight a disc of its
// estimate (measured on FFO #40-#47: 43% fewer nodes than quick_eval's ordering at 12
// empties and 24 a disc; from 14 empties 36%, from 10 45% but 1.4x the CPU time; 16 or 32
// a disc, a step of 2 or 4 empties, a depth of 2 or 4 at most each gave more nodes).
constexpr int kPatternMinEmpties = 12;
constexpr int kPatternWeight = 24;
constexpr int kQuickMobility = 4;
constexpr int kQuickPotential = 2;
constexpr int kQuickCorner = 8;
constexpr int kQuickEnded = 1000;  // per disc of an ended game's margin
constexpr int kQuickInfinity = 1 << 20;
// The table's move comes first: its bonus outweighs any ordering key (a shallow search's
// kShallowWeight * kQuickEnded * 64 included).
constexpr int kHintFirst = 1 << 28;

Bits corner_mask(const Geometry& g) {
  const int n = g.n - 1;
  return Bits{1} | Bits{1} << n | Bits{1} << (8 * n) | Bits{1} << (8 * n + n);
}

}  // namespace

ReversiSolver::ReversiSolver(const Reversi& game, ReversiSolverOptions options)
    : game_(game),
      geometry_(game.geometry()),
      quadrants_(Quadrants::of(game.geometry())),
      options_(options),
      table_(options.table_bytes),
      stability_(std::make_unique<Stability>(game.geometry())) {}

ReversiSolver::~ReversiSolver() = default;

std::uint64_t ReversiSolver::nodes() const {
  return std::max(nodes_.load(std::memory_order_relaxed),
                  live_nodes_.load(std::memory_order_relaxed));
}

int ReversiSolver::score(const ReversiState& state) {
  const int bound = geometry_.n * geometry_.n;
  // Every final margin is even (the board has an even number of squares and the empties go to
  // the winner), so the null window (-1, 1) decides win, draw or loss first, cheaply; then a
  // principal variation search on the side of 0 the score lies, from the bound it returned.
  const int probe = search_root(state.mine, state.theirs, -1, 1);
  if (probe >= 1) return search_root(state.mine, state.theirs, probe - 1, bound);
  if (probe <= -1) return search_root(state.mine, state.theirs, -bound, probe + 1);
  return probe;
}

Value ReversiSolver::value(const ReversiState& state) {
  if (search_root(state.mine, state.theirs, 0, 1) > 0) return Value::win;
  return search_root(state.mine, state.theirs, -1, 0) >= 0 ? Value::draw : Value::loss;
}

std::vector<ReversiSolver::MoveScore> ReversiSolver::analyse(const ReversiState& state) {
  std::vector<MoveScore> scores;
  for (const ReversiMove move : game_.legal_moves(state)) {
    scores.push_back({move, -score(game_.play(state, move).next)});
  }
  return scores;
}

std::vector<Value> ReversiSolver::analyse_values(const ReversiState& state) {
  std::vector<Value> values;
  for (const ReversiMove move : game_.legal_moves(state)) {
    values.push_back(negate(value(game_.play(state, move).next)));
  }
  return values;
}

int ReversiSolver::search_root(Bits mine, Bits theirs, int alpha, int beta) {
  parallel_ = oneapi::tbb::global_control::active_value(
                  oneapi::tbb::global_control::max_allowed_parallelism) > 1 &&
              oneapi::tbb::this_task_arena::max_concurrency() > 1;
  std::uint64_t nodes = 0;
  const int result = search(mine, theirs, alpha, beta, 0, root_abort_, nodes);
  nodes_.fetch_add(nodes, std::memory_order_relaxed);
  live_nodes_.store(nodes_.load(std::memory_order_relaxed), std::memory_order_relaxed);
  if (root_abort_.stopped()) throw engine::SearchStopped{};
  return result;
}

namespace {

// A cheap estimate for the side to move `p`, only to order moves far from the end: its
// mobility against the opponent's (corner moves counted again), the empty squares next to
// the opponent's discs against those next to its own (potential mobility), corners held.
int quick_eval(Bits p, Bits o, const Geometry& g, Bits corners) {
  const Bits empty = g.inside & ~(p | o);
  const Bits mp = legal_moves(p, o, g), mo = legal_moves(o, p, g);
  return kQuickMobility * (count(mp) + count(mp & corners) - count(mo) - count(mo & corners)) +
         kQuickPotential * (count(frontier_of(o, empty, g)) - count(frontier_of(p, empty, g))) +
         kQuickCorner * (count(p & corners) - count(o & corners));
}

// Alpha-beta over `leaf` (quick_eval or the pattern evaluation) to `depth` plies (a pass is
// free), fail-soft; an ended game is worth its margin times `ended`.
template <class Leaf>
int shallow(Bits p, Bits o, int depth, int alpha, int beta, const Geometry& g, int ended,
            const Leaf& leaf) {
  if (depth == 0) return leaf(p, o);
  Bits moves = legal_moves(p, o, g);
  if (moves == 0) {
    if (legal_moves(o, p, g) == 0) return ended * final_margin(p, o, g);
    return -shallow(o, p, depth, -beta, -alpha, g, ended, leaf);
  }
  int best = -kQuickInfinity;
  for (; moves; moves &= moves - 1) {
    const int square = std::countr_zero(moves);
    const Bits turned = flips(square, p, o, g);
    const int v = -shallow(o & ~turned, p | turned | Bits{1} << square, depth - 1, -beta,
                           -std::max(alpha, best), g, ended, leaf);
    if (v > best) {
      best = v;
      if (best >= beta) break;
    }
  }
  return best;
}

}  // namespace

// Fastest first: the table's move, then the fewest replies left to the opponent (its corner
// replies counted again), then the fewest empty squares next to our discs (the opponent's
// potential mobility, a quarter of a reply each: measured best on FFO #40-#42 among 1/16 to
// 1), corners and odd-parity squares breaking ties. Far from the end, a shallow search
// weighs in first (over the pattern evaluation on 8×8, quick_eval on smaller boards), the
// table's move still before all.
int ReversiSolver::order_children(Bits mine, Bits theirs, Bits moves, int hint, int empties,
                                  Child* children) const {
  const Bits corners = corner_mask(geometry_);
  const Bits empty = geometry_.inside & ~(mine | theirs);
  const Bits odd = quadrants_.odd(empty);
  int made = 0;
  for (; moves; moves &= moves - 1) {
    const int square = std::countr_zero(moves);
    const Bits bit = Bits{1} << square;
    const Bits turned = flips(square, mine, theirs, geometry_);
    Child& child = children[made++];
    child.mine = theirs & ~turned;
    child.theirs = mine | turned | bit;
    child.move = square;
    const Bits replies = legal_moves(child.mine, child.theirs, geometry_);
    const Bits around = frontier_of(child.theirs, empty & ~bit, geometry_);
    child.order = (square == hint ? kHintFirst : 0) -
                  64 * (count(replies) + count(replies & corners)) - 16 * count(around) +
                  ((bit & corners) ? 32 : 0) + ((bit & odd) ? 8 : 0);
  }
  if (geometry_.n == 8) {
    if (empties >= kPatternMinEmpties && made > 1) {
      const int depth =
          std::min(kShallowMaxDepth, (empties - kPatternMinEmpties) / kShallowStep + 1);
      const auto leaf = [](Bits p, Bits o) { return patterns::evaluate(p, o); };
      for (int i = 0; i < made; ++i) {
        Child& child = children[i];
        const int v = shallow(child.mine, child.theirs, depth - 1, -kQuickInfinity,
                              kQuickInfinity, geometry_, patterns::kPatternScale, leaf);
        child.order -= kPatternWeight * v / patterns::kPatternScale;
      }
    }
  } else if (empties >= kShallowMinEmpties && made > 1) {
    const int depth = std::min(kShallowMaxDepth, (empties - kShallowMinEmpties) / kShallowStep + 1);
    const auto leaf = [&](Bits p, Bits o) { return quick_eval(p, o, geometry_, corners); };
    for (int i = 0; i < made; ++i) {
      Child& child = children[i];
      const int v = shallow(child.mine, child.theirs, depth - 1, -kQuickInfinity, kQuickInfinity,
                            geometry_, kQuickEnded, leaf);
      child.order -= kShallowWeight * v;
    }
  }
  for (int i = 1; i < made; ++i) {
    for (int j = i; j > 0 && children[j - 1].order < children[j].order; --j) {
      std::swap(children[j - 1], children[j]);
    }
  }
  return made;
}

// The most the side to move can still end with: every square but the opponent's stable discs.
int ReversiSolver::stability_bound(Bits mine, Bits theirs) const {
  const int total = geometry_.n * geometry_.n;
  return total - 2 * count(stability_->stable(theirs, mine));
}

int ReversiSolver::search(Bits mine, Bits theirs, int alpha, int beta, int ply,
                          const Abort& abort, std::uint64_t& nodes) {
  const int empties = count(geometry_.inside & ~(mine | theirs));
  if (empties < kFewEmpties) {
    const std::uint64_t before = nodes;
    const int result = search_few(mine, theirs, alpha, beta, empties, geometry_, quadrants_, nodes);
    if ((before >> 16) != (nodes >> 16)) live_nodes_.fetch_add(kLiveNodeStep, std::memory_order_relaxed);
    return result;
  }
  if ((++nodes & (kLiveNodeStep - 1)) == 0) live_nodes_.fetch_add(kLiveNodeStep, std::memory_order_relaxed);
  if ((nodes & 1023) == 0 && abort.stopped()) return 0;

  const Bits moves = legal_moves(mine, theirs, geometry_);
  if (moves == 0) {
    if (legal_moves(theirs, mine, geometry_) == 0) return final_margin(mine, theirs, geometry_);
    return -search(theirs, mine, -beta, -alpha, ply + 1, abort, nodes);
  }
  if (empties >= kStabilityMinEmpties && alpha >= 0) {
    const int top = stability_bound(mine, theirs);
    if (top <= alpha) return top;
    beta = std::min(beta, top);
  }

  TableEntry stored;
  int hint = -1;
  if (table_.probe(mine, theirs, stored)) {
    if (stored.lower >= beta) return stored.lower;
    if (stored.upper <= alpha) return stored.upper;
    if (stored.lower == stored.upper) return stored.lower;
    alpha = std::max(alpha, stored.lower);
    beta = std::min(beta, stored.upper);
    hint = stored.best_move;
  }

  Child children[64];
  const int moves_count = order_children(mine, theirs, moves, hint, empties, children);
  if (empties >= kEtcMinEmpties) {
    for (int i = 0; i < moves_count; ++i) {
      TableEntry child;
      if (table_.probe(children[i].mine, children[i].theirs, child) && -child.upper >= beta) {
        return -child.upper;
      }
    }
  }

  const std::uint64_t nodes_before = nodes;
  const int alpha_start = alpha;
  int best = -128, best_move = -1;
  for (int i = 0; i < moves_count; ++i) {
    const Child& child = children[i];
    int score;
    if (i == 0) {
      score = -search(child.mine, child.theirs, -beta, -alpha, ply + 1, abort, nodes);
    } else {
      score = -search(child.mine, child.theirs, -alpha - 1, -alpha, ply + 1, abort, nodes);
      if (score > alpha && score < beta) {
        score = -search(child.mine, child.theirs, -beta, -alpha, ply + 1, abort, nodes);
      }
    }
    if (abort.stopped()) return 0;
    if (score > best) {
      best = score;
      best_move = child.move;
      if (best > alpha) alpha = best;
      if (alpha >= beta) break;
    }
    // Young brothers wait: the first move searched, the others in parallel near the root.
    if (i == 0 && moves_count > 2 && ply < options_.parallel_plies &&
        empties >= options_.parallel_min_empties && parallel_.load(std::memory_order_relaxed)) {
      split(children + 1, moves_count - 1, alpha, beta, ply, abort, nodes, best, best_move);
      if (abort.stopped()) return 0;
      break;
    }
  }
  const int total = geometry_.n * geometry_.n;
  const int lower = best > alpha_start ? best : -total;
  const int upper = best < beta ? best : total;
  table_.store(mine, theirs, lower, upper, best_move, nodes - nodes_before);
  return best;
}

void ReversiSolver::split(const Child* children, int count, int alpha, int beta, int ply,
                          const Abort& abort, std::uint64_t& nodes, int& best, int& best_move) {
  Abort local;
  local.parent = &abort;
  std::mutex mutex;
  std::atomic<int> shared_alpha{alpha};
  std::atomic<std::uint64_t> shared_nodes{0};
  oneapi::tbb::parallel_for(0, count, thread_sanitizer::handed_off([&](int i) {
    const thread_sanitizer::PublishOnExit published(&mutex);
    if (local.stopped()) return;
    std::uint64_t task_nodes = 0;
    const Child& child = children[i];
    const int a = shared_alpha.load(std::memory_order_relaxed);
    int score = -search(child.mine, child.theirs, -a - 1, -a, ply + 1, local, task_nodes);
    if (score > a && score < beta && !local.stopped()) {
      const int now = std::max(a, shared_alpha.load(std::memory_order_relaxed));
      score = -search(child.mine, child.theirs, -beta, -now, ply + 1, local, task_nodes);
    }
    shared_nodes.fetch_add(task_nodes, std::memory_order_relaxed);
    if (local.stopped()) return;
    const std::lock_guard lock(mutex);
    if (score > best) {
      best = score;
      best_move = child.move;
    }
    if (best > shared_alpha.load(std::memory_order_relaxed)) {
      shared_alpha.store(best, std::memory_order_relaxed);
    }
    if (best >= beta) local.flag.store(true, std::memory_order_relaxed);
  }), oneapi::tbb::simple_partitioner());
  thread_sanitizer::acquire(&mutex);
  nodes += shared_nodes.load(std::memory_order_relaxed);
}

Bits stable_discs(Bits mine, Bits theirs, const Geometry& g) {
  return Stability(g).stable(mine, theirs);
}

}  // namespace rastros::reversi
