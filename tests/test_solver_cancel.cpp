// Cancelling a search: SearchCancellation::stop and ::deadline make Solver::solve and
// Solver::analyse give up with SearchCancelled, promptly, and leave uncancelled results alone.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "rastros/notation.hpp"
#include "rastros/rastros.hpp"
#include "search/proof_number_search.hpp"
#include "search/solver.hpp"
#include "search/start_map.hpp"

namespace rastros {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point started) {
  return std::chrono::duration<double>(Clock::now() - started).count();
}

// The 7x7 start with remoteness takes many seconds: far longer than any budget below.
Rastros standard() {
  return Rastros(parse_board("7x7"));
}

TEST(SolverCancel, PastDeadlineThrowsAtOnce) {
  SearchCancellation options;
  options.deadline = Clock::now();
  Solver solver(standard(), {}, options);
  const auto started = Clock::now();
  EXPECT_THROW(solver.solve(standard().start_position()), SearchCancelled);
  EXPECT_LT(seconds_since(started), 1.0);
}

TEST(SolverCancel, DeadlineStopsAnalyse) {
  SearchCancellation options;
  options.deadline = Clock::now() + std::chrono::milliseconds(200);
  Solver solver(standard(), {}, options);
  const auto started = Clock::now();
  EXPECT_THROW(solver.analyse(standard().start_position()), SearchCancelled);
  EXPECT_LT(seconds_since(started), 2.0);
}

TEST(SolverCancel, StopFlagFromAnotherThread) {
  std::atomic<bool> stop{false};
  SearchCancellation options;
  options.stop = &stop;
  Solver solver(standard(), {}, options);
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    stop.store(true);
  });
  const auto started = Clock::now();
  EXPECT_THROW(solver.analyse(standard().start_position()), SearchCancelled);
  stopper.join();
  EXPECT_LT(seconds_since(started), 2.0);
  // A cancelled solver stays cancelled, even on a position it could answer quickly.
  EXPECT_THROW(solver.solve(parse_game(standard(), "c3 b2").position), SearchCancelled);
}

TEST(SolverCancel, StartMapPassesTheExceptionOn) {
  SearchCancellation options;
  options.deadline = Clock::now() + std::chrono::milliseconds(100);
  Solver solver(standard(), {}, options);
  const auto started = Clock::now();
  EXPECT_THROW(solve_start_map(standard(), solver), SearchCancelled);
  EXPECT_LT(seconds_since(started), 2.0);
}

// The squares' own solvers count while they exist (the map's progress line reads them as the
// squares search, not only once they end), and keep counting after.
TEST(SolverCancel, SquareSolverNodesCountsSolversInProgress) {
  const Rastros game(parse_board("5x5"));
  SquareSolverNodes nodes;
  std::uint64_t first = 0;
  {
    Solver solver(game, {});
    const SquareSolverNodes::Counting counting(&nodes, solver);
    EXPECT_EQ(nodes.total(), 0u);
    solver.solve(game.start_position());
    first = solver.nodes();
    EXPECT_GT(first, 0u);
    EXPECT_EQ(nodes.total(), first);  // still searching, as far as the count knows
  }
  EXPECT_EQ(nodes.total(), first);
  {
    Solver solver(game, {});
    const SquareSolverNodes::Counting counting(&nodes, solver);
    solver.solve(game.start_position());
    EXPECT_EQ(nodes.total(), first + solver.nodes());
  }
  EXPECT_GT(nodes.total(), first);
}

/// The squares of `results` over budget; every other square must agree with `expected` (the
/// same squares, in the same order).
int squares_over_budget(const Board& board, const std::vector<StartSquareOutcome>& results,
                        const std::vector<StartSquareOutcome>& expected, const std::string& what) {
  int over = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(results[i].start, expected[i].start);
    if (results[i].over_budget) {
      ++over;
    } else {
      EXPECT_EQ(results[i].outcome, expected[i].outcome)
          << what << " " << square_name(board, results[i].start);
    }
  }
  return over;
}

// A per-square budget: squares solved within it agree with the unbudgeted map, squares over it
// are flagged and not reported as solved, and the map goes on past them.
TEST(SolverCancel, StartMapSquareBudget) {
  const Rastros game(parse_board("6x6"));
  Solver shared(game, {});
  const std::vector<StartSquareOutcome> expected = solve_start_map(game, shared);

  for (const double seconds : {1e-9, 3600.0}) {
    Solver unused(game, {});
    SquareSolverNodes nodes;
    StartMapControl control;
    control.square_budget = std::chrono::duration<double>(seconds);
    control.budget_nodes = &nodes;
    std::atomic<int> reported{0};
    control.on_solved = [&](const StartSquareOutcome& result) {
      EXPECT_FALSE(result.over_budget);
      ++reported;
    };
    const std::vector<StartSquareOutcome> results = solve_start_map(game, unused, control);
    ASSERT_EQ(results.size(), expected.size()) << seconds;
    const int over = squares_over_budget(game.board(), results, expected, "");
    EXPECT_EQ(reported.load() + over, static_cast<int>(results.size()));
    EXPECT_EQ(unused.nodes(), 0u);  // each square had its own solver
    if (seconds < 1) {
      EXPECT_GT(over, 0);  // the central squares take far more than a nanosecond
    } else {
      EXPECT_EQ(over, 0);
      EXPECT_GT(nodes.total(), 0u);
    }
  }
}

// A proof-number map is a second, independent method: it must agree with the alpha-beta map on
// every square, under both rule sets, and with a budget it flags squares instead of guessing.
TEST(SolverCancel, ProofNumberMapAgreesWithAlphaBeta) {
  for (const char* rules : {"standard", "stuck-draw"}) {
    const Rastros game(parse_board("6x5"), 1, parse_rules(rules));
    SolverOptions options;
    options.value_only = true;
    Solver alpha_beta(game, options);
    const std::vector<StartSquareOutcome> expected = solve_start_map(game, alpha_beta);
    for (const double seconds : {0.0, 1e-9}) {
      Solver unused(game, options);
      SquareSolverNodes nodes;
      StartMapControl control;
      control.algorithm = MapAlgorithm::proof_number;
      control.budget_nodes = &nodes;
      std::atomic<int> given_up{0};
      control.on_over_budget = [&](const StartSquareOutcome& result) {
        EXPECT_TRUE(result.over_budget);
        ++given_up;
      };
      if (seconds > 0) control.square_budget = std::chrono::duration<double>(seconds);
      const std::vector<StartSquareOutcome> results = solve_start_map(game, unused, control);
      ASSERT_EQ(results.size(), expected.size());
      const int over = squares_over_budget(game.board(), results, expected, rules);
      EXPECT_EQ(unused.nodes(), 0u);  // the squares were searched by proof numbers
      if (seconds > 0) {
        EXPECT_GT(over, 0) << rules;  // the central squares take far more than a nanosecond
        EXPECT_GT(given_up.load(), 0);
        EXPECT_LE(given_up.load(), over);  // one call a symmetry class
      } else {
        EXPECT_EQ(over, 0) << rules;
        EXPECT_EQ(given_up.load(), 0);
        EXPECT_GT(nodes.total(), 0u);
      }
    }
  }
}

TEST(SolverCancel, ProofNumberDeadlineStops) {
  ProofNumberSearch search(standard(), 1 << 20);
  ProofSearchControl control;
  control.deadline = Clock::now();
  search.set_control(control);
  const Clock::time_point started = Clock::now();
  EXPECT_THROW(search.solve(standard().start_position()), SearchStopped);
  EXPECT_LT(seconds_since(started), 1.0);
}

TEST(SolverCancel, UnraisedCancellationChangesNothing) {
  const Rastros game(parse_board("5x5"));
  std::atomic<bool> stop{false};
  SearchCancellation cancellable;
  cancellable.stop = &stop;
  cancellable.deadline = Clock::now() + std::chrono::hours(1);
  Solver plain(game, {});
  Solver watched(game, {}, cancellable);
  for (const char* moves : {"", "b2", "c2 d3", "b3 b4 c4"}) {
    const Position position = parse_game(game, moves).position;
    const Analysis expected = plain.analyse(position);
    const Analysis actual = watched.analyse(position);
    EXPECT_EQ(actual.outcome, expected.outcome) << moves;
    EXPECT_EQ(actual.best_moves, expected.best_moves) << moves;
    ASSERT_EQ(actual.children.size(), expected.children.size()) << moves;
    for (std::size_t i = 0; i < actual.children.size(); ++i) {
      EXPECT_EQ(actual.children[i].move, expected.children[i].move) << moves;
      EXPECT_EQ(actual.children[i].outcome, expected.children[i].outcome) << moves;
    }
  }
}

}  // namespace
}  // namespace rastros
