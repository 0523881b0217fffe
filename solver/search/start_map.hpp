#pragma once
// The value of every start square of a board: player 1 moving first from each square that is
// not a goal. Squares are solved in parallel (TBB), sharing one solver and its table.

#include <vector>

#include "search/solver.hpp"

namespace rastros {

struct StartSquareOutcome {
  Square start = 0;
  Outcome outcome;
};

/// `solver` must be built for the same board and rules as `rastros` (its start is ignored).
/// Results are in square order, goals left out.
std::vector<StartSquareOutcome> solve_start_map(const Rastros& rastros, Solver& solver);

}  // namespace rastros
