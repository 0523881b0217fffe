#pragma once
// What `rastros solve` was asked (tools/command_solve.cpp parses it) and the jobs it hands
// over to: one position's search (command_solve_position.cpp), a strong database
// (command_solve_strong.cpp), a strategy or proof database (command_solve_walk.cpp).

#include <optional>
#include <string>

#include "options.hpp"
#include "search/solver.hpp"

namespace rastros::tools {

/// Where the output goes and how loud the run is.
struct SolveOutput {
  bool quiet = false;  // no progress lines on stderr
  bool json = false;   // one JSON object on stdout
};

/// `solve --db FILE`: a database of the whole game.
struct DatabaseRequest {
  std::string path;
  std::string kind;
  std::optional<int> book_depth;    // strategy databases only
  std::optional<int> leaf_squares;  // proof databases only
  std::string memory;               // --memory: the build's limit; empty when not given
  std::string checkpoint;           // --checkpoint DIR
  bool resume = false;              // --resume
};

/// The search aids --no-* switch off (all on by default).
struct SearchAidsOff {
  bool region = false;
  bool symmetry = false;
  bool matching = false;
  bool pockets = false;
  bool goal_pockets = false;
  bool move_memory = false;
  bool lost_move_rule = false;
  bool trap_rule = false;

  bool any() const {
    return region || symmetry || matching || pockets || goal_pockets || move_memory ||
           lost_move_rule || trap_rule;
  }
};

/// `solve` without --db: one position's value and its moves'.
struct PositionRequest {
  VariantOptions variant;
  PositionOptions where;
  std::string memory;  // --memory: the table; empty when not given
  bool value_only = false;
  bool root_only = false;
  SearchAidsOff off;
  std::string algorithm = "alpha-beta";
  std::string checkpoint;  // --checkpoint DIR (df-pn searches)
  bool resume = false;
  double checkpoint_every = 600;  // seconds between df-pn saves
  bool checkpoint_every_given = false;
};

/// Longest --checkpoint-every, in seconds (a year: beyond any run, and far from overflowing
/// the clock's duration type).
inline constexpr double kMaxCheckpointEvery = 365.0 * 24 * 3600;

/// Solves the position and prints the analysis. Returns the exit status.
int solve_position(const PositionRequest& request, int threads, const SolveOutput& output);

/// Builds the strong database of `variant` into request.path. Returns the exit status.
int build_strong_database(const VariantOptions& variant, const DatabaseRequest& request,
                          int threads, const SolveOutput& output);

/// Builds the strategy or proof database (request.kind) of `variant`. Returns the exit status.
int build_walk_database(const VariantOptions& variant, const DatabaseRequest& request,
                        int threads, const SolveOutput& output);

}  // namespace rastros::tools
