#pragma once
// Strategy databases: enough of a board too large for a strong database (7x7 and up) to play
// perfectly from the start and to answer every reply of the losing side.
//
// Held positions: every position reachable from the start when the side that wins plays its
// stored move and the side that loses (or cannot do better than draw) plays any legal move,
// plus every position within `book_depth` plies of the start for both sides. Each record is the
// position's exact outcome (value and remoteness) and best move in the key's frame, computed
// from its children's exact outcomes by the live Solver, so records are consistent with their
// stored children exactly as db/verify.hpp checks.

#include <functional>
#include <string>

#include "db/database_file.hpp"
#include "db/walk_checkpoint.hpp"
#include "rastros/rastros.hpp"
#include "search/solver.hpp"

namespace rastros {

/// Builds the strategy database of `rastros` from its start. `solver` must play the same game
/// and compute remoteness (not value_only); it is called concurrently, and its table is shared
/// across the whole build, which is what makes solving each stored position's children cheap.
/// `progress`, when set, gets one line per ply of the breadth-first expansion.
Database build_strategy_database(const Rastros& rastros, int book_depth, Solver& solver,
                                 const std::function<void(const std::string&)>& progress = {},
                                 WalkCheckpoint checkpoint = {});

}  // namespace rastros
