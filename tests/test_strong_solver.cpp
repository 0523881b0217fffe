// The retrograde strong solver: every stored record against the alpha-beta Solver, against its
// own children recomputed here from the rules, the stored positions against an independent
// depth-first enumeration, and a 5x5 solve spot-checked at random.

#include <gtest/gtest.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "rastros/canonical.hpp"
#include "rastros/notation.hpp"
#include "retro/distinct_keys.hpp"
#include "retro/retrograde_step.hpp"
#include "retro/sorted_layer.hpp"
#include "retro/strong_solver.hpp"
#include "search/solver.hpp"

namespace rastros {
namespace {

struct Variant {
  int width;
  int height;
  StepSet steps;
  StuckRule stuck_rule;
  std::optional<Square> start = std::nullopt;

  Rastros game() const { return Rastros(Board(width, height, steps), start, stuck_rule); }
};

std::string variant_name(const testing::TestParamInfo<Variant>& info) {
  const Variant& v = info.param;
  std::string name = std::to_string(v.width) + "x" + std::to_string(v.height) +
                     (v.steps == StepSet::king ? "King" : "Orthogonal") +
                     (v.stuck_rule == StuckRule::loses ? "Standard" : "StuckDraw");
  if (v.start) name += "Start" + std::to_string(*v.start);
  return name;
}

std::vector<Variant> all_variants() {
  std::vector<Variant> variants;
  const std::vector<std::pair<int, int>> sizes = {{3, 3}, {4, 4}, {5, 3}, {4, 5}};
  for (const auto& [width, height] : sizes) {
    for (StepSet steps : {StepSet::king, StepSet::orthogonal}) {
      for (StuckRule rule : {StuckRule::loses, StuckRule::draws}) {
        variants.push_back({width, height, steps, rule});
      }
    }
  }
  // Tiny boards, where the start touches a goal and games last a ply or two.
  for (StuckRule rule : {StuckRule::loses, StuckRule::draws}) {
    variants.push_back({2, 2, StepSet::king, rule, Square{1}});
    variants.push_back({2, 2, StepSet::orthogonal, rule, Square{2}});
    variants.push_back({2, 3, StepSet::king, rule});
    variants.push_back({3, 2, StepSet::orthogonal, rule});
  }
  return variants;
}

/// The outcome of a move for the player making it, counted from before the move.
Outcome move_outcome(const Outcome& child) {
  Outcome result{negate(child.value), std::nullopt};
  if (child.remoteness) result.remoteness = *child.remoteness + 1;
  return result;
}

/// The outcome of one move from `position`, from the rules and the stored child record.
std::optional<Outcome> outcome_of_move(const Rastros& game, const Canonicalizer& canonicalizer,
                                       const StrongTable& table, const Position& position,
                                       Square move) {
  const Position child = game.play(position, move);
  if (const auto ended = game.terminal_value(child)) {
    return move_outcome(*ended == Value::draw ? Outcome{Value::draw, std::nullopt}
                                              : Outcome{*ended, 0});
  }
  const StrongRecord* record = table.find(canonicalizer.pack(child));
  if (!record) return std::nullopt;
  return move_outcome(record->outcome());
}

class StrongSolverTest : public testing::TestWithParam<Variant> {
 protected:
  // One solve per variant, shared by the tests below.
  static const StrongTable& table_for(const Variant& variant) {
    static std::vector<std::pair<std::string, StrongTable>> solved;
    const std::string name = variant_name({variant, 0});
    for (const auto& [solved_name, table] : solved) {
      if (solved_name == name) return table;
    }
    solved.emplace_back(name, solve_strong(variant.game()));
    return solved.back().second;
  }
};

TEST_P(StrongSolverTest, KeysAreSortedCanonicalAndCounted) {
  const Rastros game = GetParam().game();
  const Canonicalizer canonicalizer(game.board());
  const StrongTable& table = table_for(GetParam());
  ASSERT_GT(table.size(), 0u);
  ASSERT_EQ(table.keys().size(), table.records().size());
  std::uint64_t counted = 0;
  for (std::uint64_t n : table.stats().positions_by_region) counted += n;
  EXPECT_EQ(counted, table.size());
  const PackedPosition start = canonicalizer.pack(game.start_position());
  EXPECT_NE(table.find(start), nullptr);
  for (std::size_t i = 0; i < table.size(); ++i) {
    const PackedPosition& key = table.keys()[i];
    if (i > 0) {
      ASSERT_LT(table.keys()[i - 1], key);
    }
    ASSERT_EQ(canonicalizer.pack(Canonicalizer::unpack(key)), key);
    ASSERT_EQ(table.find(key), &table.records()[i]);
    ASSERT_TRUE(key == start || !game.has_ended(Canonicalizer::unpack(key)));
  }
}

TEST_P(StrongSolverTest, EveryRecordAgreesWithAlphaBeta) {
  const Rastros game = GetParam().game();
  const StrongTable& table = table_for(GetParam());
  Solver solver(game);
  for (std::size_t i = 0; i < table.size(); ++i) {
    const PackedPosition& key = table.keys()[i];
    const StrongRecord& record = table.records()[i];
    const Outcome expected = solver.solve(Canonicalizer::unpack(key));
    ASSERT_EQ(record.outcome(), expected)
        << "key free=" << key.free << " snail=" << int{key.snail} << " stored "
        << to_string(record.value) << " " << int{record.remoteness};
    if (record.value == Value::draw) {
      ASSERT_EQ(record.remoteness, 0);
    }
  }
}

TEST_P(StrongSolverTest, EveryRecordFollowsFromItsChildren) {
  const Rastros game = GetParam().game();
  const Canonicalizer canonicalizer(game.board());
  const StrongTable& table = table_for(GetParam());
  for (std::size_t i = 0; i < table.size(); ++i) {
    const Position position = Canonicalizer::unpack(table.keys()[i]);
    const StrongRecord& record = table.records()[i];
    if (const auto ended = game.terminal_value(position)) {  // only a start with no move
      EXPECT_EQ(record.value, *ended);
      EXPECT_EQ(record.remoteness, 0);
      EXPECT_EQ(record.best_move, StrongRecord::kNoMove);
      continue;
    }
    std::optional<Outcome> best;
    for (Square move : game.legal_moves(position)) {
      const auto outcome = outcome_of_move(game, canonicalizer, table, position, move);
      ASSERT_TRUE(outcome.has_value()) << "a child of a stored position is missing";
      if (!best || score_of(*outcome) > score_of(*best)) best = outcome;
    }
    ASSERT_TRUE(best.has_value());
    ASSERT_EQ(record.outcome(), *best);
    ASSERT_TRUE(game.is_legal(position, record.best_move));
    ASSERT_EQ(outcome_of_move(game, canonicalizer, table, position, record.best_move), *best);
  }
}

TEST_P(StrongSolverTest, StoresExactlyThePositionsReachedByDepthFirstSearch) {
  const Rastros game = GetParam().game();
  const Canonicalizer canonicalizer(game.board());
  const StrongTable& table = table_for(GetParam());
  // Plain DFS over canonical keys: every position reached by a move that does not end the game.
  const PackedPosition start = canonicalizer.pack(game.start_position());
  std::set<PackedPosition> seen = {start};
  std::vector<PackedPosition> stack = {start};
  while (!stack.empty()) {
    const Position position = Canonicalizer::unpack(stack.back());
    stack.pop_back();
    for (Square move : game.legal_moves(position)) {
      const Position child = game.play(position, move);
      if (game.has_ended(child)) continue;
      const PackedPosition key = canonicalizer.pack(child);
      if (seen.insert(key).second) stack.push_back(key);
    }
  }
  ASSERT_EQ(table.size(), seen.size());
  EXPECT_TRUE(std::equal(seen.begin(), seen.end(), table.keys().begin()));
}

INSTANTIATE_TEST_SUITE_P(SmallBoards, StrongSolverTest, testing::ValuesIn(all_variants()),
                         variant_name);

TEST(StrongSolver, OneThreadAndAllThreadsGiveTheSameTable) {
  const Rastros game(Board(4, 5));
  oneapi::tbb::task_arena one_thread(1);
  StrongTable serial;
  one_thread.execute([&] { serial = solve_strong(game); });
  const StrongTable parallel = solve_strong(game);
  EXPECT_EQ(serial.keys(), parallel.keys());
  EXPECT_EQ(serial.records(), parallel.records());
}

TEST(StrongSolver, ReportsProgressPerLayer) {
  std::vector<std::string> lines;
  const StrongTable table =
      solve_strong(Rastros(Board(3, 3)), [&](const std::string& line) { lines.push_back(line); });
  // A forward and a backward line for every layer down to region size 1, then the table line.
  EXPECT_GE(lines.size(), 2u * static_cast<std::size_t>(table.stats().layer_count()) + 1);
  EXPECT_EQ(lines.back().rfind("table: ", 0), 0u);
}

TEST(StrongSolver, FiveByFiveKingAgreesWithAlphaBetaAtRandom) {
  const Rastros game(Board(5, 5));
  const auto start = std::chrono::steady_clock::now();
  const StrongTable table = solve_strong(game);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const StrongSolveStats& stats = table.stats();
  std::cout << "5x5 king standard: " << table.size() << " positions in " << stats.layer_count()
            << " layers, " << seconds << " s (forward " << stats.forward_seconds << " s, backward "
            << stats.backward_seconds << " s, table " << stats.table_seconds << " s), "
            << StrongTable::kBytesPerPosition << " bytes/position\n";
  RecordProperty("positions", std::to_string(table.size()));
  RecordProperty("seconds", std::to_string(seconds));

  Solver solver(game);
  const Canonicalizer canonicalizer(game.board());
  const StrongRecord* start_record = table.find(canonicalizer.pack(game.start_position()));
  ASSERT_NE(start_record, nullptr);
  EXPECT_EQ(start_record->outcome(), solver.solve(game.start_position()));

  std::mt19937_64 random(20240601);
  std::uniform_int_distribution<std::size_t> pick(0, table.size() - 1);
  for (int sample = 0; sample < 2000; ++sample) {
    const std::size_t i = pick(random);
    const Position position = Canonicalizer::unpack(table.keys()[i]);
    ASSERT_EQ(table.records()[i].outcome(), solver.solve(position))
        << "position " << position_string(game.board(), position);
  }
}

// The MPI solver values a key from its children's records listed once (value_of_children); the
// one-process solver recomputes every child (value_of). Both must give every stored record.
TEST(RetrogradeStep, ValueFromListedChildrenEqualsValueFromChildKeys) {
  for (const StuckRule rule : {StuckRule::loses, StuckRule::draws}) {
    const Rastros game(Board(4, 5), std::nullopt, rule);
    const StrongTable table = solve_strong(game);
    const RetrogradeStep step(game);
    const auto record_of = [&](const PackedPosition& child) {
      const StrongRecord* record = table.find(child);
      if (!record) throw std::logic_error("child missing from the table");
      return *record;
    };
    for (std::size_t i = 0; i < table.size(); ++i) {
      const PackedPosition& key = table.keys()[i];
      std::vector<RetrogradeStep::ChildRecord> children;
      step.for_each_stored_move(key, [&](Square move, const PackedPosition& child) {
        children.push_back({record_of(child), static_cast<std::uint8_t>(move)});
      });
      const StrongRecord listed = step.value_of_children(key, children);
      ASSERT_EQ(listed, step.value_of(key, record_of));
      ASSERT_EQ(listed, table.records()[i]);
    }
  }
}

TEST(SortedLayer, MergeOfSortedRunsVisitsEveryEntryInKeyOrder) {
  std::mt19937_64 random(7);
  std::vector<std::vector<LayerEntry>> runs(5);
  std::vector<LayerEntry> all;
  for (int i = 0; i < 3000; ++i) {
    // Distinct keys: the snail is i's low byte and the free mask its high bits, shuffled.
    const LayerEntry entry{(random() & ~std::uint64_t{0xff}) | static_cast<std::uint64_t>(i >> 8),
                           static_cast<std::uint8_t>(i & 0xff),
                           {}};
    runs[random() % 4].push_back(entry);  // run 4 stays empty
    all.push_back(entry);
  }
  std::vector<std::span<const LayerEntry>> spans;
  for (auto& run : runs) {
    std::sort(run.begin(), run.end(), key_less);
    spans.emplace_back(run);
  }
  std::sort(all.begin(), all.end(), key_less);
  std::vector<LayerEntry> merged;
  merge_sorted_runs(spans, [&](const LayerEntry& entry) { merged.push_back(entry); });
  ASSERT_EQ(merged.size(), all.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    ASSERT_TRUE(same_key(merged[i], all[i])) << i;
  }
}

// record_of narrows its search with a fence of every 64th key: every key of a finished layer
// is found with its own record, whatever the layer's size around the fence's stride, and keys
// that are not in the layer (below, between and above its keys) are refused.
TEST(SortedLayer, RecordOfFindsEveryKeyAndNoOther) {
  std::mt19937_64 random(11);
  for (const std::size_t size : {1u, 2u, 63u, 64u, 65u, 128u, 129u, 5000u}) {
    std::set<PackedPosition> keys;
    while (keys.size() < size) {
      // Even free masks only, so that each key's odd neighbour is never in the layer.
      keys.insert({(random() % 4096) * 2 + 2, static_cast<std::uint8_t>(random() % 3)});
    }
    SortedLayer layer;
    // Entered as three runs, with duplicates, as the forward pass enters them.
    std::vector<PackedPosition> order(keys.begin(), keys.end());
    std::shuffle(order.begin(), order.end(), random);
    for (std::size_t part = 0; part < 3; ++part) {
      const std::size_t from = layer.entries().size();
      for (std::size_t i = part * size / 3; i < (part + 1) * size / 3; ++i) {
        layer.entries().push_back(LayerEntry::of(order[i]));
        layer.entries().push_back(LayerEntry::of(order[i]));
      }
      layer.close_run(from);
    }
    layer.finish();
    ASSERT_EQ(layer.entries().size(), size);
    for (LayerEntry& entry : layer.entries()) {
      entry.record.remoteness = static_cast<std::uint8_t>(entry.free % 251);
    }
    for (const PackedPosition& key : keys) {
      ASSERT_EQ(layer.record_of(key).remoteness, key.free % 251) << size << " keys";
      EXPECT_THROW(layer.record_of({key.free + 1, key.snail}), std::logic_error);
    }
    EXPECT_THROW(layer.record_of({0, 0}), std::logic_error);
    EXPECT_THROW(layer.record_of({~std::uint64_t{0}, 0}), std::logic_error);
  }
}

TEST(DistinctKeys, NumbersEachKeyOnceInTheOrderFirstMet) {
  std::mt19937_64 random(5);
  DistinctKeys distinct;
  // Twice, to check that clear() forgets every key but keeps working with the grown slots.
  for (int round = 0; round < 2; ++round) {
    distinct.clear();
    // Far more keys than the first 4096 slots, drawn from a small range so that most repeat, and
    // keys that differ only in the snail byte.
    std::map<PackedPosition, std::size_t> expected;
    std::vector<PackedPosition> first_met;
    for (int i = 0; i < 60000; ++i) {
      const PackedPosition key{random() % 9000, static_cast<std::uint8_t>(random() % 3)};
      const auto [at, inserted] = expected.try_emplace(key, first_met.size());
      if (inserted) first_met.push_back(key);
      ASSERT_EQ(distinct.index_of(key), at->second) << "round " << round << ", key " << i;
    }
    ASSERT_EQ(distinct.size(), first_met.size());
    ASSERT_GT(first_met.size(), 8192u);  // the slots grew at least twice
    const std::vector<std::uint64_t>& words = distinct.words();
    ASSERT_EQ(words.size(), 2 * first_met.size());
    for (std::size_t k = 0; k < first_met.size(); ++k) {
      EXPECT_EQ(words[2 * k], first_met[k].free);
      EXPECT_EQ(words[2 * k + 1], first_met[k].snail);
    }
  }
}

}  // namespace
}  // namespace rastros
