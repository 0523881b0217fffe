// The matching endgame on 7x7 regions of 30-45 squares, as the search meets it.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "rastros/board.hpp"
#include "rastros/matching_endgame.hpp"

namespace rastros {
namespace {

struct Endgame {
  Square snail;
  SquareMask region;
};

// Random connected regions of non-goal squares, grown square by square from a random snail.
std::vector<Endgame> random_endgames(const Board& board, int smallest, int largest, int n) {
  std::mt19937_64 rng(12345);
  std::uniform_int_distribution<int> pick_square(1, board.square_count() - 2);
  std::uniform_int_distribution<int> pick_size(smallest, largest);
  const SquareMask allowed = board.all_squares() & ~board.goals();
  std::vector<Endgame> endgames;
  while (static_cast<int>(endgames.size()) < n) {
    const Square snail = pick_square(rng);
    const int size = pick_size(rng);
    SquareMask region = 0;
    for (int added = 0; added < size; ++added) {
      const SquareMask frontier =
          board.dilate(region | bit(snail)) & allowed & ~region & ~bit(snail);
      if (frontier == 0) break;
      SquareMask rest = frontier;
      for (int skip = std::uniform_int_distribution<int>(0, count(frontier) - 1)(rng); skip > 0;
           --skip) {
        rest &= rest - 1;
      }
      region |= bit(lowest_square(rest));
    }
    if (count(region) >= smallest) endgames.push_back({snail, region});
  }
  return endgames;
}

void BM_GeographyMoverWins(benchmark::State& state) {
  const Board board(7, 7, static_cast<StepSet>(state.range(0)));
  const std::vector<Endgame> endgames = random_endgames(board, 30, 45, 1024);
  std::size_t i = 0;
  for (auto _ : state) {
    const Endgame& endgame = endgames[i++ & 1023];
    benchmark::DoNotOptimize(geography_mover_wins(board, endgame.snail, endgame.region));
  }
  state.SetLabel(board.steps() == StepSet::king ? "king" : "orthogonal");
}
BENCHMARK(BM_GeographyMoverWins)
    ->Arg(static_cast<int>(StepSet::king))
    ->Arg(static_cast<int>(StepSet::orthogonal));

void BM_MaximumMatchingSize(benchmark::State& state) {
  const Board board(7, 7, static_cast<StepSet>(state.range(0)));
  const std::vector<Endgame> endgames = random_endgames(board, 30, 45, 1024);
  std::size_t i = 0;
  for (auto _ : state) {
    const Endgame& endgame = endgames[i++ & 1023];
    benchmark::DoNotOptimize(maximum_matching_size(board, endgame.region | bit(endgame.snail)));
  }
  state.SetLabel(board.steps() == StepSet::king ? "king" : "orthogonal");
}
BENCHMARK(BM_MaximumMatchingSize)
    ->Arg(static_cast<int>(StepSet::king))
    ->Arg(static_cast<int>(StepSet::orthogonal));

}  // namespace
}  // namespace rastros
