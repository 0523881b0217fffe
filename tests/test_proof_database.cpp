// Proof databases (db/proof_database.hpp): built on small boards of every rule set with several
// leaf sizes, every stored value agrees with the strong database (retrograde analysis, an
// independent method), the start's with the plain reference minimax too, and verify_database
// accepts them; then each kind of damage a proof can suffer is caught by verify_database.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <tuple>

#include "core/errors.hpp"
#include "db/database_query.hpp"
#include "db/proof_database.hpp"
#include "db/strong_database.hpp"
#include "db/verify.hpp"
#include "rastros/canonical.hpp"
#include "rastros/notation.hpp"
#include "reference_minimax.hpp"
#include "search/solver.hpp"
#include "temporary_directory.hpp"

namespace rastros {
namespace {

struct Variant {
  int width;
  int height;
  StepSet steps;
  StuckRule rules;
  int leaf_squares;
};

std::string name_of(const Variant& variant) {
  std::string name = std::to_string(variant.width) + "x" + std::to_string(variant.height) + "_" +
                     std::string(steps_name(variant.steps)) + "_" +
                     std::string(rules_name(variant.rules)) + "_leaf" +
                     std::to_string(variant.leaf_squares);
  std::replace(name.begin(), name.end(), '-', '_');  // test names are letters, digits and _
  return name;
}

Rastros game_of(const Variant& variant) {
  return Rastros(Board(variant.width, variant.height, variant.steps), std::nullopt, variant.rules);
}

Solver value_only_solver(const Rastros& game) {
  SolverOptions options;
  options.value_only = true;
  return Solver(game, options);
}

// Built once per variant.
const Database& proof(const Variant& variant) {
  static std::map<std::tuple<int, int, int, int, int>, Database> cache;
  const auto key = std::tuple{variant.width, variant.height, static_cast<int>(variant.steps),
                              static_cast<int>(variant.rules), variant.leaf_squares};
  auto found = cache.find(key);
  if (found != cache.end()) return found->second;
  const Rastros game = game_of(variant);
  Solver solver = value_only_solver(game);
  return cache.emplace(key, build_proof_database(game, variant.leaf_squares, solver)).first->second;
}

const Database& strong(const Variant& variant) {
  static std::map<std::tuple<int, int, int, int>, Database> cache;
  const auto key = std::tuple{variant.width, variant.height, static_cast<int>(variant.steps),
                              static_cast<int>(variant.rules)};
  auto found = cache.find(key);
  if (found != cache.end()) return found->second;
  return cache.emplace(key, build_strong_database(game_of(variant))).first->second;
}

std::string first_failure(const VerificationReport& report) {
  return report.failures.empty()
             ? std::string("(none listed)")
             : report.failures.front().position + ": " + report.failures.front().description;
}

class ProofDatabaseTest : public testing::TestWithParam<Variant> {};

// The start's value by the reference minimax (no table, no pruning, no symmetry), on boards
// small enough for it; larger ones are checked against the strong database below.
TEST_P(ProofDatabaseTest, StartAgreesWithPlainMinimax) {
  const Variant variant = GetParam();
  if (variant.width * variant.height > 20) GTEST_SKIP() << "too big for plain minimax";
  const Rastros game = game_of(variant);
  rastros_reference::ReferenceMinimax reference({variant.width, variant.height,
                                                 variant.steps == StepSet::king,
                                                 variant.rules == StuckRule::draws});
  rastros_reference::RefPosition start;
  start.slime.assign(static_cast<std::size_t>(variant.width * variant.height), false);
  start.snail = {game.start() % variant.width, game.start() / variant.width};
  const rastros_reference::RefValue expected = reference.solve(start).value;
  if (expected == rastros_reference::RefValue::draw) {
    Solver solver = value_only_solver(game);
    EXPECT_THROW(build_proof_database(game, variant.leaf_squares, solver), std::invalid_argument);
    return;
  }
  const Database& database = proof(variant);
  const DatabaseRecord* record =
      database.find(Canonicalizer(game.board()).pack(game.start_position()));
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->value, expected == rastros_reference::RefValue::win ? Value::win : Value::loss);
}

// Every stored value is the strong database's, and the shape is a proof's: no draws, no
// remoteness, a move exactly where the side to move wins, no stored leaf but the start.
TEST_P(ProofDatabaseTest, RecordsAgreeWithTheStrongDatabase) {
  const Variant variant = GetParam();
  const Rastros game = game_of(variant);
  Solver solver = value_only_solver(game);
  if (solver.solve(game.start_position()).value == Value::draw) GTEST_SKIP() << "a draw";
  const Database& database = proof(variant);
  EXPECT_EQ(database.header().kind, DatabaseKind::proof);
  EXPECT_EQ(database.header().leaf_squares, variant.leaf_squares);
  const DatabaseQuery truth(strong(variant));
  const PackedPosition start = Canonicalizer(game.board()).pack(game.start_position());
  ASSERT_GT(database.size(), 0u);
  for (std::size_t i = 0; i < database.size(); ++i) {
    const Position position = Canonicalizer::unpack(database.keys()[i]);
    const DatabaseRecord& record = database.records()[i];
    const std::optional<Outcome> exact = truth.lookup(position);
    ASSERT_TRUE(exact) << position_string(game.board(), position);
    EXPECT_EQ(record.value, exact->value) << position_string(game.board(), position);
    EXPECT_EQ(record.remoteness, 0);
    EXPECT_EQ(record.best_move != DatabaseRecord::kNoMove, record.value == Value::win);
    if (database.keys()[i] != start) {
      EXPECT_FALSE(is_proof_leaf(game.board(), position, variant.leaf_squares))
          << position_string(game.board(), position);
    }
  }
}

TEST_P(ProofDatabaseTest, PassesVerification) {
  const Variant variant = GetParam();
  const Rastros game = game_of(variant);
  Solver solver = value_only_solver(game);
  if (solver.solve(game.start_position()).value == Value::draw) GTEST_SKIP() << "a draw";
  const VerificationReport report = verify_database(proof(variant));
  EXPECT_TRUE(report.ok()) << first_failure(report);
  EXPECT_EQ(report.checked, proof(variant).size());
  ASSERT_TRUE(report.proven_start_value);
  EXPECT_EQ(report.proven_start_value, solver.solve(game.start_position()).value);
  EXPECT_FALSE(report.no_draw.has_value());
  if (variant.leaf_squares == 0) {
    EXPECT_EQ(report.leaves_solved, 0u);
  }
}

std::vector<Variant> variants() {
  std::vector<Variant> result;
  for (const auto& [width, height] : std::vector<std::pair<int, int>>{{4, 4}, {5, 3}, {5, 4}}) {
    for (const StepSet steps : {StepSet::king, StepSet::orthogonal}) {
      for (const StuckRule rules : {StuckRule::loses, StuckRule::draws}) {
        for (const int leaf_squares : {0, 5}) {
          result.push_back({width, height, steps, rules, leaf_squares});
        }
      }
    }
  }
  for (const int leaf_squares : {0, 8, 12, 20}) {
    result.push_back({5, 5, StepSet::king, StuckRule::loses, leaf_squares});
    result.push_back({6, 4, StepSet::king, StuckRule::loses, leaf_squares});
  }
  return result;
}

INSTANTIATE_TEST_SUITE_P(ProofDatabase, ProofDatabaseTest, testing::ValuesIn(variants()),
                         [](const testing::TestParamInfo<Variant>& info) {
                           return name_of(info.param);
                         });

// -- Damage: each is a proof that no longer proves, and verify must say so -------------------

// Small enough that each test process (ctest runs them one by one, sanitizers included) builds
// its strong database in a moment.
const Variant kDamaged{6, 4, StepSet::king, StuckRule::loses, 8};

Database rebuilt(const Database& database, std::vector<PackedPosition> keys,
                 std::vector<DatabaseRecord> records, const DatabaseHeader* header = nullptr) {
  return Database(header ? *header : database.header(), std::move(keys), std::move(records));
}

VerificationReport verify_changed(
    const std::function<void(std::vector<PackedPosition>&, std::vector<DatabaseRecord>&,
                             DatabaseHeader&)>& change) {
  const Database& original = proof(kDamaged);
  std::vector<PackedPosition> keys(original.keys().begin(), original.keys().end());
  std::vector<DatabaseRecord> records(original.records().begin(), original.records().end());
  DatabaseHeader header = original.header();
  change(keys, records, header);
  return verify_database(rebuilt(original, std::move(keys), std::move(records), &header));
}

// Index of the first stored record with `value` whose position is not the start.
std::size_t first_with(const Database& database, Value value) {
  const Rastros game = game_of(kDamaged);
  const PackedPosition start = Canonicalizer(game.board()).pack(game.start_position());
  for (std::size_t i = 0; i < database.size(); ++i) {
    if (database.records()[i].value == value && database.keys()[i] != start) return i;
  }
  ADD_FAILURE() << "no stored " << to_string(value);
  return 0;
}

TEST(ProofDatabaseDamage, LosingMoveForAWinIsCaught) {
  const Rastros game = game_of(kDamaged);
  int caught = 0;
  // Every stored win whose position also has a losing move: swap that move in.
  const Database& original = proof(kDamaged);
  const DatabaseQuery truth(strong(kDamaged));
  for (std::size_t i = 0; i < original.size() && caught < 5; ++i) {
    if (original.records()[i].value != Value::win) continue;
    const Position position = Canonicalizer::unpack(original.keys()[i]);
    for (Square move : game.legal_moves(position)) {
      const Position child = game.play(position, move);
      const std::optional<Outcome> exact = truth.lookup(child);
      if (!exact || exact->value != Value::win) continue;  // not a losing move for the mover
      const VerificationReport report =
          verify_changed([&](auto&, std::vector<DatabaseRecord>& records, auto&) {
            records[i].best_move = static_cast<std::uint8_t>(move);
          });
      EXPECT_FALSE(report.ok()) << position_string(game.board(), position) << " by "
                                << square_name(game.board(), move);
      ++caught;
      break;
    }
  }
  EXPECT_GT(caught, 0);
}

TEST(ProofDatabaseDamage, FlippedValueIsCaught) {
  for (const Value value : {Value::win, Value::loss}) {
    const std::size_t index = first_with(proof(kDamaged), value);
    const VerificationReport report =
        verify_changed([&](auto&, std::vector<DatabaseRecord>& records, auto&) {
          records[index].value = negate(value);
          records[index].best_move = DatabaseRecord::kNoMove;
          if (value == Value::loss) {
            // Claim the win by any legal move: every move of a lost position loses.
            const Position position = Canonicalizer::unpack(proof(kDamaged).keys()[index]);
            records[index].best_move =
                static_cast<std::uint8_t>(*game_of(kDamaged).legal_moves(position).begin());
          }
        });
    EXPECT_FALSE(report.ok()) << to_string(value);
  }
}

TEST(ProofDatabaseDamage, MissingChildIsCaughtAsNotClosed) {
  // Drop each of a few stored positions other than the start: some stored parent needs it.
  const Database& original = proof(kDamaged);
  const Rastros game = game_of(kDamaged);
  const PackedPosition start = Canonicalizer(game.board()).pack(game.start_position());
  int dropped = 0;
  for (std::size_t i = 0; i < original.size() && dropped < 10; i += original.size() / 10 + 1) {
    if (original.keys()[i] == start) continue;
    const VerificationReport report = verify_changed(
        [&](std::vector<PackedPosition>& keys, std::vector<DatabaseRecord>& records, auto&) {
          keys.erase(keys.begin() + static_cast<std::ptrdiff_t>(i));
          records.erase(records.begin() + static_cast<std::ptrdiff_t>(i));
        });
    EXPECT_FALSE(report.ok());
    EXPECT_NE(first_failure(report).find("not closed"), std::string::npos) << first_failure(report);
    ++dropped;
  }
  EXPECT_GT(dropped, 0);
}

TEST(ProofDatabaseDamage, SmallerLeavesInTheHeaderLeaveItOpen) {
  // The same records claiming fewer leaves: children the verifier solved are now expected in
  // the file.
  const VerificationReport report =
      verify_changed([](auto&, auto&, DatabaseHeader& header) { header.leaf_squares = 0; });
  EXPECT_FALSE(report.ok());
  EXPECT_NE(first_failure(report).find("not closed"), std::string::npos) << first_failure(report);
}

TEST(ProofDatabaseDamage, RemotenessAndDrawsAreRefused) {
  const std::size_t index = first_with(proof(kDamaged), Value::loss);
  EXPECT_FALSE(verify_changed([&](auto&, std::vector<DatabaseRecord>& records, auto&) {
                 records[index].remoteness = 3;
               }).ok());
  EXPECT_FALSE(verify_changed([&](auto&, std::vector<DatabaseRecord>& records, auto&) {
                 records[index].value = Value::draw;
               }).ok());
  // A loss stores no move.
  const Position position = Canonicalizer::unpack(proof(kDamaged).keys()[index]);
  const Square move = *game_of(kDamaged).legal_moves(position).begin();
  EXPECT_FALSE(verify_changed([&](auto&, std::vector<DatabaseRecord>& records, auto&) {
                 records[index].best_move = static_cast<std::uint8_t>(move);
               }).ok());
}

TEST(ProofDatabaseDamage, StartMissingOrFlippedIsCaught) {
  const Rastros game = game_of(kDamaged);
  const PackedPosition start = Canonicalizer(game.board()).pack(game.start_position());
  const Database& original = proof(kDamaged);
  const auto at = std::lower_bound(original.keys().begin(), original.keys().end(), start);
  ASSERT_TRUE(at != original.keys().end() && *at == start);
  const auto index = static_cast<std::size_t>(at - original.keys().begin());
  const VerificationReport missing = verify_changed(
      [&](std::vector<PackedPosition>& keys, std::vector<DatabaseRecord>& records, auto&) {
        keys.erase(keys.begin() + static_cast<std::ptrdiff_t>(index));
        records.erase(records.begin() + static_cast<std::ptrdiff_t>(index));
      });
  EXPECT_FALSE(missing.ok());
  EXPECT_FALSE(missing.proven_start_value.has_value());
  const VerificationReport flipped =
      verify_changed([&](auto&, std::vector<DatabaseRecord>& records, auto&) {
        records[index].value = negate(records[index].value);
        records[index].best_move = DatabaseRecord::kNoMove;
      });
  EXPECT_FALSE(flipped.ok());
  EXPECT_FALSE(flipped.proven_start_value.has_value());
}

TEST(ProofDatabase, FileRoundTripKeepsKindAndLeaves) {
  TemporaryDirectory directory("proof-db");
  const std::filesystem::path path = directory.path() / "proof.rdb";
  write_database(path, proof(kDamaged));
  const Database read = read_database(path, DatabaseKind::proof);
  EXPECT_EQ(read.header(), proof(kDamaged).header());
  EXPECT_TRUE(std::equal(read.keys().begin(), read.keys().end(), proof(kDamaged).keys().begin(),
                         proof(kDamaged).keys().end()));
  EXPECT_TRUE(verify_database(read).ok());
  EXPECT_THROW(read_database(path, DatabaseKind::strategy), FileError);
}

// A won position whose winning move ends the game at once: the query lists that move (its
// outcome, from the rules, carries no remoteness either, so it compares with the record).
TEST(ProofDatabase, QueryListsImmediateWins) {
  const Database& database = proof(kDamaged);
  const DatabaseQuery query(database);
  const Rastros& game = query.game();
  int checked = 0;
  for (std::size_t i = 0; i < database.size(); ++i) {
    const DatabaseRecord& record = database.records()[i];
    if (record.value != Value::win) continue;
    const Position position = Canonicalizer::unpack(database.keys()[i]);
    if (!game.has_ended(game.play(position, record.best_move))) continue;
    const std::optional<DatabaseAnswer> answer = query.answer(position);
    ASSERT_TRUE(answer);
    EXPECT_EQ(answer->outcome, (Outcome{Value::win, std::nullopt}));
    ASSERT_FALSE(answer->best_moves.empty()) << position_string(game.board(), position);
    for (const MoveOutcome& child : answer->children) {
      EXPECT_FALSE(child.outcome.remoteness.has_value());
    }
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

// Queries on a proof: values without remoteness, and the winner's stored move wins.
TEST(ProofDatabase, QueriesFollowTheProof) {
  const Database& database = proof(kDamaged);
  const DatabaseQuery query(database);
  const Rastros& game = query.game();
  const DatabaseQuery truth(strong(kDamaged));
  std::mt19937 random(11);
  int answered = 0;
  for (int g = 0; g < 100; ++g) {
    Position position = game.start_position();
    while (!game.has_ended(position)) {
      const std::optional<DatabaseAnswer> answer = query.answer(position);
      if (!answer) break;  // a leaf: the proof leaves small endgames to search
      EXPECT_FALSE(answer->outcome.remoteness.has_value());
      EXPECT_EQ(answer->outcome.value, truth.lookup(position)->value);
      std::vector<Square> moves;
      for (Square move : game.legal_moves(position)) moves.push_back(move);
      Square move = moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(random)];
      if (answer->outcome.value == Value::win) {
        ASSERT_FALSE(answer->best_moves.empty());
        move = answer->best_moves.front();
        const Position child = game.play(position, move);
        const std::optional<Value> ended = game.terminal_value(child);
        EXPECT_EQ(ended ? *ended : truth.lookup(child)->value, Value::loss);
      }
      position = game.play(position, move);
      ++answered;
    }
  }
  EXPECT_GT(answered, 100);
}

}  // namespace
}  // namespace rastros
