// The exact Reversi solver against plain minimax written from the rules (reversi_reference.hpp)
// on 4×4 from the start and on random 6×6 and 8×8 positions with few empties; against the
// generic engine solver; one thread against two; and on positions of the FFO endgame suite
// with their published scores.

#include <gtest/gtest.h>
#include <oneapi/tbb/global_control.h>

#include <fstream>
#include <random>
#include <sstream>

#include "engine/score_solver.hpp"
#include "games/reversi/reversi.hpp"
#include "games/reversi/reversi_position.hpp"
#include "games/reversi/reversi_solver.hpp"
#include "reversi_reference.hpp"
#include "sample_scale.hpp"

namespace rastros::reversi {
namespace {

constexpr ReversiSolverOptions kSmallTable{std::size_t{4} << 20};

TEST(ReversiSolver, FourByFourFromTheStartMatchesMinimax) {
  const Reversi game(4);
  const int expected = reference::minimax(reference::from_state(game.start(), 4));
  ReversiSolver solver(game, kSmallTable);
  EXPECT_EQ(solver.score(game.start()), expected);
  // Every move's score too, each against minimax.
  for (const auto& [move, score] : solver.analyse(game.start())) {
    const auto next = game.play(game.start(), move).next;
    EXPECT_EQ(score, -reference::minimax(reference::from_state(next, 4))) << move_name(move);
  }
}

TEST(ReversiSolver, FourByFourAgreesWithTheGenericEngineSolver) {
  const Reversi game(4);
  engine::ScoreSolver<Reversi> generic(game);
  ReversiSolver solver(game, kSmallTable);
  EXPECT_EQ(solver.score(game.start()), generic.score(game.start()));
}

void check_random(int n, int empties, int count, std::uint64_t seed) {
  const Reversi game(n);
  std::mt19937_64 random(seed);
  ReversiSolver solver(game, kSmallTable);
  for (int i = 0; i < rastros::testing_scale::samples(count); ++i) {
    const ReversiState state = reference::random_game_state(random, game, empties);
    const int expected = reference::minimax(reference::from_state(state, n));
    ASSERT_EQ(solver.score(state), expected) << i;
    const Value value = solver.value(state);
    EXPECT_EQ(value, expected > 0 ? Value::win : expected < 0 ? Value::loss : Value::draw);
  }
}

TEST(ReversiSolver, RandomSixBySixPositionsMatchMinimax) { check_random(6, 9, 30, 6); }
TEST(ReversiSolver, RandomEightByEightPositionsMatchMinimax) { check_random(8, 9, 12, 8); }
TEST(ReversiSolver, RandomPositionsWithFewEmptiesMatchMinimax) {
  for (int empties = 1; empties <= 8; ++empties) check_random(8, empties, 40, 100 + empties);
}

// The few-empties search (last_two, the count-only last move, the neighbour filter) at every
// window: a fail-soft result must be exact inside the window and a true bound outside it.
TEST(ReversiSolver, FewEmptiesSearchIsFailSoftCorrectAtEveryWindow) {
  const Reversi game(8);
  const Quadrants quadrants = Quadrants::of(game.geometry());
  std::mt19937_64 random(2024);
  for (int i = 0; i < 60; ++i) {
    const int empties = 2 + i % 4;
    const ReversiState state = i % 2 ? reference::random_game_state(random, game, empties)
                                     : reference::random_state(random, 8, empties / 64.0);
    const int left = count(game.geometry().inside & ~(state.mine | state.theirs));
    const int exact = reference::minimax(reference::from_state(state, 8));
    for (int alpha = -66; alpha <= 64; alpha += 2) {
      const int beta = alpha + 2;
      std::uint64_t nodes = 0;
      const int got = search_few(state.mine, state.theirs, alpha, beta, left, game.geometry(),
                                 quadrants, nodes);
      if (exact <= alpha) {
        ASSERT_LE(exact, got) << i << " " << alpha;
        ASSERT_LE(got, alpha) << i << " " << alpha;
      } else if (exact >= beta) {
        ASSERT_GE(exact, got) << i << " " << alpha;
        ASSERT_GE(got, beta) << i << " " << alpha;
      } else {
        ASSERT_EQ(got, exact) << i << " " << alpha;
      }
    }
  }
}

// Random board fillings reach positions no game does (passes, enclosed empties, early ends).
TEST(ReversiSolver, RandomFillingsMatchMinimax) {
  const Reversi game(8);
  std::mt19937_64 random(77);
  ReversiSolver solver(game, kSmallTable);
  for (int i = 0; i < 40; ++i) {
    const ReversiState state = reference::random_state(random, 8, 0.05);
    ASSERT_EQ(solver.score(state), reference::minimax(reference::from_state(state, 8))) << i;
  }
}

TEST(ReversiSolver, SixBySixAgreesWithTheGenericEngineSolverAtFourteenEmpties) {
  const Reversi game(6);
  std::mt19937_64 random(36);
  engine::ScoreSolver<Reversi> generic(game);
  ReversiSolver solver(game, kSmallTable);
  for (int i = 0; i < 10; ++i) {
    const ReversiState state = reference::random_game_state(random, game, 14);
    EXPECT_EQ(solver.score(state), generic.score(state)) << i;
  }
}

TEST(ReversiSolver, OneAndTwoThreadsAgree) {
  const Reversi game(8);
  std::mt19937_64 random(12);
  for (int i = 0; i < 6; ++i) {
    const ReversiState state = reference::random_game_state(random, game, 16);
    int one, two;
    {
      const oneapi::tbb::global_control limit(oneapi::tbb::global_control::max_allowed_parallelism, 1);
      ReversiSolver solver(game, kSmallTable);
      one = solver.score(state);
    }
    {
      const oneapi::tbb::global_control limit(oneapi::tbb::global_control::max_allowed_parallelism, 2);
      ReversiSolver solver(game, {std::size_t{4} << 20, 8, 8});
      two = solver.score(state);
      EXPECT_EQ(solver.value(state), one > 0 ? Value::win : one < 0 ? Value::loss : Value::draw);
    }
    EXPECT_EQ(one, two) << i;
  }
}

TEST(ReversiSolver, StopThrowsSearchStopped) {
  const Reversi game(8);
  ReversiSolver solver(game, kSmallTable);
  solver.stop();
  EXPECT_THROW(solver.score(game.start()), engine::SearchStopped);
}

// FFO endgame suite (data/reversi/ffo_40_59.txt, from the published fforum-40-59 file): solve
// positions a few moves into the cheapest ones by playing the published best move(s) and
// check the published score, which best play keeps.
struct Ffo {
  int number;
  std::string position;
  int score;
  std::string best;
};

std::vector<Ffo> load_ffo() {
  std::ifstream in(std::string(RASTROS_DATA_DIR) + "/reversi/ffo_40_59.txt");
  std::vector<Ffo> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    Ffo ffo;
    std::string board, side;
    words >> ffo.number >> board >> side >> ffo.score >> ffo.best;
    ffo.position = board + " " + side;
    out.push_back(ffo);
  }
  return out;
}

TEST(ReversiSolver, FfoPositionsSolveToTheirPublishedScores) {
  const auto suite = load_ffo();
  ASSERT_EQ(suite.size(), 20u);
  const Reversi game(8);
  ReversiSolver solver(game, {std::size_t{16} << 20});
  for (const int number : {40, 41}) {
    const Ffo& ffo = suite[number - 40];
    const ReversiPosition position = parse_position(game, ffo.position);
    const ReversiMove best = parse_move(game, ffo.best.substr(0, 2));
    EXPECT_EQ(-solver.score(game.play(search_state(position), best).next), ffo.score) << number;
  }
}

}  // namespace
}  // namespace rastros::reversi
