#pragma once
// The value of every start square of a board: player 1 moving first from each square that is
// not a goal. Squares are solved in parallel (TBB), sharing one solver and its table.
//
// Long maps (8x8) can be stopped and resumed: the squares already solved are passed back in,
// each newly solved square is reported as soon as it is known, and a stop flag ends the map
// after the squares in progress.

#include <atomic>
#include <filesystem>
#include <functional>
#include <vector>

#include "search/solver.hpp"

namespace rastros {

struct StartSquareOutcome {
  Square start = 0;
  Outcome outcome;

  friend bool operator==(const StartSquareOutcome&, const StartSquareOutcome&) = default;
};

struct StartMapControl {
  /// Squares already solved (from a checkpoint or another process): not solved again.
  std::vector<StartSquareOutcome> known;
  /// Called once per newly solved square, from worker threads, possibly concurrently.
  std::function<void(const StartSquareOutcome&)> on_solved;
  /// When set, squares not yet started are left unsolved.
  const std::atomic<bool>* stop = nullptr;
};

/// The start squares of a map, in square order (goals left out).
std::vector<Square> start_squares(const Board& board);

/// `solver` must be built for the same board and rules as `rastros` (its start is ignored).
/// Results are in square order, goals left out; after a stop, only the solved squares.
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
