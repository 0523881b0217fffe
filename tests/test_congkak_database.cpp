// The strong databases of small Congkak variants (games/congkak/congkak_database.hpp) against
// the rules alone: the reachable positions counted again by a walk over the seed-by-seed
// reference (congkak_reference.hpp), every answer against its memoised minimax; verify
// catching a changed or missing record; damaged and foreign files refused.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "congkak_test_support.hpp"
#include "core/errors.hpp"
#include "games/congkak/congkak_database.hpp"
#include "games/congkak/congkak_position.hpp"

namespace rastros::congkak {
namespace {

using congkak_reference::RefGame;
using congkak_reference::RefPosition;

/// A reference position as the side to move sees it, stores dropped: what a record keys on.
std::vector<int> mover_view(const RefGame& game, const RefPosition& position) {
  std::vector<int> houses;
  for (int side = 0; side < 2; ++side) {
    const int player = side == 0 ? position.to_move : 1 - position.to_move;
    for (int i = 0; i < game.houses; ++i) houses.push_back(position.pits[game.house(player, i)]);
  }
  return houses;
}

/// How many distinct records the reference rules reach from the start, ended positions included.
std::size_t reference_reachable(const RefGame& game) {
  std::set<std::vector<int>> seen;
  std::vector<RefPosition> stack{congkak_reference::ref_start(game)};
  while (!stack.empty()) {
    const RefPosition position = stack.back();
    stack.pop_back();
    if (!seen.insert(mover_view(game, position)).second) continue;
    for (const int move : congkak_reference::ref_moves(game, position)) {
      stack.push_back(congkak_reference::ref_play(game, position, move));
    }
  }
  return seen.size();
}

const engine::ScoreRecords& built(int houses, int seeds) {
  static std::map<std::pair<int, int>, engine::ScoreRecords> cache;
  const auto key = std::make_pair(houses, seeds);
  if (!cache.contains(key)) cache.emplace(key, build_congkak_database(Congkak(houses, seeds)));
  return cache.at(key);
}

std::filesystem::path temporary(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("rastros_test_" + name);
}

class CongkakDatabaseVariants : public ::testing::TestWithParam<std::pair<int, int>> {};

TEST_P(CongkakDatabaseVariants, HoldsExactlyThePositionsTheRulesReach) {
  const auto [houses, seeds] = GetParam();
  EXPECT_EQ(built(houses, seeds).keys.size(), reference_reachable({houses, seeds}));
}

// Random games by the reference rules: at every position, the answer (score, each move's score,
// best moves) is the memoised minimax of the reference, stores included.
TEST_P(CongkakDatabaseVariants, EveryAnswerIsTheMinimaxOfTheRules) {
  const auto [houses, seeds] = GetParam();
  const RefGame reference{houses, seeds};
  const Congkak game(houses, seeds);
  congkak_reference::RefMemoMinimax minimax(reference);
  std::mt19937_64 random(congkak_test::seeded(391));
  for (int trial = 0; trial < 40; ++trial) {
    RefPosition position = congkak_reference::ref_start(reference);
    while (true) {
      const CongkakPosition library = congkak_test::to_library(reference, position);
      const auto answer = query_congkak_database(game, built(houses, seeds), library, false);
      ASSERT_TRUE(answer.has_value()) << congkak_test::text(game, library);
      ASSERT_EQ(answer->score, minimax.margin(position)) << congkak_test::text(game, library);
      const auto moves = congkak_reference::ref_moves(reference, position);
      ASSERT_EQ(answer->children.size(), moves.size());
      for (std::size_t i = 0; i < moves.size(); ++i) {
        const RefPosition next = congkak_reference::ref_play(reference, position, moves[i]);
        const int margin = minimax.margin(next);
        EXPECT_EQ(answer->children[i].score, next.to_move == position.to_move ? margin : -margin)
            << congkak_test::text(game, library) << " move " << i;
      }
      if (moves.empty()) break;
      position = congkak_reference::ref_play(reference, position, moves[random() % moves.size()]);
    }
  }
}

TEST_P(CongkakDatabaseVariants, VerifyPassesAndCatchesAChangedOrMissingRecord) {
  const auto [houses, seeds] = GetParam();
  const Congkak game(houses, seeds);
  const engine::ScoreRecords& records = built(houses, seeds);
  EXPECT_FALSE(verify_congkak_database(game, records).has_value());
  engine::ScoreRecords changed = records;
  changed.scores[changed.scores.size() / 3] += 1;
  EXPECT_TRUE(verify_congkak_database(game, changed).has_value());
  engine::ScoreRecords missing = records;
  missing.keys.erase(missing.keys.begin() + 1);
  missing.scores.erase(missing.scores.begin() + 1);
  const auto problem = verify_congkak_database(game, missing);
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find("not in the file"), std::string::npos) << *problem;
}

INSTANTIATE_TEST_SUITE_P(Small, CongkakDatabaseVariants,
                         ::testing::Values(std::pair{2, 2}, std::pair{2, 3}, std::pair{3, 2},
                                           std::pair{3, 3}, std::pair{4, 2}),
                         [](const auto& info) {
                           return "M" + std::to_string(info.param.first) + "N" +
                                  std::to_string(info.param.second);
                         });

TEST(CongkakDatabase, CountsAddUpToEveryRecord) {
  const Congkak game(3, 3);
  std::uint64_t total = 0;
  for (const auto& counts : count_congkak_database(game, built(3, 3))) {
    for (const auto& [score, states] : counts.by_score) total += states;
  }
  EXPECT_EQ(total, built(3, 3).keys.size());
}

TEST(CongkakDatabase, FileRoundTripAndDamagedOrForeignFilesRefused) {
  const Congkak game(3, 3);
  const auto path = temporary("congkak33.rsdb");
  save_congkak_database(path, game, built(3, 3));
  const engine::ScoreRecords loaded = load_congkak_database(path, game);
  EXPECT_EQ(loaded.keys, built(3, 3).keys);
  EXPECT_EQ(loaded.scores, built(3, 3).scores);
  EXPECT_THROW(load_congkak_database(path, Congkak(3, 2)), FileError);
  EXPECT_THROW(load_congkak_database(path, Congkak(2, 3)), FileError);

  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  for (const std::size_t at : {std::size_t{20}, bytes.size() / 2, bytes.size() - 1}) {
    std::string damaged = bytes;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x40);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << damaged;
    EXPECT_THROW(load_congkak_database(path, game), FileError) << "byte " << at;
  }
  std::filesystem::remove(path);
}

TEST(CongkakDatabase, AVariantTooBigForItsMemoryBudgetIsRefused) {
  const Congkak game(3, 3);
  const std::uint64_t positions = built(3, 3).keys.size();
  const std::uint64_t exact = positions * engine::kWalkBytesPerState;
  EXPECT_EQ(build_congkak_database(game, {}, exact).keys.size(), positions);
  EXPECT_THROW(build_congkak_database(game, {}, exact - 1), InputError);
  EXPECT_THROW(build_congkak_database(game, {}, 100 * engine::kWalkBytesPerState), InputError);
}

}  // namespace
}  // namespace rastros::congkak
