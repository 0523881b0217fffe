#include "search/solver.hpp"

#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for_each.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>

#include "core/errors.hpp"
#include "core/thread_sanitizer.hpp"
#include "rastros/canonical.hpp"
#include "rastros/goal_pockets.hpp"
#include "rastros/matching_endgame.hpp"
#include "rastros/traps.hpp"
#include "search/goal_pocket_values.hpp"
#include "search/move_hints.hpp"
#include "search/move_memory.hpp"
#include "search/move_ordering.hpp"
#include "search/move_sorter.hpp"
#include "search/transposition_table.hpp"

namespace rastros {
namespace {

constexpr Score kInfinity = kScoreMax + 1;

/// Nodes nearer the root than this are split between threads (young brothers wait: the first
/// move is searched alone, the rest in parallel).
constexpr int kSplitPlies = 12;
/// Regions smaller than this are searched by one thread: too little work to share.
constexpr int kSplitRegion = 14;
/// Nor is a node split when its first child took fewer nodes than this: the brothers are
/// probably as small. Measured on two threads: the 6x6 remoteness root 0.12 s -> 0.06 s (one
/// thread: 0.05 s); 7x7 unchanged within noise.
constexpr std::uint64_t kSplitMinNodes = 3000;
/// With a stop flag or deadline, each thread checks it once per this many nodes (a power of 2).
constexpr std::uint64_t kCancelCheckNodes = 4096;

/// A node whose remaining moves are searched in parallel. `stop` is raised on a beta cut-off;
/// every search below checks the chain of split points above it and gives up when one stopped.
struct SplitPoint {
  const SplitPoint* parent = nullptr;
  std::atomic<bool> stop{false};

  bool stopped() const {
    for (const SplitPoint* point = this; point; point = point->parent) {
      if (point->stop.load(std::memory_order_relaxed)) return true;
    }
    return false;
  }
};

/// Nodes some thread is searching right now (ABDADA): another thread reaching one of them as
/// a later brother defers it, searches its other moves, and comes back when the table may
/// already hold the answer. A lossy hash set: a collision only delays a move.
class BusyNodes {
 public:
  bool active() const { return active_; }
  void set_active(bool active) { active_ = active; }
  bool busy(const PackedPosition& key) const {
    return slots_[index(key)].load(std::memory_order_relaxed) == tag(key);
  }
  void enter(const PackedPosition& key) {
    slots_[index(key)].store(tag(key), std::memory_order_relaxed);
  }
  void leave(const PackedPosition& key) {
    std::uint64_t expected = tag(key);
    slots_[index(key)].compare_exchange_strong(expected, 0, std::memory_order_relaxed);
  }

 private:
  static std::uint64_t tag(const PackedPosition& key) {
    return (key.free * 0x9E3779B97F4A7C15ull ^ key.snail * 0xC2B2AE3D27D4EB4Full) | 1;
  }
  static std::size_t index(const PackedPosition& key) { return tag(key) >> 51; }
  bool active_ = false;
  std::array<std::atomic<std::uint64_t>, 8192> slots_{};
};

/// Leaves a node entered in BusyNodes (when `marked`) however the search of it ends.
struct BusyMark {
  BusyNodes& busy;
  const PackedPosition& key;
  bool marked;
  ~BusyMark() {
    if (marked) busy.leave(key);
  }
};

/// Per-thread counters, written only by their own thread.
struct Worker {
  std::atomic<std::uint64_t> nodes{0};
  void count_node() {
    nodes.store(nodes.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
};

/// The score of an outcome in the current mode: -1/0/+1 for value-only searches.
template <bool kValueOnly>
constexpr Score win_in(int plies) {
  return kValueOnly ? 1 : score_of_win(plies);
}
template <bool kValueOnly>
constexpr Score loss_in(int plies) {
  return kValueOnly ? -1 : score_of_loss(plies);
}
/// The parent's score for a child's score, and the child's window for the parent's.
template <bool kValueOnly>
constexpr Score to_parent(Score child) {
  return kValueOnly ? -child : parent_score(child);
}
template <bool kValueOnly>
constexpr Score to_child(Score parent) {
  if (parent >= kInfinity) return -kInfinity;
  if (parent <= -kInfinity) return kInfinity;
  return kValueOnly ? -parent : std::clamp(child_score(parent), -kInfinity, kInfinity);
}

/// What the stages of one node's search (SearchEngine::search) learn and share: its moves
/// worth searching, its goal zones and region, and the bounds proven on its score.
/// Kept apart from the node itself, whose address goes to functions not inlined: so the
/// bounds and masks here stay in registers (with the node inside, each call reloaded them:
/// 5% more instructions a node).
struct NodeFacts {
  bool stuck_loses;
  Square my_goal = 0;
  Square their_goal = 0;
  SquareMask playable = 0;  // the moves left once those that lose at once are set aside
  SquareMask my_goal_zone = 0;
  SquareMask their_goal_zone = 0;
  SquareMask region = 0;
  int region_size = 0;
  Score lower = -kInfinity;
  Score upper = kInfinity;
};

/// A move to search and what the move order weighs for it.
struct Candidate {
  Square move;
  SquareMask child_free;
  MoveFeatures features;
};
struct Candidates {
  std::array<Candidate, 8> items;
  int count = 0;
  int lost_move = -1;  // a move known to lose, not searched
};

struct Window {
  Score alpha;
  Score beta;
};
struct Best {
  Score score = -kInfinity;
  int move = -1;
};

}  // namespace

class SearchEngine {
 public:
  SearchEngine(const Rastros& rastros, const SolverOptions& options,
               const SearchCancellation& cancellation)
      : rastros_(rastros),
        board_(rastros.board()),
        options_(options),
        cancellation_(cancellation),
        canonicalizer_(board_,
                       {options.prune_region, options.use_symmetry,
                        options.simplify_pockets && options.value_only && options.use_matching &&
                            rastros.stuck_rule() == StuckRule::loses}),
        table_(options.table_bytes, options.shared_table,
               options.value_only && options.compact_table ? board_.square_count() : 0),
        orderer_(board_, options.move_ordering),
        memory_(board_) {
    busy_.set_active(threads_ > 1 && options.defer_busy_brothers);
  }

  /// Exact score of a position that has not ended.
  Score solve(const Position& position, bool value_only) {
    const PackedPosition key = canonicalizer_.pack(position);
    Worker& worker = local_worker();
    // The value first (cheap): with remoteness, it says which half of the score range to search.
    const Score value = search<true>(key, -kInfinity, kInfinity, worker, &root_, 0);
    if (value_only || value == 0 || cancelled()) return value;
    // Then MTD(f): null-window tests starting from the quickest conceivable outcome. Each
    // failed test returns a bound (fail-soft) that the next test starts from; tests near the
    // answer are cheap because the table holds the bounds the earlier ones proved.
    Score lower = value > 0 ? 0 : -kInfinity;
    Score upper = value > 0 ? kInfinity : 0;
    Score guess = value > 0 ? score_of_win(1) : score_of_loss(0);
    while (lower < upper && !cancelled()) {
      const Score beta = guess == lower ? guess + 1 : guess;
      guess = search<false>(key, beta - 1, beta, worker, &root_, 0);
      if (guess < beta) {
        upper = guess;
      } else {
        lower = guess;
      }
    }
    return lower;
  }

  std::uint64_t nodes() const {
    std::uint64_t total = 0;
    // Under the lock that local_worker() takes: a progress line reads this during a search,
    // while a thread joining it may be adding its Worker.
    std::lock_guard lock(workers_mutex_);
    for (const Worker& worker : workers_) total += worker.nodes.load(std::memory_order_relaxed);
    return total;
  }
  double table_fill() const { return table_.fill(); }
  /// The table's key of a position that has not ended.
  PackedPosition key_of(const Position& position) const { return canonicalizer_.pack(position); }
  /// True once a search gave up on SolverOptions::stop or the deadline; scores returned since
  /// are meaningless.
  bool cancelled() const { return root_.stop.load(std::memory_order_relaxed); }

 private:
  /// Every kCancelCheckNodes nodes of a thread: raises the root's stop flag (which every split
  /// point below sees) when cancellation was asked for.
  bool check_cancel(const Worker& worker) {
    if (!cancellable_ || (worker.nodes.load(std::memory_order_relaxed) & (kCancelCheckNodes - 1))) {
      return false;
    }
    if ((cancellation_.stop && cancellation_.stop->load(std::memory_order_relaxed)) ||
        (cancellation_.deadline && std::chrono::steady_clock::now() >= *cancellation_.deadline)) {
      raise_stop(root_);
    }
    return cancelled();
  }

  /// Raises a split point's stop flag, then counts it in stops_ (release: whoever sees the new
  /// count sees the flag).
  void raise_stop(SplitPoint& point) {
    point.stop.store(true, std::memory_order_relaxed);
    stops_.fetch_add(1, std::memory_order_release);
  }
  /// True when a split point above has stopped. Walking the chain of split points after every
  /// child was measurable, so it is walked only when some stop was raised since `stops_seen`
  /// (the count when the caller's node started, updated here). A stop raised before the node
  /// started goes unseen by it: its children's scores are then genuine (nothing below gave up
  /// either), it completes and the caller above, which started earlier, gives up instead.
  bool abandoned(const SplitPoint* split, std::uint64_t& stops_seen) const {
    const std::uint64_t stops_now = stops_.load(std::memory_order_acquire);
    if (stops_now == stops_seen) return false;
    if (split->stopped()) return true;  // the count stays: the node's last check must agree
    stops_seen = stops_now;
    return false;
  }
  /// The same test without updating a count: for the threads sharing a split point.
  bool stopped_since(const SplitPoint* split, std::uint64_t stops_seen) const {
    return stops_.load(std::memory_order_acquire) != stops_seen && split->stopped();
  }

  template <bool kValueOnly>
  Score search(const PackedPosition& key, Score alpha, Score beta, Worker& worker,
               const SplitPoint* split, int ply);

  // The stages of search(), in the order it runs them. The Rastros knowledge each brings
  // either settles the node (the score returned) or narrows facts.lower and facts.upper.
  // They run at every node: the compiler inlines them into search(); order_moves is forced to
  // (as a call it cost 1.5% more instructions a node; with all forced, 3%: more spills).
  /// Stuck, a goal in reach, every move handing the opponent a goal, a win one ply ahead.
  template <bool kValueOnly>
  std::optional<Score> settle_at_sight(const Position& node, NodeFacts& facts) const;
  /// A move that traps the opponent (rastros/traps.hpp).
  template <bool kValueOnly>
  std::optional<Score> bound_by_trap(const Position& node, NodeFacts& facts, Score beta) const;
  /// No goal left in the region: geography, settled by the matching endgame.
  template <bool kValueOnly>
  std::optional<Score> bound_by_geography(const Position& node, NodeFacts& facts, Score alpha,
                                          Score beta) const;
  /// The moves worth searching with their ordering features; moves known to lose set aside.
  template <bool kValueOnly>
  void gather_moves(const Position& node, const NodeFacts& facts, Candidates& candidates) const;
  /// The table's bounds (and, with remoteness, who wins from the value-only entry).
  template <bool kValueOnly>
  std::optional<Score> bound_by_table(const PackedPosition& key, NodeFacts& facts, Score alpha,
                                      Score beta, int& table_move) const;
  /// One goal left in the region: geography with an extra winning move for its owner.
  template <bool kValueOnly>
  std::optional<Score> bound_by_one_goal(const Position& node, NodeFacts& facts, Score alpha,
                                         Score beta) const;
  /// The candidates into `sorter`, best first: table move, hinted, remembered, then features.
  [[gnu::always_inline]] inline void order_moves(const PackedPosition& key, const NodeFacts& facts,
                                                 const Candidates& candidates, int table_move,
                                                 std::uint64_t surroundings,
                                                 MoveSorter& sorter) const;
  /// The generic part: the moves searched in order (the first alone, then its brothers,
  /// perhaps in parallel), the result stored in the table.
  template <bool kValueOnly>
  Score search_moves(const PackedPosition& key, const Position& node, const NodeFacts& facts,
                     MoveSorter& sorter, int lost_move, Window window, Worker& worker,
                     const SplitPoint* split, int ply, std::uint64_t& stops_seen,
                     std::uint64_t surroundings);
  /// Lazy packing: the first move packed and searched before its brothers are packed. False
  /// when the search was abandoned meanwhile.
  template <bool kValueOnly>
  bool search_first_alone(const PackedPosition& key, const Position& node, MoveSorter& sorter,
                          Window window, Worker& worker, const SplitPoint* split, int ply,
                          std::uint64_t& stops_seen, Best& best, std::uint64_t& first_nodes);
  /// Packs the moves left and, when none was searched yet, probes their table entries: a child
  /// known good enough settles the node (an enhanced transposition cut-off), one known lost is
  /// set aside. The node's score when settled (0 when abandoned: the caller ignores it).
  template <bool kValueOnly>
  std::optional<Score> pack_brothers(const Position& node, MoveSorter& sorter, Window window,
                                     bool first_searched, int& lost_move, Worker& worker,
                                     const SplitPoint* split, int ply, std::uint64_t& stops_seen);

  /// The key of the child after `move` from `node` (`child_free`: from
  /// Canonicalizer::free_after_step), its goal pockets summarized, with its table slot and
  /// surroundings prefetched. After it the caller checks abandoned(): valuing a pocket searches.
  template <bool kValueOnly>
  PackedPosition pack_child(const Position& node, Square move, SquareMask child_free,
                            Worker& worker, const SplitPoint* split, int ply);
  /// `child` (a key) with its goal pockets replaced by their stand-ins (goal_pockets.hpp), when
  /// it has any of at most SolverOptions::goal_pocket_max_squares squares whose worth the
  /// search finds; otherwise `child` itself.
  PackedPosition summarize_goal_pockets(const PackedPosition& child, Worker& worker,
                                        const SplitPoint* split, int ply);
  /// What stepping into `pocket` is worth to each player (in the frame of the key it came
  /// from), from the table of values or by searching each square next to the gateway. None
  /// when a search below gave up (stopped or cancelled).
  std::optional<GoalPocketValue> value_of(const GoalPocket& pocket, Worker& worker,
                                          const SplitPoint* split, int ply);

  /// Searches the children of a node in order (serial) or, past the first, in parallel.
  /// `first_searched`: the caller searched the node's first move already (lazy packing), and
  /// `moves` holds the others: none is then searched alone before the split.
  template <bool kValueOnly>
  Score search_children(const PackedPosition& key, const MoveSorter& moves, Score alpha, Score beta,
                        Worker& worker, const SplitPoint* split, int ply, bool parallel,
                        bool first_searched, int& best_move, std::uint64_t& stops_seen,
                        std::uint64_t surroundings);

  Rastros rastros_;
  Board board_;
  SolverOptions options_;
  SearchCancellation cancellation_;
  Canonicalizer canonicalizer_;
  TranspositionTable table_;
  MoveOrderer orderer_;
  MoveMemory memory_;
  // Goal pockets are valued by searching inside them: win/loss searches under the standard
  // rules only, like pockets.
  bool goal_pockets_ = options_.summarize_goal_pockets && options_.value_only &&
                       options_.prune_region && options_.use_matching &&
                       rastros_.stuck_rule() == StuckRule::loses;
  GoalPocketValues goal_pocket_values_{goal_pockets_ ? GoalPocketValues::slot_bits_for(board_) : 0};
  BusyNodes busy_;
  /// This thread's counters. The lock keeps nodes() from walking the list while a thread adds
  /// its entry; it is taken once per search and per child handed out at a split point.
  Worker& local_worker() {
    std::lock_guard lock(workers_mutex_);
    return workers_.local();
  }

  oneapi::tbb::enumerable_thread_specific<Worker> workers_;
  mutable std::mutex workers_mutex_;
  SplitPoint root_;
  std::atomic<std::uint64_t> stops_{0};  // stop flags raised so far (see abandoned)
  bool cancellable_ = cancellation_.stop || cancellation_.deadline;
  // Threads TBB lets this search use (the arena's, capped by a global_control such as
  // `--threads`), read once: it sizes the helper tasks of split points.
  int threads_ = std::min<int>(oneapi::tbb::this_task_arena::max_concurrency(),
                               static_cast<int>(oneapi::tbb::global_control::active_value(
                                   oneapi::tbb::global_control::max_allowed_parallelism)));
};

template <bool kValueOnly>
Score SearchEngine::search(const PackedPosition& key, Score alpha, Score beta, Worker& worker,
                           const SplitPoint* split, int ply) {
  worker.count_node();
  std::uint64_t stops_seen = stops_.load(std::memory_order_acquire);
  // A cancelled search unwinds: every caller checks its split chain (root_ included) before
  // using a child's score or storing its own.
  if (check_cancel(worker)) return 0;
  // Every score lies between a loss in 0 and a win in 1. A window beyond that range is decided
  // before looking; answering it here also keeps windows from collapsing to alpha == beta when
  // they are mapped to the children (a collapsed window has no fail-soft meaning).
  if (beta <= loss_in<kValueOnly>(0)) return loss_in<kValueOnly>(0);
  if (alpha >= win_in<kValueOnly>(1)) return win_in<kValueOnly>(1);

  // The Rastros knowledge first, cheapest first: each stage either settles the node or narrows
  // the bounds [facts.lower, facts.upper] on its score.
  const Position node = Canonicalizer::unpack(key);
  NodeFacts facts{rastros_.stuck_rule() == StuckRule::loses};
  if (const auto settled = settle_at_sight<kValueOnly>(node, facts)) return *settled;
  if (const auto settled = bound_by_trap<kValueOnly>(node, facts, beta)) return *settled;
  facts.region = options_.prune_region ? node.free : region_of(board_, node.snail, node.free);
  facts.region_size = count(facts.region);
  // The parent asked for this slot with the node's table bucket; asked again here for the
  // nodes no parent prepared (the root). Read once the one-ply wins and traps are ruled out
  // (the region and the move memory's tag are not needed before: after them, such a node
  // would have spent them for nothing, 1-2% of the time on one thread). Only in
  // win/loss searches: with remoteness it saved a tenth of the nodes but cost more time.
  const std::uint64_t surroundings =
      kValueOnly && options_.remember_moves ? memory_.tag_of(node, facts.region_size) : 0;
  if (surroundings) memory_.prefetch(surroundings);
  if (const auto settled = bound_by_geography<kValueOnly>(node, facts, alpha, beta))
    return *settled;

  // The moves and what the move order weighs for each. In win/loss searches they are gathered
  // before the table is read: the node's table line, asked for by the parent, arrives while
  // this work runs instead of stalling the node, and a fifth of the nodes the table answers
  // lose the work (7x7 value-only analysis, one thread, same nodes: 0.448-0.488 s ->
  // 0.433-0.445 s). With remoteness the table answers more nodes (the null-window tests go
  // over the same ones again): after it.
  Candidates candidates;
  if constexpr (kValueOnly) gather_moves<kValueOnly>(node, facts, candidates);
  int table_move = -1;
  if (const auto settled = bound_by_table<kValueOnly>(key, facts, alpha, beta, table_move)) {
    return *settled;
  }
  if (const auto settled = bound_by_one_goal<kValueOnly>(node, facts, alpha, beta)) return *settled;
  if constexpr (!kValueOnly) gather_moves<kValueOnly>(node, facts, candidates);

  // Then the generic part: order the moves, search them, store the result.
  MoveSorter sorter;
  order_moves(key, facts, candidates, table_move, surroundings, sorter);
  // No score beats a win in 1: with that as beta, a win found by one thread stops its
  // brothers at once, even under a full window (the value-only search from the root).
  const Window window{std::max(alpha, facts.lower),
                      std::min({beta, facts.upper, win_in<kValueOnly>(1)})};
  return search_moves<kValueOnly>(key, node, facts, sorter, candidates.lost_move, window, worker,
                                  split, ply, stops_seen, surroundings);
}

template <bool kValueOnly>
std::optional<Score> SearchEngine::settle_at_sight(const Position& node, NodeFacts& facts) const {
  const Square my_goal = board_.goal_of(node.to_move);
  const Square their_goal = board_.goal_of(opponent(node.to_move));
  const SquareMask moves = board_.neighbours(node.snail) & node.free;
  // Outcomes seen without searching: stuck, own goal in reach, only the opponent's goal left.
  if (!moves) return facts.stuck_loses ? loss_in<kValueOnly>(0) : 0;
  if (moves & bit(my_goal)) return win_in<kValueOnly>(1);
  SquareMask playable = moves & ~bit(their_goal);
  if (!playable) return loss_in<kValueOnly>(1);
  // A move next to the opponent's empty goal lets them win at once (a loss in 2): any other
  // move scores at least as well, so such moves matter only when nothing else is left.
  if (node.free & bit(their_goal)) {
    const SquareMask safe = playable & ~board_.neighbours(their_goal);
    if (!safe) return loss_in<kValueOnly>(2);
    playable = safe;
  }
  facts.my_goal = my_goal;
  facts.their_goal = their_goal;
  facts.playable = playable;
  // Squares the opponent must not step on: our goal and, while it is empty, its neighbours
  // (we would enter it next). A move that leaves the opponent only such squares wins at once.
  facts.my_goal_zone = board_.goal_zone(node.to_move, node.free);
  facts.their_goal_zone = board_.goal_zone(opponent(node.to_move), node.free);
  // Wins one ply ahead are looked for before any child is packed: a node that has one ends
  // here, and packing the children (region, pockets, symmetry) is the dearest part of a node.
  Score forced_win = -kInfinity;
  for (Square move : SquareSet(playable)) {
    const SquareMask replies = board_.neighbours(move) & node.free & ~bit(move);
    if (!replies && facts.stuck_loses) return win_in<kValueOnly>(1);  // the opponent is stuck
    if (replies && !(replies & ~facts.my_goal_zone)) {
      if constexpr (kValueOnly) return 1;
      // They delay: step next to our goal (we enter it: 3 plies) rather than into it (2).
      forced_win = std::max(forced_win, win_in<false>(replies & ~bit(my_goal) ? 3 : 2));
    }
  }
  if (forced_win > -kInfinity) return forced_win;  // only a win in 1 is quicker, ruled out above
  return std::nullopt;
}

template <bool kValueOnly>
std::optional<Score> SearchEngine::bound_by_trap(const Position& node, NodeFacts& facts,
                                                 Score beta) const {
  // A trap (rastros/traps.hpp) wins in 3 to 5 plies, and finding one costs a few masks where
  // the search would pack the child and visit it (in the child, every move would be lost).
  if (!options_.trap_rule) return std::nullopt;
  for (Square move : SquareSet(facts.playable)) {
    if (!is_trap(board_, node, move, facts.my_goal_zone, facts.their_goal_zone,
                 facts.stuck_loses)) {
      continue;
    }
    if constexpr (kValueOnly) return 1;
    // With remoteness only a bound: a win in 5 plies at the slowest, perhaps in 3.
    facts.lower = std::max(facts.lower, score_of_win(5));
    if (facts.lower >= beta) return facts.lower;
    break;
  }
  return std::nullopt;
}

template <bool kValueOnly>
std::optional<Score> SearchEngine::bound_by_geography(const Position& node, NodeFacts& facts,
                                                      Score alpha, Score beta) const {
  if (facts.region & board_.goals()) return std::nullopt;
  // Neither goal can be reached: the game ends when someone is stuck.
  if (!facts.stuck_loses) return 0;
  if (!options_.use_matching) return std::nullopt;
  const bool wins = geography_mover_wins(board_, node.snail, facts.region);
  if constexpr (kValueOnly) return wins ? 1 : -1;
  // Each ply enters a new square of the region, and in geography a win takes an odd
  // number of plies (the opponent is stuck after our move), a loss an even number.
  const int longest = facts.region_size;
  if (wins) {
    // (A trap may have raised the lower bound already.)
    facts.lower = std::max(facts.lower, score_of_win(longest % 2 ? longest : longest - 1));
    facts.upper = score_of_win(1);
  } else {
    facts.lower = score_of_loss(2);
    facts.upper = score_of_loss(longest % 2 ? longest - 1 : longest);
  }
  if (facts.lower >= beta) return facts.lower;
  if (facts.upper <= alpha) return facts.upper;
  return std::nullopt;
}

template <bool kValueOnly>
void SearchEngine::gather_moves(const Position& node, const NodeFacts& facts,
                                Candidates& candidates) const {
  for (Square move : SquareSet(facts.playable)) {
    MoveFeatures features =
        orderer_.reply_features(node, move, facts.my_goal_zone, facts.their_goal_zone);
    if (kValueOnly && options_.lost_move_rule) {
      // The opponent has a reply that leaves us stuck or only squares next to their goal:
      // the child would find that win first thing (settle_at_sight, one ply down). Counted as
      // a loss here, without packing the child or entering it.
      if (features.reply_forces_their_goal ||
          (facts.stuck_loses && features.reply_leaves_us_stuck)) {
        candidates.lost_move = move;
        continue;
      }
    }
    // `node` came from unpacking a key: its free squares are its region.
    const SquareMask child_free = canonicalizer_.free_after_step(node, move);
    orderer_.add_region_features(features, node, move, child_free);
    candidates.items[candidates.count++] = {move, child_free, features};
  }
}

template <bool kValueOnly>
std::optional<Score> SearchEngine::bound_by_table(const PackedPosition& key, NodeFacts& facts,
                                                  Score alpha, Score beta, int& table_move) const {
  TableEntry entry;
  if (table_.probe(key, kValueOnly, entry)) {
    facts.lower = std::max(facts.lower, entry.lower);
    facts.upper = std::min(facts.upper, entry.upper);
    if (facts.lower >= beta || facts.lower == facts.upper) return facts.lower;
    if (facts.upper <= alpha) return facts.upper;
    table_move = entry.best_move;
  }
  if constexpr (!kValueOnly) {
    // A value-only entry, when there is one, tells who wins: the score is then in one half.
    TableEntry value;
    if (facts.lower < 0 && facts.upper > 0 && table_.probe(key, true, value)) {
      const int longest = facts.region_size;
      if (value.lower > 0) facts.lower = std::max(facts.lower, score_of_win(longest));
      if (value.upper < 0) facts.upper = std::min(facts.upper, score_of_loss(longest));
      if (value.lower == 0 && value.upper == 0) return 0;  // a draw: no remoteness to find
      if (facts.lower >= beta) return facts.lower;
      if (facts.upper <= alpha) return facts.upper;
    }
  }
  return std::nullopt;
}

template <bool kValueOnly>
std::optional<Score> SearchEngine::bound_by_one_goal(const Position& node, NodeFacts& facts,
                                                     Score alpha, Score beta) const {
  const SquareMask region = facts.region;
  if (!facts.stuck_loses || !options_.use_matching || !options_.use_one_goal_rule ||
      facts.region_size < options_.one_goal_min_region ||
      ((region & bit(facts.my_goal)) == 0) == ((region & bit(facts.their_goal)) == 0)) {
    return std::nullopt;
  }
  // One goal left in reach. Its owner has every move of plain geography on the rest of the
  // region plus a winning one (entering it); the other player's extra move (entering it too)
  // loses at once. So if the owner wins that geography game, the owner wins here. Checked
  // after the table: a stored entry means the rule did not decide this node before.
  const bool mine = region & bit(facts.my_goal);
  const Square goal = mine ? facts.my_goal : facts.their_goal;
  const bool mover_wins_geography = geography_mover_wins(board_, node.snail, region & ~bit(goal));
  if (mine != mover_wins_geography) return std::nullopt;
  if constexpr (kValueOnly) return mine ? 1 : -1;
  const int longest = facts.region_size;
  if (mine) {
    facts.lower = std::max(facts.lower, score_of_win(longest));
  } else {
    facts.upper = std::min(facts.upper, score_of_loss(longest));
  }
  if (facts.lower >= beta || facts.lower == facts.upper) return facts.lower;
  if (facts.upper <= alpha) return facts.upper;
  return std::nullopt;
}

void SearchEngine::order_moves(const PackedPosition& key, const NodeFacts& facts,
                               const Candidates& candidates, int table_move,
                               std::uint64_t surroundings, MoveSorter& sorter) const {
  // A move that won where the surroundings were the same goes right after the table's (and
  // after a hinted one, when the order is being measured: MoveHints).
  const int remembered = surroundings ? memory_.recall(surroundings) : -1;
  const int hinted =
      options_.move_hints ? options_.move_hints->move_for(key, facts.region_size) : -1;
  for (int i = 0; i < candidates.count; ++i) {
    const Candidate& candidate = candidates.items[i];
    int priority = MoveSorter::kTableMove;
    if (candidate.move != table_move) {
      if (candidate.move == hinted) {
        priority = MoveSorter::kHintedMove;
      } else if (candidate.move == remembered) {
        priority = MoveSorter::kRememberedMove;
      } else {
        priority = orderer_.priority(candidate.features, facts.region_size, options_.value_only);
      }
    }
    sorter.add(candidate.move, candidate.child_free, priority);
  }
  sorter.sort();
}

template <bool kValueOnly>
Score SearchEngine::search_moves(const PackedPosition& key, const Position& node,
                                 const NodeFacts& facts, MoveSorter& sorter, int lost_move,
                                 Window window, Worker& worker, const SplitPoint* split, int ply,
                                 std::uint64_t& stops_seen, std::uint64_t surroundings) {
  const std::uint64_t nodes_before = worker.nodes.load(std::memory_order_relaxed);
  Best best;
  std::uint64_t first_nodes = 0;  // the nodes of a first child searched before the others
  // Where the side to move wins, the first move tried usually proves it, and packing its
  // brothers (regions, pockets, symmetry: the dearest part of a node) is wasted. But packed
  // brothers are probed in the table (an enhanced transposition cut-off, below), and in big
  // regions a brother already known to win saves more than packing and probing cost.
  const bool first_searched =
      facts.region_size <= options_.lazy_packing_max_region && sorter.size() > 1;
  // Marked for the other threads while its children are searched (ABDADA: BusyNodes).
  const bool mark_busy = busy_.active() && facts.region_size >= kSplitRegion;
  if (mark_busy) busy_.enter(key);
  const BusyMark busy_mark{busy_, key, mark_busy};
  if (first_searched && !search_first_alone<kValueOnly>(key, node, sorter, window, worker, split,
                                                        ply, stops_seen, best, first_nodes)) {
    return 0;
  }

  if (best.score < window.beta) {
    if (const auto settled = pack_brothers<kValueOnly>(node, sorter, window, first_searched,
                                                       lost_move, worker, split, ply, stops_seen)) {
      return *settled;
    }
    // The first child's subtree is the best guess at each brother's: when it was small,
    // sharing the brothers would cost more than it saves.
    const bool parallel = threads_ > 1 && ply < kSplitPlies && sorter.size() > 1 &&
                          facts.region_size >= kSplitRegion &&
                          (!first_searched || first_nodes >= kSplitMinNodes);
    int rest_best_move = -1;
    const Score rest = search_children<kValueOnly>(
        key, sorter, std::max(window.alpha, best.score), window.beta, worker, split, ply, parallel,
        first_searched, rest_best_move, stops_seen, surroundings);
    if (abandoned(split, stops_seen)) return 0;  // the caller ignores this score
    if (rest > best.score) best = {rest, rest_best_move};
  }
  // No move was searched: every one is known to lose.
  if (lost_move >= 0 && best.score < loss_in<kValueOnly>(0)) {
    best = {loss_in<kValueOnly>(0), lost_move};
  }

  // Fail-soft: the best score is exact inside the window, an upper bound below it, a lower
  // bound above.
  const Score lower = facts.lower, upper = facts.upper;
  const Score new_lower = best.score > window.alpha ? std::max(lower, best.score) : lower;
  const Score new_upper = best.score < window.beta ? std::min(upper, best.score) : upper;
  table_.store(key, kValueOnly, new_lower, new_upper, best.move,
               worker.nodes.load(std::memory_order_relaxed) - nodes_before + 1);
  return std::clamp(best.score, lower, upper);
}

template <bool kValueOnly>
bool SearchEngine::search_first_alone(const PackedPosition& key, const Position& node,
                                      MoveSorter& sorter, Window window, Worker& worker,
                                      const SplitPoint* split, int ply, std::uint64_t& stops_seen,
                                      Best& best, std::uint64_t& first_nodes) {
  const int first = sorter.added_index(0);
  MoveSorter::Entry& candidate = sorter.added_entry(first);
  const PackedPosition child =
      pack_child<kValueOnly>(node, candidate.move, candidate.free, worker, split, ply);
  if (abandoned(split, stops_seen)) return false;
  sorter.set_child(first, child);
  sorter.drop(first);  // searched here, not again with its brothers
  // Not probed here: the child probes its own entry first thing, after work that gives the
  // prefetch time to land (probing here too was slower, with fewer nodes counted).
  const std::uint64_t first_start = worker.nodes.load(std::memory_order_relaxed);
  const Score score = to_parent<kValueOnly>(
      search<kValueOnly>(child, to_child<kValueOnly>(window.beta),
                         to_child<kValueOnly>(window.alpha), worker, split, ply + 1));
  if (abandoned(split, stops_seen)) return false;
  best = {score, candidate.move};
  first_nodes = worker.nodes.load(std::memory_order_relaxed) - first_start;
  if (score >= window.beta && score > 0 && options_.record_winning_moves) {
    options_.record_winning_moves->record(key, candidate.move);
  }
  return true;
}

template <bool kValueOnly>
std::optional<Score> SearchEngine::pack_brothers(const Position& node, MoveSorter& sorter,
                                                 Window window, bool first_searched, int& lost_move,
                                                 Worker& worker, const SplitPoint* split, int ply,
                                                 std::uint64_t& stops_seen) {
  // Every child (left) packed first, so that each table line is on its way before the
  // first probe.
  for (int i = 0; i < sorter.added(); ++i) {
    MoveSorter::Entry& candidate = sorter.added_entry(i);
    if (candidate.priority == MoveSorter::kDropped) continue;
    const PackedPosition child =
        pack_child<kValueOnly>(node, candidate.move, candidate.free, worker, split, ply);
    if (abandoned(split, stops_seen)) return 0;  // the caller ignores this score
    sorter.set_child(i, child);
  }
  // Where the first move failed, the node is usually lost and every brother is searched
  // anyway: their table entries are read as they are entered, and reading them all here
  // first cost more in waiting than it saved (docs/performance.md).
  for (int i = 0; !first_searched && i < sorter.added(); ++i) {
    MoveSorter::Entry& candidate = sorter.added_entry(i);
    if (candidate.priority == MoveSorter::kDropped) continue;
    // Enhanced transposition cut-off: a child already known good enough settles the node.
    TableEntry known;
    if (table_.probe(candidate.child, kValueOnly, known)) {
      const Score at_least = to_parent<kValueOnly>(known.upper);
      if (at_least >= window.beta) return at_least;
      if (at_least > 0) candidate.priority = MoveSorter::kKnownWin;  // try it first
      if (kValueOnly && options_.lost_move_rule &&
          to_parent<kValueOnly>(known.lower) <= loss_in<kValueOnly>(0)) {
        // Known lost: entering the child would only read this entry again.
        lost_move = candidate.move;
        sorter.drop(i);
      }
    }
  }
  sorter.sort();
  return std::nullopt;
}

template <bool kValueOnly>
PackedPosition SearchEngine::pack_child(const Position& node, Square move, SquareMask child_free,
                                        Worker& worker, const SplitPoint* split, int ply) {
  PackedPosition child = canonicalizer_.pack_after_step(node, move, child_free);
  if (kValueOnly && goal_pockets_) child = summarize_goal_pockets(child, worker, split, ply);
  table_.prefetch(child);  // its probe then overlaps the cache miss with other work
  if (kValueOnly && options_.remember_moves) {
    // The child's own surroundings, which it recalls after its probes: asked for now. (With
    // region pruning off, the child's region is not its key's free squares and this asks for
    // a slot it will not read: a prefetch, never a wrong hint.)
    memory_.prefetch(memory_.tag_of(Canonicalizer::unpack(child), count(child.free)));
  }
  return child;
}

PackedPosition SearchEngine::summarize_goal_pockets(const PackedPosition& child, Worker& worker,
                                                    const SplitPoint* split, int ply) {
  const Position position = Canonicalizer::unpack(child);
  SquareMask region = position.free;  // keys hold regions
  bool changed = false;
  for (Square goal : SquareSet(region & board_.goals())) {
    if (!(region & bit(goal))) continue;  // gone with the other goal's pocket
    const auto pocket =
        find_goal_pocket(board_, position.snail, region, goal, options_.goal_pocket_max_squares);
    if (!pocket) continue;
    const auto value = value_of(pocket, worker, split, ply);
    if (!value) return child;
    const auto simplified =
        with_goal_pocket_stand_in(board_, position.snail, region, pocket, *value);
    if (!simplified || *simplified == region) continue;
    region = *simplified;
    changed = true;
  }
  // Not searched for goal-free pockets again: removing a goal pocket can leave one behind its
  // gateway, which this key then keeps. Another key of the same position is only a missed
  // table hit, never a wrong value, and looking cost more than the hits it found (0.94 s
  // against 0.99 s, the same nodes within 0.01%).
  return changed ? canonicalizer_.pack_pruned({region, position.snail, position.to_move}) : child;
}

std::optional<GoalPocketValue> SearchEngine::value_of(const GoalPocket& pocket, Worker& worker,
                                                      const SplitPoint* split, int ply) {
  if (const auto known = goal_pocket_values_.find(pocket)) return known;
  bool wins[2] = {false, false};
  for (const Player entering : {Player::one, Player::two}) {
    bool& entering_wins = wins[entering == Player::two];
    for (Square square : SquareSet(board_.neighbours(pocket.gateway) & pocket.part)) {
      if (square == board_.goal_of(entering)) {
        entering_wins = true;
        break;
      }
      if (square == board_.goal_of(opponent(entering))) continue;  // entering it loses
      const Position inside{pocket.part & ~bit(square), square, opponent(entering)};
      const Score score =
          search<true>(canonicalizer_.pack(inside), -kInfinity, kInfinity, worker, split, ply + 1);
      // No draws under these rules: 0 means the search gave up.
      if (score == 0) return std::nullopt;
      if (score < 0) {
        entering_wins = true;
        break;
      }
    }
  }
  const GoalPocketValue value{wins[0], wins[1]};
  goal_pocket_values_.store(pocket, value);
  return value;
}

template <bool kValueOnly>
Score SearchEngine::search_children(const PackedPosition& key, const MoveSorter& moves, Score alpha,
                                    Score beta, Worker& worker, const SplitPoint* split, int ply,
                                    bool parallel, bool first_searched, int& best_move,
                                    std::uint64_t& stops_seen, std::uint64_t surroundings) {
  // A cut-off by any move but the first one tried is a surprise worth remembering (MoveMemory).
  // A winning one is recorded when the order is being measured (MoveHints).
  const auto remember = [&](int i, Score score) {
    if (surroundings && (i > 0 || first_searched)) memory_.remember(surroundings, moves[i].move);
    if (options_.record_winning_moves && score > 0) {
      options_.record_winning_moves->record(key, moves[i].move);
    }
  };
  Score best = -kInfinity;
  // Young brothers wait: the first move alone, unless the caller searched it already.
  int serial_moves = !parallel ? moves.size() : first_searched ? 0 : 1;
  const std::uint64_t nodes_at_start = worker.nodes.load(std::memory_order_relaxed);
  std::array<std::uint8_t, 8> deferred;
  int deferred_count = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (int j = 0; j < (pass == 0 ? serial_moves : deferred_count); ++j) {
      const int i = pass == 0 ? j : deferred[j];
      const PackedPosition& child_position = moves[i].child;
      // The first move tried is never put off (someone must search something), unless the
      // caller tried one already.
      if (pass == 0 && (j > 0 || first_searched) && busy_.active() && busy_.busy(child_position)) {
        deferred[deferred_count++] = static_cast<std::uint8_t>(i);
        continue;
      }
      const Score child = search<kValueOnly>(child_position, to_child<kValueOnly>(beta),
                                             to_child<kValueOnly>(alpha), worker, split, ply + 1);
      if (abandoned(split, stops_seen)) return best;
      const Score score = to_parent<kValueOnly>(child);
      if (score > best) {
        best = score;
        best_move = moves[i].move;
        if (score > alpha) alpha = score;
        if (alpha >= beta) {
          remember(i, score);
          return best;
        }
      }
      // The first child's subtree is the best guess at each brother's: when it was small,
      // sharing the brothers would cost more than it saves, and the node goes on alone.
      if (pass == 0 && j == 0 && parallel && !first_searched &&
          worker.nodes.load(std::memory_order_relaxed) - nodes_at_start < kSplitMinNodes) {
        parallel = false;
        serial_moves = moves.size();
      }
    }
  }
  if (!parallel) return best;

  // Young brothers: the rest in parallel, sharing alpha; a cut-off stops the others. The
  // children are handed out best-first from a shared counter by as many identical tasks as
  // threads can run them: spawning one task per child would let the spawning thread run them
  // newest (worst) first, and a 7x7 remoteness solve then took twice the nodes on one thread.
  SplitPoint point;
  point.parent = split;
  // Giving up here follows the same rule as abandoned(): only stops raised since this node
  // started count, so that whoever called this node notices them too.
  const std::uint64_t started = stops_seen;
  const auto given_up = [&] {
    return point.stop.load(std::memory_order_relaxed) || stopped_since(split, started);
  };
  std::atomic<Score> shared_alpha{alpha};
  // Score and move in one word (the move's byte masked: none yet is -1).
  std::atomic<int> shared_best{(best + 128) << 8 | (best_move & 0xff)};
  std::atomic<int> next_child{serial_moves};
  const auto search_next_children = [&] {
    for (int i = next_child.fetch_add(1, std::memory_order_relaxed); i < moves.size();
         i = next_child.fetch_add(1, std::memory_order_relaxed)) {
      const Score alpha_now = shared_alpha.load(std::memory_order_relaxed);
      if (given_up() || alpha_now >= beta) return;
      Worker& local = local_worker();
      const Score child =
          search<kValueOnly>(moves[i].child, to_child<kValueOnly>(beta),
                             to_child<kValueOnly>(alpha_now), local, &point, ply + 1);
      if (given_up()) return;
      const Score score = to_parent<kValueOnly>(child);
      const int packed = (score + 128) << 8 | moves[i].move;
      int seen = shared_best.load(std::memory_order_relaxed);
      while ((seen >> 8) < (score + 128) &&
             !shared_best.compare_exchange_weak(seen, packed, std::memory_order_relaxed)) {
      }
      Score seen_alpha = shared_alpha.load(std::memory_order_relaxed);
      while (seen_alpha < score &&
             !shared_alpha.compare_exchange_weak(seen_alpha, score, std::memory_order_relaxed)) {
      }
      if (score >= beta) {
        remember(i, score);
        raise_stop(point);
      }
    }
  };
  oneapi::tbb::task_group group;
  const int helpers = std::min(moves.size() - serial_moves, threads_) - 1;
  for (int i = 0; i < helpers; ++i) {
    group.run(thread_sanitizer::handed_off([&] {
      search_next_children();
      thread_sanitizer::publish(&group);
    }));
  }
  search_next_children();  // this thread takes its share too
  group.wait();
  thread_sanitizer::acquire(&group);
  const int packed = shared_best.load(std::memory_order_relaxed);
  best_move = packed & 0xff;
  return (packed >> 8) - 128;
}

void check_table_bytes(std::size_t table_bytes) {
  if (table_bytes < kMinimumTableBytes) {
    throw InputError("table memory of " + std::to_string(table_bytes) +
                     " bytes is too small: at least " + std::to_string(kMinimumTableBytes) +
                     " bytes are needed");
  }
}

Solver::Solver(const Rastros& rastros, SolverOptions options, SearchCancellation cancellation)
    : rastros_(rastros), options_(options) {
  check_table_bytes(options.table_bytes);
  engine_ = std::make_unique<SearchEngine>(rastros, options, cancellation);
}

Solver::~Solver() = default;

Outcome Solver::solve(const Position& position) {
  const Outcome outcome = solve_unchecked(position);
  throw_if_cancelled();
  return outcome;
}

void Solver::throw_if_cancelled() const {
  if (engine_->cancelled()) throw SearchCancelled();
}

Outcome Solver::solve_unchecked(const Position& position) {
  if (const auto ended = rastros_.terminal_value(position)) {
    Outcome outcome = ended_outcome(*ended);
    if (options_.value_only) outcome.remoteness.reset();
    return outcome;
  }
  const Score score = engine_->solve(position, options_.value_only);
  if (options_.value_only) {
    return {score > 0 ? Value::win : score < 0 ? Value::loss : Value::draw, std::nullopt};
  }
  return outcome_of_score(score);
}

Analysis Solver::analyse(const Position& position) {
  const std::uint64_t nodes_before = nodes();
  Analysis analysis;
  if (rastros_.has_ended(position)) {
    analysis.outcome = solve(position);
    return analysis;
  }
  // Every child is solved anyway, and the position's outcome is the best of theirs. The
  // children are independent searches sharing the table: solve them side by side. Children
  // that are one position under the board's symmetry (from the 7x7 start, d3 and c4) are
  // solved once: side by side, both searches would run before either could store its answer.
  for (Square move : rastros_.legal_moves(position)) analysis.children.push_back({move, {}});
  const std::vector<int> twin_of = first_twins(position, analysis.children);
  std::vector<MoveOutcome*> distinct;
  for (std::size_t i = 0; i < twin_of.size(); ++i) {
    if (twin_of[i] == static_cast<int>(i)) distinct.push_back(&analysis.children[i]);
  }
  oneapi::tbb::parallel_for_each(
      distinct, thread_sanitizer::handed_off([&](MoveOutcome* result) {
        result->outcome = outcome_of_move(solve_unchecked(rastros_.play(position, result->move)));
        thread_sanitizer::publish(&analysis);
      }));
  thread_sanitizer::acquire(&analysis);
  throw_if_cancelled();
  for (std::size_t i = 0; i < twin_of.size(); ++i) {
    analysis.children[i].outcome = analysis.children[twin_of[i]].outcome;
  }
  settle_from_children(analysis);
  analysis.nodes = nodes() - nodes_before;
  return analysis;
}

std::vector<int> Solver::first_twins(const Position& position,
                                     const std::vector<MoveOutcome>& children) const {
  std::vector<int> twin_of(children.size());
  std::vector<std::optional<PackedPosition>> keys;
  for (std::size_t i = 0; i < children.size(); ++i) {
    const Position child = rastros_.play(position, children[i].move);
    // A child that ended has no key; it is cheap to score on its own.
    keys.push_back(rastros_.has_ended(child) ? std::nullopt
                                             : std::optional(engine_->key_of(child)));
    twin_of[i] = static_cast<int>(i);
    for (std::size_t j = 0; j < i; ++j) {
      if (keys[i] && keys[j] == keys[i]) {
        twin_of[i] = static_cast<int>(j);
        break;
      }
    }
  }
  return twin_of;
}

std::uint64_t Solver::nodes() const {
  return engine_->nodes();
}
double Solver::table_fill() const {
  return engine_->table_fill();
}

}  // namespace rastros
