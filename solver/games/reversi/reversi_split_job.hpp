#pragma once
// Solving a Reversi position too big for one uninterrupted search (6×6 from the start) as a
// resumable job. The game tree is expanded from the root to a split depth, positions that are
// images of one another under the square's symmetries merged (reversi_symmetry.hpp); an
// alpha-beta search (principal variation search) runs over that tree, and each position at the
// split depth is a piece: solved by ReversiSolver::bounded_score in the window the tree search
// gives it, and its result appended to a checkpoint (reversi_piece_log.hpp) the moment it is
// known. A job killed at any moment and run again with `resume` replays the tree search, which
// finds every finished piece in the checkpoint instead of searching it again.
//
// The tree search is the same alpha-beta as the solver's, cut in two at the split depth, so
// its answer is the exact score, whatever the split depth: pieces answer in their window
// (exact inside, a true bound outside) and the checkpoint's records are combined into bounds
// that are used only when they decide the window they are asked for.

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <unordered_map>

#include "games/reversi/reversi.hpp"
#include "games/reversi/reversi_piece_log.hpp"
#include "games/reversi/reversi_solver.hpp"

namespace rastros::reversi {

struct SplitJobOptions {
  std::filesystem::path directory;
  /// Plies from the root to the pieces (a pass counts as one).
  int split_depth = 6;
  bool resume = false;
  /// Stops (engine::SearchStopped) once this many pieces have been searched: a job run in
  /// slices, and the tests' interruption.
  std::optional<std::uint64_t> stop_after_pieces = std::nullopt;
};

/// How far a job has got; read live by a progress thread.
struct SplitJobCounters {
  std::atomic<std::uint64_t> pieces_reused{0};    // answered by the checkpoint
  std::atomic<std::uint64_t> pieces_searched{0};  // solved by this run
  std::atomic<std::uint64_t> logged_nodes{0};     // the nodes of the checkpoint's pieces
};

class ReversiSplitJob {
 public:
  /// Opens (or with options.resume reopens) the checkpoint: throws as PieceLog does.
  ReversiSplitJob(const Reversi& game, ReversiSolver& solver, SplitJobOptions options);

  /// The exact final margin for the side to move.
  int score(const ReversiState& root);
  /// Win, draw or loss, by one search in the window (-1, 1).
  Value value(const ReversiState& root);

  const SplitJobCounters& counters() const { return counters_; }
  /// Every piece's nodes: the checkpoint's (earlier runs included) and this run's.
  std::uint64_t nodes() const;
  std::uint64_t records() const { return records_.load(std::memory_order_relaxed); }

 private:
  struct Bounds {
    int lower;
    int upper;
  };
  struct Child {
    ReversiState state;
    CanonicalKey key;
    int order;
  };

  int search(const ReversiState& state, int depth, int alpha, int beta);
  int search_children(const ReversiState& state, int depth, int alpha, int beta);
  int piece(const ReversiState& state, const CanonicalKey& key, int alpha, int beta);
  std::vector<Child> children_of(const ReversiState& state) const;
  CanonicalKey key_of(const ReversiState& state) const;
  void learn(std::unordered_map<CanonicalKey, Bounds, CanonicalKeyHash>& bounds,
             const CanonicalKey& key, int alpha, int beta, int result) const;
  static std::optional<int> decided(const Bounds& b, int alpha, int beta);

  Reversi game_;
  ReversiSolver& solver_;
  SplitJobOptions options_;
  PieceLog log_;
  int bound_;
  // What the checkpoint knows of the pieces, and what this run learnt of the nodes above them.
  std::unordered_map<CanonicalKey, Bounds, CanonicalKeyHash> pieces_;
  std::unordered_map<CanonicalKey, Bounds, CanonicalKeyHash> tree_;
  SplitJobCounters counters_;
  std::atomic<std::uint64_t> records_{0};
};

}  // namespace rastros::reversi
