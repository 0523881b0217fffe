#pragma once
// The value of every start square of a board: player 1 moving first from each square that is
// not a goal. Squares are solved in parallel (TBB), sharing one solver and its table; squares
// whose starts are the same position under the board's symmetry are solved once.
//
// Long maps (8x8) can be stopped and resumed: the squares already solved are passed back in,
// each newly solved square is reported as soon as it is known, and a stop flag ends the map
// after the squares in progress.
//
// Boards where some squares are out of reach (8x8, whose centre takes the better part of an hour)
// can give each square a time budget: a square not solved within it is reported as over budget
// instead of holding up the map, and each square then has its own solver (and table), since a
// solver whose search is cancelled stays cancelled.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "search/solver.hpp"

namespace rastros {

struct StartSquareOutcome {
  Square start = 0;
  Outcome outcome;
  /// Not solved within StartMapControl::square_budget: `outcome` means nothing.
  bool over_budget = false;

  friend bool operator==(const StartSquareOutcome&, const StartSquareOutcome&) = default;
};

/// The nodes of the squares' own searches (StartMapControl::square_budget, or proof-number
/// maps), finished squares and squares in progress alike: a map's progress line reads it while
/// the squares search.
class SquareSolverNodes {
 public:
  std::uint64_t total() const {
    std::lock_guard lock(mutex_);
    std::uint64_t sum = finished_;
    for (const auto& [search, nodes_of] : active_) sum += nodes_of();
    return sum;
  }

  /// Counts `search` (a Solver or a ProofNumberSearch: anything with nodes()) while it exists
  /// (nothing when `nodes` is null).
  class Counting {
   public:
    template <class Search>
    Counting(SquareSolverNodes* nodes, const Search& search)
        : nodes_(nodes), search_(&search), nodes_of_([&search] { return search.nodes(); }) {
      if (!nodes_) return;
      std::lock_guard lock(nodes_->mutex_);
      nodes_->active_.emplace_back(search_, nodes_of_);
    }
    ~Counting() {
      if (!nodes_) return;
      std::lock_guard lock(nodes_->mutex_);
      nodes_->active_.erase(
          std::find_if(nodes_->active_.begin(), nodes_->active_.end(),
                       [&](const auto& entry) { return entry.first == search_; }));
      nodes_->finished_ += nodes_of_();
    }
    Counting(const Counting&) = delete;
    Counting& operator=(const Counting&) = delete;

   private:
    SquareSolverNodes* nodes_;
    const void* search_;
    std::function<std::uint64_t()> nodes_of_;
  };

 private:
  mutable std::mutex mutex_;
  std::vector<std::pair<const void*, std::function<std::uint64_t()>>> active_;
  std::uint64_t finished_ = 0;
};

/// How a map solves its squares.
enum class MapAlgorithm {
  /// The alpha-beta Solver given to solve_start_map, its table shared by all squares.
  alpha_beta,
  /// Value only: each square by its own proof-number search (search/proof_number_search.hpp)
  /// with a table of the solver's SolverOptions::table_bytes, so `threads` squares at once
  /// hold `threads` tables. On 8x8 it takes half alpha-beta's nodes (README).
  proof_number,
};

struct StartMapControl {
  /// Squares already solved (from a checkpoint or another process): not solved again.
  std::vector<StartSquareOutcome> known;
  /// Called once per newly solved square, from worker threads, possibly concurrently.
  std::function<void(const StartSquareOutcome&)> on_solved;
  /// Called likewise once per square given up over square_budget (one of each symmetry class).
  std::function<void(const StartSquareOutcome&)> on_over_budget;
  /// When set, squares not yet started are left unsolved.
  const std::atomic<bool>* stop = nullptr;
  /// When set, each square is searched for at most this long by its own solver (with the map
  /// solver's options), and a square over budget comes back with over_budget set. It is not
  /// passed to on_solved, so a resumed map tries it again.
  std::optional<std::chrono::duration<double>> square_budget;
  /// With square_budget: counts the nodes of the squares' own solvers as they search.
  SquareSolverNodes* budget_nodes = nullptr;
  /// With proof_number, `budget_nodes` (when set) counts the squares' searches, budget or not.
  MapAlgorithm algorithm = MapAlgorithm::alpha_beta;
};

/// The start squares of a map, in square order (goals left out).
std::vector<Square> start_squares(const Board& board);

/// `solver` must be built for the same board and rules as `rastros` (its start is ignored).
/// Results are in square order, goals left out; after a stop, only the solved squares (and those
/// over budget).
std::vector<StartSquareOutcome> solve_start_map(const Rastros& rastros, Solver& solver,
                                                const StartMapControl& control = {});

/// The checkpoint of a map: the squares solved so far, with the nodes and seconds they took.
struct MapProgress {
  std::vector<StartSquareOutcome> solved;
  std::uint64_t nodes = 0;
  double seconds = 0;
};

/// Saves `progress` atomically (core/checkpoint_file.hpp) for the map of `rastros`'s board,
/// rules and steps, with or without remoteness.
void write_map_checkpoint(const std::filesystem::path& path, const Rastros& rastros,
                          bool value_only, const MapProgress& progress);
/// The saved progress (empty when there is no checkpoint). Throws InputError when the
/// checkpoint is of another map, FileError when it is damaged.
MapProgress read_map_checkpoint(const std::filesystem::path& path, const Rastros& rastros,
                                bool value_only);

}  // namespace rastros
