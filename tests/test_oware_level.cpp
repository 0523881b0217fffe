// Oware's levels with generated edges (oware_level.hpp) against the level held in memory: the
// un-sowing finds exactly the parents the moves give, each as often as a move leads there,
// and both ways of holding a level give the same values and distances.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "games/oware/oware_database.hpp"
#include "games/oware/oware_level.hpp"

namespace rastros::oware::level_test {
namespace {

// The levels 0..max_seeds of `houses` houses, built as the database builds them.
LowerLevels levels_of(int houses, int max_seeds) {
  const OwareDatabase database = OwareDatabase::build(Oware(houses, 1), max_seeds);
  LowerLevels levels;
  for (int seeds = 0; seeds <= max_seeds; ++seeds) {
    std::vector<std::int8_t> level(Oware(houses, 1).level_size(seeds));
    for (std::uint64_t rank = 0; rank < level.size(); ++rank) {
      level[rank] = static_cast<std::int8_t>(database.score_at(seeds, rank));
    }
    levels.push_back(std::move(level));
  }
  return levels;
}

struct Shape {
  int houses;
  int max_seeds;
};

// Every board of small levels, with boards whose row is empty (feeding), laps past 2M - 1
// seeds (the skipped house) and grand slams among them.
const Shape kShapes[] = {{1, 6}, {2, 9}, {3, 8}, {4, 6}, {5, 5}, {6, 5}};

TEST(OwareLevel, UnSowingFindsEachMovesParentAsOftenAsTheMoveLeadsThere) {
  for (const Shape& shape : kShapes) {
    const Oware game(shape.houses, 1);
    const LowerLevels levels = levels_of(shape.houses, shape.max_seeds);
    for (int seeds = 0; seeds <= shape.max_seeds; ++seeds) {
      const LevelGraph graph = level_graph(game, seeds, levels);
      // The reverse edges of the stored graph, as sorted lists of parents.
      std::vector<std::vector<std::uint64_t>> expected(graph.size());
      for (std::uint64_t node = 0; node < graph.size(); ++node) {
        for (int j = 0; j < graph.child_count[node]; ++j) {
          expected[graph.children[node * graph.stride + j]].push_back(node);
        }
      }
      std::uint64_t edges = 0;
      for (std::uint64_t node = 0; node < graph.size(); ++node) {
        std::vector<std::uint64_t> found;
        const OwareState child = game.level_unrank(seeds, node);
        for_each_unmove(game, child, [&](const OwareState& parent) {
          ASSERT_EQ(game.seeds_in_play(parent), seeds);
          found.push_back(game.level_rank(parent));
        });
        std::sort(found.begin(), found.end());
        std::sort(expected[node].begin(), expected[node].end());
        ASSERT_EQ(found, expected[node]) << shape.houses << " houses, " << seeds
                                         << " seeds, rank " << node;
        edges += found.size();
      }
      if (seeds >= 2 && shape.houses >= 2) {
        EXPECT_GT(edges, 0u);
      }
    }
  }
}

TEST(OwareLevel, GeneratedEdgesGiveTheValuesAndDistancesOfTheStoredGraph) {
  for (const Shape& shape : kShapes) {
    const Oware game(shape.houses, 1);
    const LowerLevels levels = levels_of(shape.houses, shape.max_seeds);
    for (int seeds = 0; seeds <= shape.max_seeds; ++seeds) {
      std::vector<std::uint16_t> stored_distances;
      std::vector<std::uint16_t> generated_distances;
      const auto stored = solve_level(level_graph(game, seeds, levels), seeds, &stored_distances);
      const auto generated = solve_generated_level(game, seeds, levels, &generated_distances);
      ASSERT_EQ(generated, stored) << shape.houses << " houses, " << seeds << " seeds";
      ASSERT_EQ(generated_distances, stored_distances)
          << shape.houses << " houses, " << seeds << " seeds";
    }
  }
}

TEST(OwareLevel, ADatabaseBuiltWithNoMemoryForGraphsIsTheSameAndPassesVerify) {
  const Oware game(4, 1);
  BuildOptions generated;
  generated.level_memory = 0;
  const OwareDatabase stored = OwareDatabase::build(game, 8);
  const OwareDatabase built = OwareDatabase::build(game, 8, generated);
  for (int seeds = 0; seeds <= 8; ++seeds) {
    EXPECT_FALSE(level_graph_fits(game, seeds, 0));
    EXPECT_TRUE(level_graph_fits(game, seeds, kDefaultLevelMemory));
    for (std::uint64_t rank = 0; rank < game.level_size(seeds); ++rank) {
      ASSERT_EQ(built.score_at(seeds, rank), stored.score_at(seeds, rank)) << seeds << " seeds";
    }
  }
  EXPECT_EQ(built.verify(game), std::nullopt);
}

// The progress of a level's solve: threshold 0 first, then 1, 2, ... each with the boards whose
// value is at least that far from 0, both ways of holding the level, and through build().
TEST(OwareLevel, ProgressCountsTheBoardsWonOrLostByEachThreshold) {
  const Oware game(4, 1);
  const int max_seeds = 8;
  const LowerLevels levels = levels_of(4, max_seeds);
  std::vector<std::vector<std::pair<int, std::uint64_t>>> built(max_seeds + 1);
  BuildOptions options;
  options.level_progress = [&](int seeds, int threshold, std::uint64_t decided) {
    built.at(seeds).emplace_back(threshold, decided);
  };
  OwareDatabase::build(game, max_seeds, options);
  for (int seeds = 0; seeds <= max_seeds; ++seeds) {
    std::vector<std::pair<int, std::uint64_t>> expected{{0, 0}};
    for (int t = 1;; ++t) {
      const auto far = std::count_if(levels[seeds].begin(), levels[seeds].end(),
                                     [t](std::int8_t v) { return v >= t || v <= -t; });
      if (far == 0) break;
      expected.emplace_back(t, static_cast<std::uint64_t>(far));
    }
    for (const std::uint64_t memory : {kDefaultLevelMemory, std::uint64_t{0}}) {
      std::vector<std::pair<int, std::uint64_t>> told;
      solve_level_within(game, seeds, levels, memory, nullptr,
                         [&](int t, std::uint64_t decided) { told.emplace_back(t, decided); });
      EXPECT_EQ(told, expected) << seeds << " seeds, memory " << memory;
    }
    EXPECT_EQ(built[seeds], expected) << seeds << " seeds";
  }
}

// A move that laps (more seeds than the other 2M - 1 houses) skips its own house: un-sowing
// must not put seeds back there. Oware(2,·): 7 seeds from house 1 go round the other 3 houses
// twice, the 7th landing in the mover's house 2 (no capture).
TEST(OwareLevel, AMoveThatLapsIsUndone) {
  const Oware game(2, 1);
  OwareState before;
  before.houses = {7, 1, 0, 4};  // mover: 7, 1; opponent: 0, 4
  const OwarePlayed played = game.play(before, 0);
  ASSERT_EQ(played.gain, 0);
  int found = 0;
  for_each_unmove(game, played.next, [&](const OwareState& parent) { found += parent == before; });
  EXPECT_EQ(found, 1);
}

}  // namespace
}  // namespace rastros::oware::level_test
