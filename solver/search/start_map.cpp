#include "search/start_map.hpp"

#include "core/thread_sanitizer.hpp"

#include <oneapi/tbb/parallel_for_each.h>

namespace rastros {

std::vector<StartSquareOutcome> solve_start_map(const Rastros& rastros, Solver& solver) {
  const Board& board = rastros.board();
  std::vector<StartSquareOutcome> results;
  for (Square square = 0; square < board.square_count(); ++square) {
    if (!board.is_goal(square)) results.push_back({square, {}});
  }
  oneapi::tbb::parallel_for_each(
      results.begin(), results.end(),
      thread_sanitizer::handed_off([&](StartSquareOutcome& result) {
        const Rastros variant(board, result.start, rastros.stuck_rule());
        result.outcome = solver.solve(variant.start_position());
        thread_sanitizer::publish(&results);
      }));
  thread_sanitizer::acquire(&results);
  return results;
}

}  // namespace rastros
