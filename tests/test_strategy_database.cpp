// Strategy databases: on 5x5 and 6x6 (book depths 0 and 2) the built database passes
// verify_database, its records agree with the live solver, every position of random games in
// which the loser plays any legal move and the winner the stored move is answered without
// search, and every position within the book depth is stored. The shipped 7x7 file answers the
// same kind of games. Also Canonicalizer::from_key_frame, which maps stored moves back.

#include <gtest/gtest.h>

#include <chrono>
#include <deque>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <utility>

#include "db/database_query.hpp"
#include "db/strategy_database.hpp"
#include "db/strong_database.hpp"
#include "db/verify.hpp"
#include "rastros/canonical.hpp"
#include "search/solver.hpp"

namespace rastros {
namespace {

namespace fs = std::filesystem;

// Built once per (board, book depth): each build solves every child of every stored position.
const Database& strategy(int size, int book_depth) {
  static std::map<std::pair<int, int>, Database> cache;
  auto found = cache.find({size, book_depth});
  if (found != cache.end()) return found->second;
  const Rastros game(Board(size, size));
  Solver solver(game);
  return cache
      .emplace(std::pair{size, book_depth}, build_strategy_database(game, book_depth, solver))
      .first->second;
}

Square random_move(const Rastros& game, const Position& position, std::mt19937& random) {
  std::vector<Square> moves;
  for (Square move : game.legal_moves(position)) moves.push_back(move);
  return moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(random)];
}

// Plays `games` games from the start: the side that wins plays the answer's best move, the
// other side a random legal move. Every position must be answered from the database alone, the
// best move must be legal, and playing it must keep the promised outcome.
void play_random_games(const Database& database, int games, unsigned seed) {
  const DatabaseQuery query(database);
  const Rastros& game = query.game();
  std::mt19937 random(seed);
  int answered = 0;
  for (int g = 0; g < games; ++g) {
    Position position = game.start_position();
    while (!game.has_ended(position)) {
      const std::optional<DatabaseAnswer> answer = query.answer(position);
      ASSERT_TRUE(answer) << "not answered: " << g;
      ASSERT_FALSE(answer->best_moves.empty());
      Square move;
      if (answer->outcome.value == Value::win) {
        move = answer->best_moves.front();
        ASSERT_TRUE(game.is_legal(position, move));
        const std::optional<Outcome> child = query.lookup(game.play(position, move));
        ASSERT_TRUE(child);
        EXPECT_EQ(parent_score(score_of(*child)), score_of(answer->outcome));
      } else {
        // The loser's every move is known.
        ASSERT_EQ(answer->children.size(),
                  static_cast<std::size_t>(count(game.move_mask(position))));
        move = random_move(game, position, random);
      }
      position = game.play(position, move);
      ++answered;
    }
  }
  // Every game lasts at least one move from each side.
  EXPECT_GE(answered, 2 * games);
}

Outcome outcome_of(const DatabaseRecord& record) {
  if (record.value == Value::draw) return {Value::draw, std::nullopt};
  return {record.value, record.remoteness};
}

class StrategyDatabaseTest : public testing::TestWithParam<std::pair<int, int>> {};

TEST_P(StrategyDatabaseTest, PassesVerification) {
  const auto [size, book_depth] = GetParam();
  const Database& database = strategy(size, book_depth);
  EXPECT_EQ(database.header().kind, DatabaseKind::strategy);
  EXPECT_EQ(database.header().book_depth, book_depth);
  const VerificationReport report = verify_database(database);
  EXPECT_TRUE(report.ok()) << (report.failures.empty() ? std::string()
                                                       : report.failures.front().description);
  EXPECT_EQ(report.checked, database.size());
}

TEST_P(StrategyDatabaseTest, RecordsAgreeWithTheSolver) {
  const auto [size, book_depth] = GetParam();
  const Database& database = strategy(size, book_depth);
  Solver solver(Rastros(Board(size, size)));
  // Every record on 5x5; a spread sample on 6x6 keeps the test quick.
  const std::size_t stride = std::max<std::size_t>(1, database.size() / 3000);
  for (std::size_t i = 0; i < database.size(); i += stride) {
    const Position position = Canonicalizer::unpack(database.keys()[i]);
    ASSERT_EQ(solver.solve(position), outcome_of(database.records()[i])) << i;
  }
}

TEST_P(StrategyDatabaseTest, AnswersRandomGamesWithoutSearch) {
  const auto [size, book_depth] = GetParam();
  play_random_games(strategy(size, book_depth), 200, 17u + static_cast<unsigned>(size));
}

TEST_P(StrategyDatabaseTest, StoresEveryPositionOfTheBook) {
  const auto [size, book_depth] = GetParam();
  const Database& database = strategy(size, book_depth);
  const Rastros game(Board(size, size));
  const Canonicalizer canonicalizer(game.board());
  std::vector<Position> level{game.start_position()};
  for (int depth = 0; depth <= book_depth; ++depth) {
    std::vector<Position> next;
    for (const Position& position : level) {
      if (game.has_ended(position)) continue;
      ASSERT_NE(database.find(canonicalizer.pack(position)), nullptr) << depth;
      for (Square move : game.legal_moves(position)) next.push_back(game.play(position, move));
    }
    level = std::move(next);
  }
}

INSTANTIATE_TEST_SUITE_P(Boards, StrategyDatabaseTest,
                         testing::Values(std::pair{5, 0}, std::pair{5, 2}, std::pair{6, 0},
                                         std::pair{6, 2}));

TEST(StrategyDatabase, FileRoundTripKeepsKindAndBookDepth) {
  const Database& database = strategy(5, 2);
  const fs::path path = fs::temp_directory_path() / "rastros_strategy_test.rdb";
  write_database(path, database);
  const Database read = read_database(path, DatabaseKind::strategy);
  fs::remove(path);
  EXPECT_EQ(read.header(), database.header());
  EXPECT_TRUE(std::equal(read.keys().begin(), read.keys().end(), database.keys().begin()));
}

// from_key_frame on positions met in every frame (both sides to move, reflected or not): the
// strong 5x5 database's stored move, mapped back, is legal and achieves the stored outcome.
TEST(CanonicalFrame, StoredBestMovesMapBackToTheUsersFrame) {
  const Rastros game(Board(5, 5));
  const Database database = build_strong_database(game);
  const DatabaseQuery query(database);
  const Canonicalizer canonicalizer(game.board());
  std::mt19937 random(5);
  int checked = 0;
  for (int g = 0; g < 300; ++g) {
    Position position = game.start_position();
    while (!game.has_ended(position)) {
      const DatabaseRecord* record = database.find(canonicalizer.pack(position));
      ASSERT_NE(record, nullptr);
      const Square move = canonicalizer.from_key_frame(position, record->best_move);
      ASSERT_TRUE(game.is_legal(position, move));
      const std::optional<Outcome> child = query.lookup(game.play(position, move));
      ASSERT_TRUE(child);
      EXPECT_EQ(parent_score(score_of(*child)), score_of(outcome_of(*record)));
      ++checked;
      position = game.play(position, random_move(game, position, random));
    }
  }
  EXPECT_GT(checked, 1000);
}

// The shipped 7x7 database answers every reply of the loser along random games, from the file
// alone, and passes the closure check.
TEST(StrategyDatabase7x7, ShippedFileAnswersRandomGames) {
  const fs::path path = fs::path(RASTROS_DATA_DIR) / "7x7-standard-strategy.rdb";
  const Database database = read_database(path, DatabaseKind::strategy);
  EXPECT_EQ(database.header().width, 7);
  EXPECT_EQ(database.header().height, 7);
  play_random_games(database, 200, 7);
  const auto started = std::chrono::steady_clock::now();
  const VerificationReport report = verify_database(database);
  EXPECT_TRUE(report.ok()) << (report.failures.empty() ? std::string()
                                                       : report.failures.front().description);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(),
            60.0);
}

}  // namespace
}  // namespace rastros
