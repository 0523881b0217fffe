#pragma once
// The exact solver: perfect-play value and remoteness of any Rastros position.
//
// Negamax alpha-beta over scores (core/value.hpp), so one search orders wins by speed and
// losses by delay. A shared lock-free transposition table keyed by the canonical packed
// position stores bounds on the exact score; because a score counts plies from the position
// itself (never from the root) and the game has no cycles, a stored bound is valid wherever
// the position is met again.
//
// Knowledge that cuts the tree, each switchable for baselines and tests:
//   region pruning   unreachable squares dropped from the key (more transpositions)
//   symmetry         180-degree rotation for the side to move; a1-diagonal reflection
//   matching         with no goal reachable, the winner is known from maximum matchings
//   one goal         with one goal reachable, a geography win for its owner is a win
//   pockets          (value only) goal-free parts behind one square replaced by their value
//   traps            a move every safe reply to which is answered by one leaving the
//                    opponent stuck or only squares beside our goal: a win (a bound with
//                    remoteness) found without packing a child
// Moves are tried in the order of search/move_ordering.hpp (fitted weights) after the table's
// and after the one that won in positions with the same surroundings (search/move_memory.hpp).
// Parallelism: TBB tasks split the first plies (young brothers wait), sharing the table;
// optionally, brothers another thread is searching are deferred (ABDADA).

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/value.hpp"
#include "rastros/rastros.hpp"
#include "search/analysis.hpp"
#include "search/move_ordering.hpp"

namespace rastros {

class MoveHints;  // search/move_hints.hpp

struct SolverOptions {
  bool prune_region = true;
  bool use_symmetry = true;
  bool use_matching = true;
  /// With one goal left in reach, a geography win for its owner is a win (see solver.cpp);
  /// needs use_matching.
  bool use_one_goal_rule = true;
  /// ... in regions of at least this many squares: below, searching costs about what the
  /// matching does (7x7 value-only root, 1 thread: 2.07 M nodes either way, 4% fewer nodes
  /// than without the rule, time unchanged at 20; 10% slower when applied everywhere).
  int one_goal_min_region = 20;
  /// In win/loss searches (value_only) under the standard rules, each pocket of the region (a
  /// goal-free part behind one gateway square) is replaced by its value before the position
  /// is looked up or searched (rastros/pockets.hpp); needs use_matching and prune_region.
  /// Never changes a result; ignored when searching with remoteness, which pockets change.
  /// A third fewer nodes (7x7 value-only analysis 6.65 M -> 4.37 M, 8x7 root 38.5 M ->
  /// 22.6 M), and cheap enough to be faster too (docs/performance.md).
  bool simplify_pockets = true;
  /// In win/loss searches (value_only) under the standard rules, each goal pocket of a child's
  /// region (a goal and the squares round it that only one square leads into) is replaced by
  /// a stand-in worth the same to each player stepping in (rastros/goal_pockets.hpp), valued by
  /// searching the positions just inside it. Never changes a result; needs prune_region and
  /// use_matching; ignored when searching with remoteness.
  bool summarize_goal_pockets = true;
  /// ... for pockets of at most this many squares: bigger ones cost more to value than their
  /// shared keys save (docs/performance.md).
  int goal_pocket_max_squares = 16;
  /// At nodes whose region has at most this many squares (0: none), the moves are ordered
  /// before any child is packed and the first is packed and searched alone: where the side to
  /// move wins, it usually proves that, and its brothers are never packed. They are packed only
  /// when it does not, and then searched without probing the table for each first. Bigger
  /// regions pack every child and probe it in the table first, for the enhanced transposition
  /// cut-offs. Never changes a result (docs/performance.md).
  int lazy_packing_max_region = 34;
  /// Which moves are tried first (search/move_ordering.hpp): never changes a result.
  MoveOrdering move_ordering = MoveOrdering::tuned;
  /// Try first the move that last won in a position with the same surroundings of the snail
  /// (search/move_memory.hpp): never changes a result. Win/loss searches only (value_only, and
  /// the value pass that starts a remoteness search). 7x7 value-only analysis, one thread:
  /// 3.50 M -> 2.08 M nodes; 8x7 value-only root 21.2 M -> 10.9 M (bench/README.md).
  bool remember_moves = true;
  /// In win/loss searches, a move after which the opponent has a reply leaving us stuck or only
  /// squares next to their goal is counted lost without packing or searching the position after
  /// it, and so is a move whose position the table knows we lose (the lost-move rule,
  /// solver.cpp): never changes a result. 7x7 value-only analysis, one thread: 2.08 M -> 1.66 M
  /// nodes from the replies, 1.56 M with the table too (bench/README.md).
  bool lost_move_rule = true;
  /// A move that is a trap (rastros/traps.hpp: every safe reply of the opponent answered by a
  /// move leaving them stuck or only squares beside our goal) is looked for before any child is
  /// packed: in win/loss searches it wins the node at once, with remoteness it bounds the score
  /// (a win in 5 plies or quicker). Never changes a result. 7x7 value-only analysis, one
  /// thread: 1.082 M -> 0.896 M nodes; remoteness 16.0 M -> 12.5 M (docs/performance.md).
  bool trap_rule = true;
  /// With several threads, a thread reaching a brother that another thread is searching
  /// defers it and comes back later (ABDADA). Off by default: keeping the shared record of
  /// busy nodes costs more than the deferrals save (7x7 start, 2 threads:
  /// bench/README.md). Never changes a result.
  bool defer_busy_brothers = false;
  /// Measuring aids for the move order (search/move_hints.hpp), off when null; never change a
  /// result. `record_winning_moves`: at each won node whose children the search enters, the
  /// move that proved the win is recorded. `move_hints`: the move recorded for a node is tried
  /// right after the table's; it must not be recorded into during the search.
  MoveHints* record_winning_moves = nullptr;
  const MoveHints* move_hints = nullptr;
  /// Win/loss/draw only: much faster; outcomes carry no remoteness.
  bool value_only = false;
  /// Transposition table size; at least kMinimumTableBytes.
  std::size_t table_bytes = std::size_t{32} << 20;
  /// In win/loss searches (value_only), the table's compact layout: 8 bytes an entry instead
  /// of 16 (search/transposition_table.hpp), on boards of up to 58 squares. Never changes a
  /// result; off, the wide layout, to measure it (docs/performance.md).
  bool compact_table = true;
  /// Memory for the table, shared with other solvers of the same game and table_bytes (the MPI
  /// ranks of one machine: cluster/node_shared_memory.hpp); see TranspositionTable. Null: the
  /// solver maps its own.
  void* shared_table = nullptr;
};

/// Cancellation, checked every few thousand nodes: the search gives up once `*stop` is true or
/// `deadline` has passed, and Solver::solve / analyse throw SearchCancelled.
struct SearchCancellation {
  const std::atomic<bool>* stop = nullptr;
  std::optional<std::chrono::steady_clock::time_point> deadline;
};

/// A search given up because SearchCancellation::stop was raised or its deadline passed. A
/// cancelled solver stays cancelled (its table may hold nothing wrong, but every later call throws
/// too).
class SearchCancelled : public std::runtime_error {
 public:
  SearchCancelled() : std::runtime_error("search cancelled (stopped or over its time budget)") {}
};

inline constexpr std::size_t kMinimumTableBytes = std::size_t{1} << 16;
/// Throws InputError when `table_bytes` is below kMinimumTableBytes (what Solver refuses):
/// for the tools, to refuse a --memory before any work.
void check_table_bytes(std::size_t table_bytes);

/// The default table size: 8 MiB for value-only solves, 32 MiB with remoteness. Small on
/// purpose: probes land on random pages, and on the 7x7 game a table that stays in cache and
/// in the TLB beats a big one (measured: value-only 3.1 s with 8 MiB, 9.1 s with 512 MiB;
/// remoteness 9.3 s with 32 MiB, 11.6 s with 512 MiB, 18.9 s with 2 GiB; README, "Results").
/// Longer searches (8x8) want more: --memory.
constexpr std::size_t default_table_bytes(bool value_only) {
  return value_only ? std::size_t{8} << 20 : std::size_t{32} << 20;
}

class SearchEngine;

class Solver {
 public:
  /// Throws InputError when options.table_bytes is below kMinimumTableBytes. `cancellation`
  /// (none by default) lets another thread or a deadline stop the searches.
  Solver(const Rastros& rastros, SolverOptions options = {}, SearchCancellation cancellation = {});
  ~Solver();
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;

  /// The value (and remoteness unless value_only) of a position for the side to move.
  /// Runs in parallel on the current TBB arena.
  Outcome solve(const Position& position);
  /// The value of the position and of every legal move from it.
  Analysis analyse(const Position& position);

  /// Nodes searched since construction (all threads).
  std::uint64_t nodes() const;
  /// Fraction of table slots in use, 0..1.
  double table_fill() const;
  const SolverOptions& options() const { return options_; }

 private:
  /// solve() without the cancellation check, for the parallel loops (no exception crosses TBB).
  Outcome solve_unchecked(const Position& position);
  void throw_if_cancelled() const;
  /// For each child, the index of the first child with the same canonical key (itself when
  /// none earlier): those are one position, searched once.
  std::vector<int> first_twins(const Position& position,
                               const std::vector<MoveOutcome>& children) const;

  Rastros rastros_;
  SolverOptions options_;
  std::unique_ptr<SearchEngine> engine_;
};

}  // namespace rastros
