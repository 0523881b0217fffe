// Answering positions from a strong database: on positions met along random 5x5 games (either
// side to move, any frame) every answer -- the position's outcome, every move's outcome and the
// best moves -- agrees with the live solver's analyse(); ended positions are valued by the
// rules; positions from another start are reported missing. Also the counts of database_stats.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <random>
#include <string>

#include "db/database_query.hpp"
#include "db/database_stats.hpp"
#include "db/strong_database.hpp"
#include "db/verify.hpp"
#include "rastros/notation.hpp"
#include "search/solver.hpp"

namespace rastros {
namespace {

namespace fs = std::filesystem;

// The 5x5 strong database, built once (well under a second) and read back from a file, so the
// queries run against what a user would load.
const Database& database_5x5() {
  static const Database database = [] {
    const Rastros game(Board(5, 5));
    const Database built = build_strong_database(game);
    const fs::path path =
        fs::temp_directory_path() / ("rastros_query_test_" + std::to_string(::getpid()) + ".rdb");
    write_database(path, built);
    Database read = read_database(path, DatabaseKind::strong);
    fs::remove(path);
    return read;
  }();
  return database;
}

// A random legal move.
Square random_move(const Rastros& game, const Position& position, std::mt19937_64& rng) {
  SquareMask moves = game.move_mask(position);
  for (int skip = static_cast<int>(rng() % count(moves)); skip > 0; --skip) moves &= moves - 1;
  return lowest_square(moves);
}

void expect_same(const DatabaseAnswer& answer, const Analysis& analysis, const std::string& where) {
  EXPECT_EQ(answer.outcome, analysis.outcome) << where;
  EXPECT_EQ(answer.best_moves, analysis.best_moves) << where;
  ASSERT_EQ(answer.children.size(), analysis.children.size()) << where;
  for (std::size_t i = 0; i < answer.children.size(); ++i) {
    EXPECT_EQ(answer.children[i].move, analysis.children[i].move) << where;
    EXPECT_EQ(answer.children[i].outcome, analysis.children[i].outcome)
        << where << " move " << square_name(Board(5, 5), answer.children[i].move);
  }
}

TEST(DatabaseQuery, AgreesWithTheLiveSolverOnRandomGames) {
  const Database& database = database_5x5();
  const DatabaseQuery query(database);
  const Rastros& game = query.game();
  Solver solver(game);
  std::mt19937_64 rng(4);
  int checked = 0;
  int ended = 0;
  while (checked < 300) {
    Position position = game.start_position();
    while (true) {
      const std::string where = position_string(game.board(), position);
      const std::optional<DatabaseAnswer> answer = query.answer(position);
      ASSERT_TRUE(answer) << "reachable position reported missing: " << where;
      expect_same(*answer, solver.analyse(position), where);
      ++checked;
      if (game.has_ended(position)) {
        ++ended;
        break;
      }
      position = game.play(position, random_move(game, position, rng));
    }
  }
  EXPECT_GT(ended, 10);  // the games were played out to the end
}

// A position and its mirror image in the a1 diagonal share one key; each must get its answer in
// its own frame, the mirrored position's moves being the mirrored moves.
TEST(DatabaseQuery, AnswersTheReflectedPositionWithReflectedMoves) {
  const DatabaseQuery query(database_5x5());
  const Rastros& game = query.game();
  const Board& board = game.board();
  const auto mirror = [&](Square s) { return board.square_at(board.rank_of(s), board.file_of(s)); };
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    Position position = game.start_position();
    const int plies = 1 + static_cast<int>(rng() % 6);
    for (int ply = 0; ply < plies && !game.has_ended(position); ++ply) {
      position = game.play(position, random_move(game, position, rng));
    }
    if (game.has_ended(position)) continue;
    Position mirrored{0, mirror(position.snail), position.to_move};
    for (Square s : SquareSet(position.free)) mirrored.free |= bit(mirror(s));
    const auto answer = query.answer(position);
    const auto mirrored_answer = query.answer(mirrored);
    ASSERT_TRUE(answer && mirrored_answer);
    EXPECT_EQ(answer->outcome, mirrored_answer->outcome);
    for (const MoveOutcome& child : answer->children) {
      bool found = false;
      for (const MoveOutcome& other : mirrored_answer->children) {
        if (other.move == mirror(child.move)) {
          found = true;
          EXPECT_EQ(other.outcome, child.outcome);
        }
      }
      EXPECT_TRUE(found);
    }
  }
}

TEST(DatabaseQuery, EndedPositionsAreValuedByTheRules) {
  const DatabaseQuery query(database_5x5());
  const Rastros& game = query.game();
  // From c3: b2 b1 a1, player 1 entered a1; player 2 is to move and has lost.
  const PlayedGame played = parse_game(game, "b2 b1 a1");
  const auto answer = query.answer(played.position);
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->outcome, (Outcome{Value::loss, 0}));
  EXPECT_TRUE(answer->children.empty());
  EXPECT_TRUE(answer->best_moves.empty());
}

// Under stuck-draw a stuck side to move has drawn with remoteness 0 (docs/rules.md), a move that
// leaves the opponent stuck draws in 1, and a drawn position whose game goes on has none: the
// live solver and the database say the same, and the database still verifies.
TEST(DatabaseQuery, StuckDrawsHaveRemoteness) {
  const Rastros game(Board(3, 3), std::nullopt, StuckRule::draws);  // from b2
  const Database database = build_strong_database(game);
  EXPECT_TRUE(verify_database(database).ok());
  const DatabaseQuery query(database);
  Solver solver(game);

  // a2 b3 a3: the snail on a3 with a2, b2, b3 slimed; player 2 is stuck.
  const Position stuck = parse_game(game, "a2 b3 a3").position;
  ASSERT_TRUE(game.has_ended(stuck));
  const Outcome drawn{Value::draw, 0};
  EXPECT_EQ(solver.solve(stuck), drawn);
  EXPECT_EQ(solver.analyse(stuck).outcome, drawn);
  ASSERT_TRUE(query.answer(stuck));
  EXPECT_EQ(query.answer(stuck)->outcome, drawn);

  // a2 b3: player 1 draws by a3, which leaves player 2 stuck; c2 and c3 lose.
  const Position before = parse_game(game, "a2 b3").position;
  const Analysis analysis = solver.analyse(before);
  const Outcome going_on{Value::draw, std::nullopt};
  EXPECT_EQ(analysis.outcome, going_on);
  EXPECT_EQ(solver.solve(before), going_on);
  const Square a3 = parse_square(game.board(), "a3");
  EXPECT_EQ(analysis.best_moves, std::vector<Square>{a3});
  ASSERT_EQ(analysis.children.size(), 3u);
  EXPECT_EQ(analysis.children[1].move, a3);
  EXPECT_EQ(analysis.children[1].outcome, (Outcome{Value::draw, 1}));
  const std::optional<DatabaseAnswer> answer = query.answer(before);
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->outcome, going_on);
  EXPECT_EQ(answer->best_moves, analysis.best_moves);
  ASSERT_EQ(answer->children.size(), analysis.children.size());
  for (std::size_t i = 0; i < answer->children.size(); ++i) {
    EXPECT_EQ(answer->children[i].move, analysis.children[i].move);
    EXPECT_EQ(answer->children[i].outcome, analysis.children[i].outcome);
  }
}

TEST(DatabaseQuery, PositionsFromAnotherStartAreMissing) {
  const DatabaseQuery query(database_5x5());
  const Rastros& game = query.game();
  // Another start keeps c3 empty; every stored position after the first move has c3 slimed,
  // and the only stored position with 24 free squares is the c3 start itself.
  for (const char* start : {"b2", "b4", "d2", "a3", "e4"}) {
    const Rastros other(game.board(), parse_square(game.board(), start));
    EXPECT_FALSE(query.answer(other.start_position())) << start;
    EXPECT_FALSE(query.lookup(other.start_position())) << start;
  }
}

TEST(DatabaseQuery, EmptyDatabaseAnswersOnlyEndedPositions) {
  // An empty database of the right game answers only ended positions.
  const Rastros game(Board(5, 5));
  const Database empty(header_for(game, DatabaseKind::strong), {}, {});
  const DatabaseQuery query(empty);
  EXPECT_FALSE(query.answer(game.start_position()));
  EXPECT_TRUE(query.answer(parse_game(game, "b2 b1 a1").position));
}

TEST(DatabaseStats, CountsAddUp) {
  const Database& database = database_5x5();
  const DatabaseStats stats = database_stats(database);
  EXPECT_EQ(stats.positions, database.size());
  EXPECT_EQ(stats.by_value[0] + stats.by_value[1] + stats.by_value[2], database.size());
  EXPECT_EQ(stats.by_value[static_cast<int>(Value::draw)], 0u);  // standard rules: no draws
  std::uint64_t layered = 0;
  for (const ValueCounts& row : stats.by_layer) layered += row[0] + row[1] + row[2];
  EXPECT_EQ(layered, database.size());
  std::uint64_t remote = 0;
  for (std::size_t r = 0; r < stats.by_remoteness.size(); ++r) {
    const ValueCounts& row = stats.by_remoteness[r];
    remote += row[0] + row[1] + row[2];
    // Every stored position has a move, so none ends in 0 plies.
    if (r == 0) {
      EXPECT_EQ(row[0] + row[1] + row[2], 0u);
    }
  }
  EXPECT_EQ(remote, database.size());
  // The start (24 free squares) is the only position of the top layer.
  ASSERT_EQ(stats.by_layer.size(), 25u);
  EXPECT_EQ(stats.by_layer[24][0] + stats.by_layer[24][1] + stats.by_layer[24][2], 1u);
}

}  // namespace
}  // namespace rastros
