#pragma once
// The exact-score solver of any ScoreGame: fail-soft negamax alpha-beta over the margin still
// to be gained, with a shared lock-free table (score_table.hpp), MTD(f) for the exact score
// and null-window tests for win/draw/loss.
//
// A move's score for the mover is its gain plus the child's score, negated unless the mover
// moves again. The seeds still in play bound every score, so windows outside them cut at once.
//
// Parallelism (TBB): near the root a node searches its first move alone and then the others
// in parallel with the window that move left (young brothers wait); a sibling's cutoff stops
// the rest. Every thread shares the table. `analyse` searches each root move in parallel.

#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

#include "core/thread_sanitizer.hpp"
#include "core/value.hpp"
#include "engine/score_game.hpp"
#include "engine/score_table.hpp"

namespace rastros::engine {

struct ScoreSolverOptions {
  std::size_t table_bytes = std::size_t{8} << 20;
  /// Nodes this many plies from the root or fewer split their moves among threads.
  int parallel_plies = 6;
  /// Enhanced transposition cutoffs (a child's stored bound that already cuts the node ends it
  /// before any search) at nodes with at least this many seeds in play.
  int etc_min_seeds = 30;
};

/// Thrown by a search stopped through ScoreSolver::stop().
struct SearchStopped {};

template <ScoreGame G>
class ScoreSolver {
 public:
  using State = typename G::State;
  using Move = typename G::Move;
  using Probe = std::function<std::optional<int>(const State&)>;

  struct MoveScore {
    Move move;
    int score;  // for the mover, from this position on
  };

  explicit ScoreSolver(const G& game, ScoreSolverOptions options = {})
      : game_(game),
        options_(options),
        table_(options.table_bytes) {}

  /// An exact-score oracle for states with at most `max_seeds` seeds in play (an endgame
  /// database): the search asks it before anything else there.
  void set_probe(int max_seeds, Probe probe) {
    probe_max_seeds_ = max_seeds;
    probe_ = std::move(probe);
  }

  /// The exact margin the side to move gains from `state` on, with perfect play.
  int score(const State& state, int guess = 0) { return mtdf(state, guess, {}); }

  /// Bounds on a score proven so far, and what a long search reports after each step so that
  /// an interrupted one can resume from them (a checkpoint).
  struct Bounds {
    int lower;
    int upper;
  };
  using BoundsReport = std::function<void(Bounds)>;

  /// score() starting from bounds already proven (`known`, e.g. from a checkpoint), calling
  /// `report` with the narrowed bounds after every null-window search.
  int score(const State& state, Bounds known, const BoundsReport& report) {
    return mtdf(state, 0, known, report);
  }

  /// Win, draw or loss of `offset + score(state)` for the side to move, by at most two
  /// null-window searches (offset: the margin already banked).
  Value value(const State& state, int offset = 0) {
    if (search_root(state, -offset, -offset + 1) > -offset) return Value::win;
    return search_root(state, -offset - 1, -offset) >= -offset ? Value::draw : Value::loss;
  }

  /// Every legal move's exact score for the mover, in legal_moves order; the moves are
  /// searched in parallel.
  /// `known`: scores already found for some moves (a checkpoint's), not searched again;
  /// `report` (may be empty) is called, from the thread that found it, with each new one.
  std::vector<MoveScore> analyse(const State& state, const std::vector<MoveScore>& known = {},
                                 const std::function<void(const MoveScore&)>& report = {}) {
    const auto moves = game_.legal_moves(state);
    std::vector<MoveScore> scores(moves.size());
    // Each task publishes its result and this thread acquires them after the wait
    // (core/thread_sanitizer.hpp), also when a stopped search throws.
    const auto body = [&](std::size_t i) {
      for (const MoveScore& done : known) {
        if (done.move == moves[i]) {
          scores[i] = done;
          return;
        }
      }
      const auto played = game_.play(state, moves[i]);
      const int child = mtdf(played.next, 0, {});
      scores[i] = {moves[i], played.gain + (played.again ? child : -child)};
      if (report) report(scores[i]);
    };
    for_each_move(moves.size(), body, &scores);
    return scores;
  }

  /// Whether each move wins, draws or loses for the mover once `offset` (banked) is added,
  /// without exact scores: two null windows a move.
  std::vector<Value> analyse_values(const State& state, int offset = 0) {
    const auto moves = game_.legal_moves(state);
    std::vector<Value> values(moves.size());
    for_each_move(moves.size(), [&](std::size_t i) {
      const auto played = game_.play(state, moves[i]);
      const int banked = offset + played.gain;
      values[i] = played.again ? value(played.next, banked) : negate(value(played.next, -banked));
    }, &values);
    return values;
  }

  /// Nodes of every finished search, and of those running, to the nearest 2^16 a thread
  /// (for progress lines).
  std::uint64_t nodes() const {
    return std::max(nodes_.load(std::memory_order_relaxed), live_nodes_.load(std::memory_order_relaxed));
  }
  /// Asks every running search to stop; they throw SearchStopped. Safe from any thread.
  void stop() { root_abort_.flag.store(true, std::memory_order_relaxed); }

 private:
  // A chain of flags from a split node up to the root: a search stops when any is set.
  struct Abort {
    std::atomic<bool> flag{false};
    const Abort* parent = nullptr;
    bool stopped() const {
      for (const Abort* a = this; a; a = a->parent) {
        if (a->flag.load(std::memory_order_relaxed)) return true;
      }
      return false;
    }
  };

  struct Child {
    typename G::Played played;
    Move move;
    bool played_yet;
    int order;
  };

  // MTD(f): null-window searches around a guess, each narrowing [lower, upper] until they meet.
  // Runs body(i) for i < count in parallel, one task a move; what the tasks wrote is visible
  // here afterwards, under ThreadSanitizer too (`token`: the results' address).
  template <class Body>
  static void for_each_move(std::size_t count, const Body& body, const void* token) {
    try {
      oneapi::tbb::parallel_for(std::size_t{0}, count, thread_sanitizer::handed_off([&](std::size_t i) {
        const thread_sanitizer::PublishOnExit published(token);
        body(i);
      }), oneapi::tbb::simple_partitioner());
    } catch (...) {
      thread_sanitizer::acquire(token);
      throw;
    }
    thread_sanitizer::acquire(token);
  }

  int mtdf(const State& state, int guess, std::optional<Bounds> known,
           const BoundsReport& report = {}) {
    if (game_.is_terminal(state)) return game_.terminal_score(state);
    const int bound = game_.seeds_in_play(state);
    int lower = -bound, upper = bound;
    if (known) {
      lower = std::max(lower, known->lower);
      upper = std::min(upper, known->upper);
    }
    int g = std::clamp(guess, lower, upper);
    while (lower < upper) {
      const int beta = g == lower ? g + 1 : g;
      g = search_root(state, beta - 1, beta);
      if (g < beta) {
        upper = g;
      } else {
        lower = g;
      }
      if (report) report({lower, upper});
    }
    return lower;
  }

  int search_root(const State& state, int alpha, int beta) {
    // Split among threads only where more than one may run (a global limit or an arena).
    parallel_ = oneapi::tbb::global_control::active_value(
                    oneapi::tbb::global_control::max_allowed_parallelism) > 1 &&
                oneapi::tbb::this_task_arena::max_concurrency() > 1;
    std::uint64_t nodes = 0;
    const int result = search(state, alpha, beta, 0, root_abort_, nodes);
    nodes_.fetch_add(nodes, std::memory_order_relaxed);
    if (root_abort_.stopped()) throw SearchStopped{};
    return result;
  }

  // Orders the moves: the stored best move, then by the game's cheap move_order (OPTIONAL in
  // the game API) or else by playing each move (another turn first, then the larger gain);
  // among equals, the later move first (in mancala, the house nearest the store, which keeps the
  // other houses' extra turns available). Children are played when searched, so a cutoff by
  // the first move spares sowing the others.
  int order_children(const State& state, int hint, Child* children) const {
    const auto moves = game_.legal_moves(state);
    const int count = static_cast<int>(moves.size());
    for (int i = 0; i < count; ++i) {
      Child& child = children[i];
      child.move = moves[i];
      child.played_yet = false;
      int order;
      if constexpr (requires { game_.move_order(state, moves[i]); }) {
        order = game_.move_order(state, moves[i]);
      } else {
        child.played = game_.play(state, moves[i]);
        child.played_yet = true;
        order = (child.played.again ? 1 << 12 : 0) + child.played.gain * 16;
      }
      child.order = (static_cast<int>(moves[i]) == hint ? 1 << 24 : 0) + order * 64 + i;
    }
    // Insertion sort, highest order first: a handful of moves.
    for (int i = 1; i < count; ++i) {
      for (int j = i; j > 0 && children[j - 1].order < children[j].order; --j) {
        std::swap(children[j - 1], children[j]);
      }
    }
    return count;
  }

  const typename G::Played& played(const State& state, Child& child) const {
    if (!child.played_yet) {
      child.played = game_.play(state, child.move);
      child.played_yet = true;
    }
    return child.played;
  }

  // A child's score from the mover's view, given the child's own search window.
  int child_score(const Child& child, int alpha, int beta, int ply, const Abort& abort,
                  std::uint64_t& nodes) {
    const int gain = child.played.gain;
    if (child.played.again) return gain + search(child.played.next, alpha - gain, beta - gain, ply + 1, abort, nodes);
    return gain - search(child.played.next, gain - beta, gain - alpha, ply + 1, abort, nodes);
  }

  // Enhanced transposition cutoff: a child whose stored bound already lifts the node to beta.
  std::optional<int> transposition_cutoff(const State& state, Child* children, int count,
                                          int beta) const {
    for (int i = 0; i < count; ++i) {
      const auto& played = this->played(state, children[i]);
      if (game_.is_terminal(played.next)) continue;
      ScoreBounds child;
      if (!table_.probe(game_.key(played.next), child)) continue;
      const int at_least = played.again ? played.gain + child.lower : played.gain - child.upper;
      if (at_least >= beta) return at_least;
    }
    return std::nullopt;
  }

  int search(const State& state, int alpha, int beta, int ply, const Abort& abort,
             std::uint64_t& nodes) {
    if ((++nodes & (kLiveNodeStep - 1)) == 0) live_nodes_.fetch_add(kLiveNodeStep, std::memory_order_relaxed);
    if (game_.is_terminal(state)) return game_.terminal_score(state);
    const int bound = game_.seeds_in_play(state);
    if (bound <= probe_max_seeds_) {
      if (const auto exact = probe_(state)) return *exact;
    }
    if (alpha >= bound) return bound;
    if (beta <= -bound) return -bound;
    if ((nodes & 1023) == 0 && abort.stopped()) return 0;

    const std::uint64_t key = game_.key(state);
    ScoreBounds stored;
    int hint = -1;
    if (table_.probe(key, stored)) {
      if (stored.lower >= beta) return stored.lower;
      if (stored.upper <= alpha) return stored.upper;
      if (stored.lower == stored.upper) return stored.lower;
      alpha = std::max(alpha, stored.lower);
      beta = std::min(beta, stored.upper);
      hint = stored.best_move;
    }

    Child children[kMaxMoves];
    static_assert(sizeof(typename G::MoveList) > 0);
    const int count = order_children(state, hint, children);
    if (bound >= options_.etc_min_seeds) {
      if (const auto cut = transposition_cutoff(state, children, count, beta)) return *cut;
    }

    const std::uint64_t nodes_before = nodes;
    int best = -32768, best_move = -1;
    const int alpha_start = alpha;
    int first = 0;
    for (; first < count; ++first) {
      played(state, children[first]);
      const int score = child_score(children[first], alpha, beta, ply, abort, nodes);
      if (abort.stopped()) return 0;
      if (score > best) {
        best = score;
        best_move = static_cast<int>(children[first].move);
      }
      if (best > alpha) alpha = best;
      if (alpha >= beta) break;
      // Young brothers wait: once the first move is known, split the rest near the root.
      if (first == 0 && ply < options_.parallel_plies && count > 2 &&
          parallel_.load(std::memory_order_relaxed)) {
        for (int i = 1; i < count; ++i) played(state, children[i]);
        split(children + 1, count - 1, alpha, beta, ply, abort, nodes, best, best_move);
        if (abort.stopped()) return 0;
        break;
      }
    }
    // Fail-soft: a best at or above beta is a lower bound, at or below the window an upper one.
    const int lower = best > alpha_start ? best : -bound;
    const int upper = best < beta ? best : bound;
    table_.store(key, lower, upper, best_move, nodes - nodes_before);
    return best;
  }

  void split(const Child* children, int count, int alpha, int beta, int ply,
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
      const int a = shared_alpha.load(std::memory_order_relaxed);
      const int score = child_score(children[i], a, beta, ply, local, task_nodes);
      shared_nodes.fetch_add(task_nodes, std::memory_order_relaxed);
      if (local.stopped()) return;
      const std::lock_guard lock(mutex);
      if (score > best) {
        best = score;
        best_move = static_cast<int>(children[i].move);
      }
      if (best > shared_alpha.load(std::memory_order_relaxed)) {
        shared_alpha.store(best, std::memory_order_relaxed);
      }
      if (best >= beta) local.flag.store(true, std::memory_order_relaxed);
    }), oneapi::tbb::simple_partitioner());
    thread_sanitizer::acquire(&mutex);
    nodes += shared_nodes.load(std::memory_order_relaxed);
  }

  // The most moves a node has: the move list's capacity when it says (a node's children live
  // on the stack, so the deep recursions of mancala games keep small frames), else 64.
  static constexpr int kMaxMoves = [] {
    if constexpr (requires { G::MoveList::kCapacity; }) {
      return static_cast<int>(G::MoveList::kCapacity);
    } else {
      return 64;
    }
  }();

  const G game_;
  ScoreSolverOptions options_;
  ScoreTable table_;
  int probe_max_seeds_ = -1;
  Probe probe_;
  std::atomic<bool> parallel_{false};
  Abort root_abort_;
  std::atomic<std::uint64_t> nodes_{0};
  static constexpr std::uint64_t kLiveNodeStep = std::uint64_t{1} << 16;
  std::atomic<std::uint64_t> live_nodes_{0};
};

}  // namespace rastros::engine
