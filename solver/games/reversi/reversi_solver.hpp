#pragma once
// The exact Reversi solver: the final disc margin with perfect play, by fail-soft principal
// variation search (a null window for every move after the first, re-searched when it beats
// alpha) over the bitboards of reversi_bits.hpp.
//
// What makes it fast, as in the best endgame solvers:
// - a lock-free transposition table keyed by both masks (reversi_table.hpp), with enhanced
//   transposition cutoffs (a child's stored bound that already refutes the node ends it);
// - fastest-first move ordering: the move leaving the opponent the fewest replies first
//   (corners counted double), the table's best move before all, corners early; far from the
//   end a shallow search ahead of it, over a pattern evaluation fitted to positions this
//   solver scored (reversi_patterns.hpp, reversi_training.hpp) on 8×8;
// - a stability cutoff: discs the opponent can never turn bound the score from above;
// - below kFewEmpties empties, reversi_endgame.hpp: no table, parity order, the last square
//   scored by counting flips;
// - near the root, young brothers wait (TBB): the first move alone, then the others in
//   parallel with the window it left; a sibling's cutoff stops the rest.

#include <atomic>
#include <memory>
#include <cstdint>
#include <vector>

#include "core/value.hpp"
#include "games/reversi/reversi.hpp"
#include "games/reversi/reversi_endgame.hpp"
#include "games/reversi/reversi_table.hpp"

namespace rastros::reversi {

class Stability;

struct ReversiSolverOptions {
  std::size_t table_bytes = std::size_t{64} << 20;
  /// Nodes this many plies from the root or fewer split their moves among threads...
  int parallel_plies = 8;
  /// ...when they have at least this many empty squares.
  int parallel_min_empties = 12;
};

class ReversiSolver {
 public:
  struct MoveScore {
    ReversiMove move;
    int score;  // the final margin for the mover after this move, perfect play
  };

  explicit ReversiSolver(const Reversi& game, ReversiSolverOptions options = {});
  ~ReversiSolver();

  /// The exact final margin for the side to move. Throws engine::SearchStopped after stop().
  int score(const ReversiState& state);
  /// The final margin searched in the window (alpha, beta), fail-soft: exact when strictly
  /// inside it; otherwise a bound, the margin being at most a result <= alpha and at least a
  /// result >= beta. A split job's pieces are solved so. Throws engine::SearchStopped after
  /// stop().
  int bounded_score(const ReversiState& state, int alpha, int beta) {
    return search_root(state.mine, state.theirs, alpha, beta);
  }
  /// Win, draw or loss for the side to move, by two null-window searches at most.
  Value value(const ReversiState& state);
  /// Every legal move's exact score, in legal_moves order (pass included when it is the move).
  std::vector<MoveScore> analyse(const ReversiState& state);
  /// Every legal move's win/draw/loss for the mover.
  std::vector<Value> analyse_values(const ReversiState& state);

  /// The nodes searched so far (live, to the nearest 2^16 a thread while a search runs).
  std::uint64_t nodes() const;
  /// Asks the running searches to stop: they throw engine::SearchStopped. Safe from any thread.
  void stop() { root_abort_.flag.store(true, std::memory_order_relaxed); }

 private:
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
    Bits mine;    // the child from its mover's view (the opponent's discs)
    Bits theirs;
    int move;
    int order;
  };

  int search_root(Bits mine, Bits theirs, int alpha, int beta);
  int search(Bits mine, Bits theirs, int alpha, int beta, int ply, const Abort& abort,
             std::uint64_t& nodes);
  int order_children(Bits mine, Bits theirs, Bits moves, int hint, int empties,
                     Child* children) const;
  int stability_bound(Bits mine, Bits theirs) const;
  void split(const Child* children, int count, int alpha, int beta, int ply, const Abort& abort,
             std::uint64_t& nodes, int& best, int& best_move);

  Reversi game_;
  Geometry geometry_;
  Quadrants quadrants_;
  ReversiSolverOptions options_;
  ReversiTable table_;
  std::unique_ptr<const Stability> stability_;
  std::atomic<bool> parallel_{false};
  Abort root_abort_;
  std::atomic<std::uint64_t> nodes_{0};
  std::atomic<std::uint64_t> live_nodes_{0};
};

/// Below this many empty squares the search uses reversi_endgame.hpp.
inline constexpr int kFewEmpties = 7;

/// The discs of `mine` that can never be turned: grown from the corners along full lines and
/// edges (a conservative set, cheap to compute).
Bits stable_discs(Bits mine, Bits theirs, const Geometry& g);

}  // namespace rastros::reversi
