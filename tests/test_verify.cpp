// Database verification: correct strong databases verify clean under both rule sets and step
// sets, and one damaged record (value, remoteness, best move) or one missing key is caught and
// named, the same way on any number of threads.

#include <gtest/gtest.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "core/errors.hpp"
#include "db/strong_database.hpp"
#include "db/verify.hpp"
#include "rastros/canonical.hpp"
#include "rastros/notation.hpp"

namespace rastros {
namespace {

/// Enough listed failures that the damaged record itself is always among them (its parents,
/// recomputed from the damaged record, fail too and may come first in key order).
constexpr std::size_t kListAll = 100000;

const Database& solved(int width, int height, StepSet steps, StuckRule rules) {
  // Solved once per variant: the 5x5 databases are reused by several tests.
  static std::map<std::tuple<int, int, StepSet, StuckRule>, Database> cache;
  const auto key = std::make_tuple(width, height, steps, rules);
  auto found = cache.find(key);
  if (found == cache.end()) {
    const Rastros game(Board(width, height, steps), std::nullopt, rules);
    found = cache.emplace(key, build_strong_database(game)).first;
  }
  return found->second;
}

const Database& standard_5x5() {
  return solved(5, 5, StepSet::king, StuckRule::loses);
}

/// A copy of `database` with `change` applied to its keys and records.
Database damaged(
    const Database& database,
    const std::function<void(std::vector<PackedPosition>&, std::vector<DatabaseRecord>&)>& change) {
  std::vector<PackedPosition> keys(database.keys().begin(), database.keys().end());
  std::vector<DatabaseRecord> records(database.records().begin(), database.records().end());
  change(keys, records);
  return Database(database.header(), std::move(keys), std::move(records));
}

/// The index of the first record with a decided value and remoteness >= `min_remoteness`
/// whose position has at least two legal moves.
std::size_t pick_record(const Database& database, int min_remoteness) {
  const Board board(database.header().width, database.header().height, database.header().steps);
  for (std::size_t i = database.size() / 3; i < database.size(); ++i) {
    const DatabaseRecord& record = database.records()[i];
    const Position position = Canonicalizer::unpack(database.keys()[i]);
    if (record.value != Value::draw && record.remoteness >= min_remoteness &&
        count(board.neighbours(position.snail) & position.free) >= 2) {
      return i;
    }
  }
  ADD_FAILURE() << "no record to damage";
  return 0;
}

std::string position_of(const Database& database, std::size_t index) {
  const Board board(database.header().width, database.header().height, database.header().steps);
  return position_string(board, Canonicalizer::unpack(database.keys()[index]));
}

/// The failure listed for `position`, or nullptr.
const VerificationFailure* failure_at(const VerificationReport& report,
                                      const std::string& position) {
  for (const VerificationFailure& failure : report.failures) {
    if (failure.position == position) return &failure;
  }
  return nullptr;
}

struct Variant {
  int width;
  int height;
  StepSet steps;
  StuckRule rules;
};

class CleanDatabase : public testing::TestWithParam<Variant> {};

TEST_P(CleanDatabase, VerifiesWithoutFailures) {
  const Variant v = GetParam();
  const Database& database = solved(v.width, v.height, v.steps, v.rules);
  const VerificationReport report = verify_database(database);
  EXPECT_TRUE(report.ok()) << (report.failures.empty() ? std::string()
                                                       : report.failures[0].position + ": " +
                                                             report.failures[0].description);
  EXPECT_EQ(report.failure_count, 0u);
  EXPECT_EQ(report.checked, database.size());
  EXPECT_GT(report.children, 0u);
  EXPECT_LE(report.max_remoteness, v.width * v.height - 1);
  EXPECT_GT(report.max_remoteness, 0);
  ASSERT_TRUE(report.no_draw.has_value());
  if (v.rules == StuckRule::loses) {
    EXPECT_EQ(report.draws, 0u);
    EXPECT_TRUE(*report.no_draw);
  } else {
    EXPECT_GT(report.draws, 0u);
    EXPECT_FALSE(*report.no_draw);
  }
}

std::string clean_name(const testing::TestParamInfo<Variant>& info) {
  const Variant& v = info.param;
  return std::to_string(v.width) + "x" + std::to_string(v.height) +
         (v.steps == StepSet::king ? "King" : "Orthogonal") +
         (v.rules == StuckRule::loses ? "Standard" : "StuckDraw");
}

INSTANTIATE_TEST_SUITE_P(Verify, CleanDatabase,
                         testing::Values(Variant{4, 4, StepSet::king, StuckRule::loses},
                                         Variant{4, 4, StepSet::king, StuckRule::draws},
                                         Variant{4, 4, StepSet::orthogonal, StuckRule::loses},
                                         Variant{4, 4, StepSet::orthogonal, StuckRule::draws},
                                         Variant{5, 5, StepSet::king, StuckRule::loses},
                                         Variant{5, 5, StepSet::king, StuckRule::draws}),
                         clean_name);

TEST(Verify, FlippedValueIsCaught) {
  const Database& database = standard_5x5();
  const std::size_t index = pick_record(database, 3);
  const Database bad = damaged(
      database, [&](auto&, auto& records) { records[index].value = negate(records[index].value); });
  const VerificationReport report = verify_database(bad, {}, kListAll);
  EXPECT_FALSE(report.ok());
  EXPECT_EQ(report.checked, database.size());
  const VerificationFailure* failure = failure_at(report, position_of(database, index));
  ASSERT_NE(failure, nullptr);
  EXPECT_EQ(failure->key, database.keys()[index]);
  EXPECT_NE(failure->description.find("children give"), std::string::npos) << failure->description;
}

TEST(Verify, RemotenessOffByOneIsCaught) {
  const Database& database = standard_5x5();
  const std::size_t index = pick_record(database, 3);
  for (int delta : {-1, +1}) {
    const Database bad = damaged(database, [&](auto&, auto& records) {
      records[index].remoteness = static_cast<std::uint8_t>(records[index].remoteness + delta);
    });
    const VerificationReport report = verify_database(bad, {}, kListAll);
    EXPECT_FALSE(report.ok()) << "delta " << delta;
    const VerificationFailure* failure = failure_at(report, position_of(database, index));
    ASSERT_NE(failure, nullptr) << "delta " << delta;
    EXPECT_NE(failure->description.find("children give"), std::string::npos)
        << failure->description;
  }
}

TEST(Verify, WrongBestMoveIsCaught) {
  const Database& database = standard_5x5();
  const Board board(5, 5);
  const Rastros game(board);
  // A position with a legal move that does worse than the stored one.
  const Canonicalizer canonicalizer(board);
  std::size_t index = database.size();
  Square worse = -1;
  for (std::size_t i = 0; i < database.size() && index == database.size(); ++i) {
    const Position position = Canonicalizer::unpack(database.keys()[i]);
    const DatabaseRecord& record = database.records()[i];
    for (Square move : game.legal_moves(position)) {
      const Position child = game.play(position, move);
      if (game.has_ended(child)) continue;
      const DatabaseRecord* child_record = database.find(canonicalizer.pack(child));
      ASSERT_NE(child_record, nullptr);
      if (child_record->value != negate(record.value) ||
          child_record->remoteness + 1 != record.remoteness) {
        index = i;
        worse = move;
        break;
      }
    }
  }
  ASSERT_LT(index, database.size());
  const std::string where = position_of(database, index);

  const Database bad_move = damaged(database, [&](auto&, auto& records) {
    records[index].best_move = static_cast<std::uint8_t>(worse);
  });
  VerificationReport report = verify_database(bad_move, {}, kListAll);
  EXPECT_EQ(report.failure_count, 1u);  // the record itself is right, so no parent fails
  const VerificationFailure* failure = failure_at(report, where);
  ASSERT_NE(failure, nullptr);
  EXPECT_NE(failure->description.find("best move " + square_name(board, worse) + " gives"),
            std::string::npos)
      << failure->description;

  // A slimed square, never a legal move.
  const Square slimed =
      lowest_square(board.all_squares() & ~Canonicalizer::unpack(database.keys()[index]).free &
                    ~bit(Canonicalizer::unpack(database.keys()[index]).snail));
  const Database illegal = damaged(database, [&](auto&, auto& records) {
    records[index].best_move = static_cast<std::uint8_t>(slimed);
  });
  report = verify_database(illegal, {}, kListAll);
  EXPECT_EQ(report.failure_count, 1u);
  failure = failure_at(report, where);
  ASSERT_NE(failure, nullptr);
  EXPECT_NE(failure->description.find("is not legal"), std::string::npos) << failure->description;
}

TEST(Verify, MissingKeyIsCaughtAsNotClosed) {
  const Database& database = standard_5x5();
  const std::size_t index = pick_record(database, 3);
  const std::string missing = position_of(database, index);
  const Database bad = damaged(database, [&](auto& keys, auto& records) {
    keys.erase(keys.begin() + static_cast<std::ptrdiff_t>(index));
    records.erase(records.begin() + static_cast<std::ptrdiff_t>(index));
  });
  const VerificationReport report = verify_database(bad, {}, kListAll);
  EXPECT_FALSE(report.ok());
  EXPECT_EQ(report.checked, database.size() - 1);
  // Some parent names the missing child. Its string is the child as that parent reaches it, so
  // match on "not closed" and check the child key is the deleted one by looking it up.
  const bool named = std::any_of(
      report.failures.begin(), report.failures.end(), [](const VerificationFailure& failure) {
        return failure.description.find("not closed") != std::string::npos;
      });
  EXPECT_TRUE(named);
  EXPECT_EQ(failure_at(report, missing), nullptr);  // gone, so not checked itself
}

TEST(Verify, MissingStartIsCaught) {
  const Database& database = solved(4, 4, StepSet::king, StuckRule::loses);
  const Rastros game(Board(4, 4));
  const PackedPosition start = Canonicalizer(game.board()).pack(game.start_position());
  const Database bad = damaged(database, [&](auto& keys, auto& records) {
    const auto at = std::find(keys.begin(), keys.end(), start);
    ASSERT_NE(at, keys.end());
    records.erase(records.begin() + (at - keys.begin()));
    keys.erase(at);
  });
  const VerificationReport report = verify_database(bad);
  EXPECT_FALSE(report.ok());
  ASSERT_FALSE(report.failures.empty());
  EXPECT_NE(report.failures[0].description.find("start position"), std::string::npos);
}

TEST(Verify, DrawUnderStandardRulesIsCaught) {
  const Database& database = solved(4, 4, StepSet::king, StuckRule::loses);
  const std::size_t index = pick_record(database, 2);
  const Database bad = damaged(database, [&](auto&, auto& records) {
    records[index] = {Value::draw, 0, records[index].best_move};
  });
  const VerificationReport report = verify_database(bad, {}, kListAll);
  EXPECT_FALSE(report.ok());
  EXPECT_EQ(report.draws, 1u);
  ASSERT_TRUE(report.no_draw.has_value());
  EXPECT_FALSE(*report.no_draw);
  const VerificationFailure* failure = failure_at(report, position_of(database, index));
  ASSERT_NE(failure, nullptr);
  EXPECT_NE(failure->description.find("cannot be drawn"), std::string::npos);
}

TEST(Verify, ReportIsTheSameOnAnyNumberOfThreads) {
  const Database& database = standard_5x5();
  const std::size_t index = pick_record(database, 3);
  const Database bad = damaged(
      database, [&](auto&, auto& records) { records[index].value = negate(records[index].value); });
  std::vector<std::vector<std::string>> listings;
  std::vector<std::uint64_t> counts;
  for (int threads : {1, 2, 3}) {
    oneapi::tbb::task_arena arena(threads);
    arena.execute([&] {
      const VerificationReport report = verify_database(bad, {}, 5);
      std::vector<std::string> listing;
      for (const VerificationFailure& failure : report.failures) {
        listing.push_back(failure.position + ": " + failure.description);
      }
      EXPECT_LE(listing.size(), 5u);
      listings.push_back(listing);
      counts.push_back(report.failure_count);
    });
  }
  EXPECT_EQ(listings[0], listings[1]);
  EXPECT_EQ(listings[0], listings[2]);
  EXPECT_EQ(counts[0], counts[1]);
  EXPECT_EQ(counts[0], counts[2]);
}

TEST(Verify, FileRoundTripVerifies) {
  // The same checks on a database as read back from disk (the `verify --db` path).
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("rastros_test_verify_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
       ".rdb");
  write_database(path, solved(4, 4, StepSet::orthogonal, StuckRule::draws));
  const Database read = read_database(path);
  std::filesystem::remove(path);
  const VerificationReport report = verify_database(read);
  EXPECT_TRUE(report.ok());
  EXPECT_GT(report.draws, 0u);
}

TEST(Verify, StrategyKindNeedsOnlyTheWinnersMove) {
  // A strong database relabelled as a strategy database is closed a fortiori; it cannot show
  // the no-draw property, which needs every position.
  const Database& strong = solved(4, 4, StepSet::king, StuckRule::loses);
  DatabaseHeader header = strong.header();
  header.kind = DatabaseKind::strategy;
  const Database strategy(header, {strong.keys().begin(), strong.keys().end()},
                          {strong.records().begin(), strong.records().end()});
  const VerificationReport report = verify_database(strategy);
  EXPECT_TRUE(report.ok());
  EXPECT_FALSE(report.no_draw.has_value());
}

TEST(Verify, NoDrawExhaustive) {
  const VerificationReport standard = verify_no_draw(Rastros(Board(4, 4)));
  EXPECT_TRUE(standard.ok());
  EXPECT_EQ(standard.no_draw, std::optional<bool>(true));
  const VerificationReport stuck_draw =
      verify_no_draw(Rastros(Board(4, 4), std::nullopt, StuckRule::draws));
  EXPECT_TRUE(stuck_draw.ok());
  EXPECT_GT(stuck_draw.draws, 0u);
  EXPECT_EQ(stuck_draw.no_draw, std::optional<bool>(false));
  EXPECT_THROW(verify_no_draw(Rastros(Board(6, 6))), InputError);
}

}  // namespace
}  // namespace rastros
