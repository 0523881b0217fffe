// Congkak endgame databases by seeds (games/congkak/congkak_endgame.hpp): every record of
// small variants against the memoised minimax of the seed-by-seed reference rules
// (congkak_reference.hpp), and the solver with a database against the reference on random
// positions and on starts, score and every move's.

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "congkak_test_support.hpp"
#include "core/errors.hpp"
#include "games/congkak/congkak_analysis.hpp"
#include "games/congkak/congkak_endgame.hpp"

namespace {

namespace ref = congkak_reference;
using congkak_test::seeded;
using congkak_test::text;
using congkak_test::to_library;
using rastros::congkak::Congkak;
using rastros::congkak::CongkakEndgame;
using rastros::congkak::CongkakSolver;
using rastros::congkak::CongkakState;

// A library state (the side to move's houses first) as a reference position with empty
// stores and player 0 to move: its margin is then what the mover gains from here on.
ref::RefPosition reference_of(const ref::RefGame& rg, const CongkakState& state) {
  ref::RefPosition position;
  for (int side = 0; side < 2; ++side) {
    for (int i = 0; i < rg.houses; ++i) {
      position.pits[rg.house(side, i)] = state.houses[side * rg.houses + i];
    }
  }
  position.to_move = 0;
  return position;
}

void expect_every_record_matches(int houses, int seeds, int max_seeds) {
  const Congkak game(houses, seeds);
  const CongkakEndgame database = CongkakEndgame::build(game, max_seeds);
  ASSERT_EQ(database.max_seeds(), max_seeds);
  ASSERT_EQ(database.size(), CongkakEndgame::states_up_to(game, max_seeds));
  const ref::RefGame rg{houses, seeds};
  ref::RefMemoMinimax memo(rg);
  int nonzero = 0;
  for (int level = 0; level <= max_seeds; ++level) {
    for (std::uint64_t rank = 0; rank < game.level_size(level); ++rank) {
      const CongkakState state = game.level_unrank(level, rank);
      ASSERT_EQ(game.seeds_in_play(state), level);
      const int expected = memo.margin(reference_of(rg, state));
      ASSERT_EQ(database.score_at(level, rank), expected)
          << "Congkak(" << houses << "," << seeds << ") level " << level << " rank " << rank;
      ASSERT_EQ(database.probe(game, state), expected);
      nonzero += expected != 0;
    }
  }
  EXPECT_GT(nonzero, 0);  // not two tables of zeros
  EXPECT_EQ(database.probe(game, game.level_unrank(max_seeds + 1, 0)), std::nullopt);
}

TEST(CongkakEndgame, EveryRecordMatchesTheReferenceMinimax) {
  expect_every_record_matches(1, 6, 12);  // every state of Congkak(1,6)
  expect_every_record_matches(2, 4, 12);  // 1,820 states
  expect_every_record_matches(3, 4, 10);  // 8,008 states
  expect_every_record_matches(4, 3, 8);   // 12,870 states
}

TEST(CongkakEndgame, OutOfRangeSeedsAreRefused) {
  const Congkak game(2, 2);
  EXPECT_THROW(CongkakEndgame::build(game, -1), rastros::InputError);
  EXPECT_THROW(CongkakEndgame::build(game, 9), rastros::InputError);
  EXPECT_EQ(CongkakEndgame::seeds_within(game, 1'000'000), 8);  // the whole game fits
  EXPECT_EQ(CongkakEndgame::seeds_within(Congkak(6, 4), 2u << 20), 11);
}

// The solver with a database answers as the reference does, the position and every move,
// with the database holding the position itself or only what lies below it.
TEST(CongkakEndgame, TheSolverWithADatabaseAgreesWithTheReference) {
  std::mt19937_64 random(seeded(9091));
  int reported = 0;
  for (int houses = 2; houses <= 6; ++houses) {
    const ref::RefGame rg{houses, 4};
    const Congkak game(houses, 4);
    const CongkakEndgame database = CongkakEndgame::build(game, houses <= 4 ? 8 : 5);
    ref::RefMemoMinimax memo(rg);
    for (int trial = 0; trial < 25; ++trial) {
      const int in_houses = std::uniform_int_distribution<int>(1, houses <= 4 ? 12 : 9)(random);
      const ref::RefPosition position = ref::ref_random(rg, in_houses, random);
      const auto lib = to_library(rg, position);
      CongkakSolver solver(game, {std::size_t{1} << 20}, &database);
      const auto result = solver.solve(lib);
      std::string error;
      if (result.score != memo.margin(position)) {
        error = text(game, lib) + ": solver " + std::to_string(result.score.value_or(-999)) +
                ", reference " + std::to_string(memo.margin(position));
      }
      for (const auto& child : result.children) {
        const ref::RefPosition next = ref::ref_play(rg, position, child.move);
        const int after = memo.margin(next);
        const int mine = next.to_move == position.to_move ? after : -after;
        if (error.empty() && child.score != mine) {
          error = text(game, lib) + " move " + std::to_string(child.move + 1) + ": solver " +
                  std::to_string(child.score.value_or(-999)) + ", reference " +
                  std::to_string(mine);
        }
      }
      if (!error.empty() && reported++ < 10) ADD_FAILURE() << error;
    }
  }
}

// From the start, the database changes the nodes searched but not the answer.
TEST(CongkakEndgame, StartsSolveTheSameWithAndWithoutADatabase) {
  for (const auto& [houses, seeds] : {std::pair{4, 3}, std::pair{4, 4}, std::pair{5, 3}}) {
    const Congkak game(houses, seeds);
    const CongkakEndgame database = CongkakEndgame::build(game, 10);
    const auto start = rastros::mancala::start_position(game.board());
    CongkakSolver plain(game, {std::size_t{4} << 20});
    CongkakSolver helped(game, {std::size_t{4} << 20}, &database);
    const auto without = plain.solve(start);
    const auto with = helped.solve(start);
    EXPECT_EQ(with.score, without.score) << game.name();
    ASSERT_EQ(with.children.size(), without.children.size());
    for (std::size_t i = 0; i < with.children.size(); ++i) {
      EXPECT_EQ(with.children[i].score, without.children[i].score) << game.name() << " move " << i;
    }
    EXPECT_LT(helped.nodes(), plain.nodes()) << game.name();
  }
}

}  // namespace
