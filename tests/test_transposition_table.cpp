// The transposition table (search/transposition_table.hpp) on its own: in both layouts, a probe
// finds only what was stored for that very key, with its bounds tightened by every store, and
// never another key's entry, however crowded the buckets; the compact layout holds value-only
// entries only, and is used only where the keys fit it.

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <thread>
#include <utility>
#include <vector>

#include "search/solver.hpp"
#include "search/transposition_table.hpp"

namespace rastros {
namespace {

struct Stored {
  Score lower;
  Score upper;
  int best_move;
};

/// Random keys of a board of `squares` squares (the free squares any subset, the snail any
/// square): drawn from few enough that the same keys come back and merge.
PackedPosition random_key(std::mt19937_64& rng, int squares, int distinct) {
  std::uniform_int_distribution<int> pick(0, distinct - 1);
  std::mt19937_64 keyed(static_cast<std::uint64_t>(pick(rng)) * 0x9E3779B97F4A7C15ull);
  const SquareMask all = squares == 64 ? ~SquareMask{0} : (SquareMask{1} << squares) - 1;
  return {keyed() & all, static_cast<std::uint8_t>(keyed() % static_cast<unsigned>(squares))};
}

/// Stores many entries into a table of the smallest size (thousands of keys per bucket index)
/// and checks every probe against a map of what was stored: a probe may miss (an entry was
/// replaced) but must never answer with bounds other than the merged ones of that key.
void check_against_map(TranspositionTable& table, int squares, bool value_only) {
  std::mt19937_64 rng(20261204);
  std::map<std::pair<SquareMask, int>, Stored> stored;
  int hits = 0;
  for (int round = 0; round < 200000; ++round) {
    const PackedPosition key = random_key(rng, squares, 40000);
    const auto id = std::make_pair(key.free, int{key.snail});
    if (round % 3 == 0) {
      const int kind = static_cast<int>(rng() % 4);
      // Value-only bounds are -1, 0, 1, or beyond (nothing known on that side).
      Score lower = kind == 0 ? -kScoreMax - 1 : static_cast<Score>(rng() % 3) - 1;
      Score upper = kind == 1 ? kScoreMax + 1 : std::max(lower, static_cast<Score>(rng() % 3) - 1);
      if (!value_only) {
        lower = static_cast<Score>(rng() % 201) - 100;
        upper = std::max<Score>(lower, static_cast<Score>(rng() % 201) - 100);
      }
      const int best_move = rng() % 5 == 0 ? -1 : static_cast<int>(rng() % squares);
      table.store(key, value_only, lower, upper, best_move, rng() % 100000);
      Stored& expected = stored.try_emplace(id, Stored{-1000, 1000, -1}).first->second;
      // The table forgets entries it replaces, so a later store may not merge with an earlier
      // one: only a probe right after it is compared exactly (below); here the last store wins
      // when the slot was lost, and merges otherwise.
      TableEntry entry;
      ASSERT_TRUE(table.probe(key, value_only, entry)) << "a store must be found at once";
      // The compact layout keeps a bound beyond -1 or +1 as that score.
      const Score clamped_lower = table.compact() ? std::max(lower, -1) : lower;
      const Score clamped_upper = table.compact() ? std::min(upper, 1) : upper;
      EXPECT_GE(entry.lower, clamped_lower);
      EXPECT_LE(entry.upper, clamped_upper);
      if (best_move >= 0) {
        EXPECT_EQ(entry.best_move, best_move);
      }
      expected = {entry.lower, entry.upper, entry.best_move};
    } else {
      TableEntry entry;
      if (!table.probe(key, value_only, entry)) continue;
      ++hits;
      const auto known = stored.find(id);
      ASSERT_NE(known, stored.end()) << "found an entry for a key never stored (free " << key.free
                                     << ", snail " << int{key.snail} << ")";
      EXPECT_EQ(entry.lower, known->second.lower);
      EXPECT_EQ(entry.upper, known->second.upper);
      EXPECT_EQ(entry.best_move, known->second.best_move);
    }
  }
  EXPECT_GT(hits, 1000) << "the test must find entries to compare";
}

TEST(TranspositionTable, CompactLayoutFindsOnlyTheKeysStored) {
  for (const int squares : {16, 25, 49, 56}) {
    // The smallest table the fit allows, so that most of the key is in the bucket's index.
    std::size_t bytes = kMinimumTableBytes;
    while (!TranspositionTable::compact_fits(squares, bytes / 64)) bytes *= 2;
    TranspositionTable table(bytes, nullptr, squares);
    ASSERT_TRUE(table.compact()) << squares << " squares";
    SCOPED_TRACE(std::to_string(squares) + " squares, " + std::to_string(bytes) + " bytes");
    check_against_map(table, squares, true);
  }
}

TEST(TranspositionTable, WideLayoutFindsOnlyTheKeysStored) {
  for (const int squares : {16, 49, 64}) {
    TranspositionTable table(kMinimumTableBytes);
    ASSERT_FALSE(table.compact());
    SCOPED_TRACE(std::to_string(squares) + " squares");
    check_against_map(table, squares, false);
    check_against_map(table, squares, true);
  }
}

TEST(TranspositionTable, CompactLayoutOnlyWhereTheKeysFit) {
  // 7x7: 55 key bits; 49 can be stored, so 64 buckets or more.
  EXPECT_TRUE(TranspositionTable::compact_fits(49, 64));
  EXPECT_FALSE(TranspositionTable::compact_fits(49, 32));
  // 8x7: 62 key bits, 8192 buckets (512 KiB) or more.
  EXPECT_TRUE(TranspositionTable::compact_fits(56, 8192));
  EXPECT_FALSE(TranspositionTable::compact_fits(56, 4096));
  // 8x8: 70 key bits never fit one word.
  EXPECT_FALSE(TranspositionTable::compact_fits(64, std::size_t{1} << 30));
  EXPECT_TRUE(TranspositionTable(std::size_t{8} << 20, nullptr, 56).compact());
  EXPECT_FALSE(TranspositionTable(kMinimumTableBytes, nullptr, 56).compact());
  EXPECT_FALSE(TranspositionTable(std::size_t{8} << 20, nullptr, 64).compact());
  EXPECT_FALSE(TranspositionTable(std::size_t{8} << 20).compact());
  // Twice the slots in the same bytes.
  EXPECT_EQ(TranspositionTable(std::size_t{1} << 20, nullptr, 49).slot_count(),
            2 * TranspositionTable(std::size_t{1} << 20).slot_count());
}

TEST(TranspositionTable, CompactEntriesAreValueOnlyWithBoundsMerged) {
  TranspositionTable table(kMinimumTableBytes, nullptr, 49);
  const PackedPosition key{0x1234'5678'9abcull, 24};
  TableEntry entry;
  table.store(key, true, 0, kScoreMax + 1, 17, 1000);
  EXPECT_FALSE(table.probe(key, false, entry)) << "a compact table holds no remoteness entries";
  ASSERT_TRUE(table.probe(key, true, entry));
  EXPECT_EQ(entry.lower, 0);
  EXPECT_EQ(entry.upper, 1) << "an upper bound beyond a win is kept as a win";
  EXPECT_EQ(entry.best_move, 17);
  table.store(key, true, -kScoreMax - 1, 0, -1, 3);  // tightens; no move: keeps the old one
  ASSERT_TRUE(table.probe(key, true, entry));
  EXPECT_EQ(entry.lower, 0);
  EXPECT_EQ(entry.upper, 0);
  EXPECT_EQ(entry.best_move, 17);
  // The same free squares with the snail elsewhere, or the mirror of the key, are other keys.
  EXPECT_FALSE(table.probe({key.free, 25}, true, entry));
  EXPECT_FALSE(table.probe({key.free ^ 1, 24}, true, entry));
  EXPECT_GT(table.fill(), 0.0);
}

TEST(TranspositionTable, ANewEntryReplacesTheLeastWorkedSlot) {
  // One bucket (a table of 64 bytes), so that every key shares it.
  for (const bool compact : {true, false}) {
    TranspositionTable table(64, nullptr, compact ? 16 : 0);
    ASSERT_EQ(table.compact(), compact);
    const int slots = static_cast<int>(table.slot_count());
    ASSERT_EQ(slots, compact ? 8 : 4);
    // Works 2^1 .. 2^slots nodes, but the least-worked is stored third.
    std::vector<PackedPosition> keys;
    for (int i = 0; i < slots; ++i) {
      keys.push_back({SquareMask{0x100u} + static_cast<SquareMask>(i), 3});
      const std::uint64_t nodes = i == 2 ? 1 : std::uint64_t{1} << (i + 4);
      table.store(keys.back(), true, 1, 1, -1, nodes);
    }
    const PackedPosition newcomer{0x555, 7};
    table.store(newcomer, true, -1, -1, -1, 2);
    TableEntry entry;
    EXPECT_TRUE(table.probe(newcomer, true, entry));
    for (int i = 0; i < slots; ++i) {
      EXPECT_EQ(table.probe(keys[i], true, entry), i != 2)
          << (compact ? "compact" : "wide") << ", key " << i;
    }
  }
}

TEST(TranspositionTable, ThreadsStoringAndProbingTheSameKeysAgree) {
  // Under ThreadSanitizer this checks the accesses are atomic; everywhere, that an entry read
  // while another thread writes is one that some thread stored.
  TranspositionTable table(kMinimumTableBytes, nullptr, 36);
  const auto work = [&](unsigned seed) {
    std::mt19937_64 rng(seed);
    for (int i = 0; i < 50000; ++i) {
      const PackedPosition key = random_key(rng, 36, 500);
      // Each key's bounds are a function of the key: any entry found must show them.
      const Score value = static_cast<Score>(key.free % 3) - 1;
      if (i % 2) {
        table.store(key, true, value, value, key.snail, 10);
      } else {
        TableEntry entry;
        if (table.probe(key, true, entry)) {
          EXPECT_EQ(entry.lower, value);
          EXPECT_EQ(entry.upper, value);
          EXPECT_EQ(entry.best_move, key.snail);
        }
      }
    }
  };
  std::thread other(work, 1u);
  work(2u);
  other.join();
}

}  // namespace
}  // namespace rastros
