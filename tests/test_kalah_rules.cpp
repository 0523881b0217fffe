// Kalah's rules and notation (games/kalah/) against an independent, deliberately naive
// reference written from the rules text (kalah_reference.hpp): sowing, extra turns, captures
// under both rules, laps, the end of the game, the search state seen from the side to move,
// keys, database ranks, and the text forms with their refusals.
//
// Every random choice comes from a fixed-seed std::mt19937_64 (plus RASTROS_TEST_SEED when set,
// for stress runs); every failure message names the variant, the position string and the move,
// so a failure reproduces from its message alone.

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/errors.hpp"
#include "games/kalah/kalah.hpp"
#include "games/kalah/kalah_position.hpp"
#include "kalah_reference.hpp"
#include "kalah_test_variant.hpp"
#include "sample_scale.hpp"

namespace {

using kalah_reference::RefGame;
using kalah_reference::RefPlay;
using kalah_reference::RefPosition;
using kalah_reference::RefRule;
using rastros::InputError;
using rastros::kalah::CaptureRule;
using rastros::kalah::Kalah;
using rastros::kalah::KalahMove;
using rastros::kalah::KalahPosition;
using rastros::kalah::KalahState;
namespace ref = kalah_reference;

constexpr int kMaxReported = 12;

using kalah_test::lib_game;
using kalah_test::ref_game;
using kalah_test::seeded;
using kalah_test::Variant;
using kalah_test::variant_name;

// Every variant with 1..6 houses and 1..6 seeds under both rules, and two with 7 and 8 houses.
std::vector<Variant> all_variants() {
  std::vector<Variant> variants;
  for (RefRule rule : {RefRule::standard, RefRule::empty_capture}) {
    for (int m = 1; m <= 6; ++m) {
      for (int n = 1; n <= 6; ++n) variants.push_back({m, n, rule});
    }
    variants.push_back({7, 3, rule});
    variants.push_back({8, 2, rule});
  }
  return variants;
}

KalahState state_of(const std::vector<int>& view) {
  KalahState state{};
  for (std::size_t i = 0; i < view.size(); ++i) state.houses[i] = static_cast<std::uint8_t>(view[i]);
  return state;
}

std::string view_text(const std::vector<int>& view) {
  std::string text;
  for (std::size_t i = 0; i < view.size(); ++i) text += (i ? "," : "") + std::to_string(view[i]);
  return text;
}

std::string state_text(const KalahState& state) {
  std::string text;
  for (std::size_t i = 0; i < state.houses.size(); ++i) text += (i ? "," : "") + std::to_string(state.houses[i]);
  return text;
}

std::string lib_text(const RefGame& game, const KalahPosition& position) {
  return ref::ref_position_string(game, ref::from_library(game, position));
}

// Where a variant and position are named in messages.
std::string where(const Variant& v, const RefPosition& position) {
  return variant_name(v) + " position '" + ref::ref_position_string(ref_game(v), position) + "'";
}

// Counts of what the checked moves exercised, so that a test can insist on coverage.
struct Coverage {
  long moves = 0;
  long again = 0;
  long captures = 0;
  long empty_captures = 0;  // empty-capture rule, the opposite house empty
  long laps = 0;
  long lap_to_origin = 0;  // last seed back in the emptied house after a lap
  long endings = 0;
};

// Checks every rule-level fact about `position` against the reference: legal moves, the end,
// the stores, the search state, the text form; and every legal move by both the position's
// play and the state's play. Returns the first disagreement, or "" when all agree.
std::string check_position(const Variant& v, const Kalah& game, const RefPosition& position,
                           Coverage& coverage) {
  const RefGame rg = ref_game(v);
  const KalahPosition lib = ref::to_library<KalahPosition>(rg, position);
  const bool ended = ref::ref_ended(rg, position);
  const std::string at = where(v, position);

  // The position as a whole.
  if (rastros::kalah::has_ended(game, lib) != ended) return at + ": has_ended disagrees";
  const auto [first, second] = ref::ref_final_stores(rg, position);
  if (ended) {
    const auto stores = rastros::kalah::final_stores(game, lib);
    if (stores[0] != first || stores[1] != second) {
      return at + ": final_stores " + std::to_string(stores[0]) + "," + std::to_string(stores[1]) +
             ", rules give " + std::to_string(first) + "," + std::to_string(second);
    }
  }
  if (rastros::kalah::store_margin(lib) != ref::ref_store_margin(rg, position)) {
    return at + ": store_margin disagrees";
  }
  const std::string text = rastros::kalah::position_string(game, lib);
  if (text != ref::ref_position_string(rg, position)) return at + ": position_string gives '" + text + "'";
  KalahPosition parsed;
  try {
    parsed = rastros::kalah::parse_position(game, text);
  } catch (const InputError& e) {
    return at + ": parse_position refuses its own string: " + e.what();
  }
  if (parsed != lib) return at + ": parse_position(position_string) gives '" + lib_text(rg, parsed) + "'";

  // The search state, seen from the side to move.
  const int me = position.to_move;
  const KalahState state = rastros::kalah::search_state(game, lib);
  const std::vector<int> view = ref::ref_view(rg, position, me);
  if (!(state == state_of(view))) {
    return at + ": search_state gives " + state_text(state) + ", expected " + view_text(view);
  }
  if (game.is_terminal(state) != ended) return at + ": is_terminal disagrees";
  if (game.seeds_in_play(state) != ref::ref_houses_seeds(rg, position)) return at + ": seeds_in_play disagrees";
  if (ended) {
    const int expected = ref::ref_final_margin(rg, position, me) - ref::ref_store_margin(rg, position);
    if (game.terminal_score(state) != expected) {
      return at + ": terminal_score " + std::to_string(game.terminal_score(state)) + ", rules give " +
             std::to_string(expected);
    }
  }
  const std::vector<int> moves = ref::ref_moves(rg, position);
  const auto lib_moves = game.legal_moves(state);
  std::vector<int> got(lib_moves.begin(), lib_moves.end());
  if (got != moves) return at + ": legal_moves " + view_text(got) + ", rules give " + view_text(moves);

  for (int move : moves) {
    const std::string what = at + " move " + std::to_string(move + 1);
    const RefPlay played = ref::ref_play(rg, position, move);
    ++coverage.moves;
    coverage.again += played.again;
    coverage.captures += played.capture;
    coverage.laps += played.lapped;
    coverage.endings += played.ended;
    coverage.empty_captures += played.lone_capture;

    // The position's play.
    const KalahPosition after = rastros::kalah::play(game, lib, static_cast<KalahMove>(move));
    const KalahPosition expected = ref::to_library<KalahPosition>(rg, played.after);
    if (!played.ended) {
      if (after != expected) {
        return what + ": play gives '" + lib_text(rg, after) + "', rules give '" +
               ref::ref_position_string(rg, played.after) + "'";
      }
    } else {
      if (!rastros::kalah::has_ended(game, after)) {
        return what + ": ends the game, but play gives '" + lib_text(rg, after) + "' not ended";
      }
      const auto stores = rastros::kalah::final_stores(game, after);
      const auto [a, b] = ref::ref_final_stores(rg, played.after);
      if (stores[0] != a || stores[1] != b) {
        return what + ": ends the game with final stores " + std::to_string(a) + "," + std::to_string(b) +
               ", play gives '" + lib_text(rg, after) + "'";
      }
      // The houses left as they are, or already added to the stores: either is the same end.
      bool same = after.rows == expected.rows && after.stores == expected.stores;
      bool swept = after.stores[0] == a && after.stores[1] == b;
      for (int p = 0; p < 2; ++p) {
        for (int i = 0; i < v.houses; ++i) swept = swept && after.rows[p][i] == 0;
      }
      if (!same && !swept) {
        return what + ": ends the game, play gives '" + lib_text(rg, after) + "', rules give '" +
               ref::ref_position_string(rg, played.after) + "' before the houses are taken";
      }
    }

    // The state's play.
    const auto result = game.play(state, static_cast<KalahMove>(move));
    if (result.gain != played.gain) {
      return what + ": gain " + std::to_string(result.gain) + ", rules give " + std::to_string(played.gain);
    }
    if (!played.ended && result.again != played.again) return what + ": again disagrees";
    // Seen from whoever moves next (after an ending move, as the library says it goes on).
    const int next_view = result.again ? me : 1 - me;
    const std::vector<int> next = ref::ref_view(rg, played.after, next_view);
    if (!(result.next == state_of(next))) {
      return what + ": next state " + state_text(result.next) + ", rules give " + view_text(next);
    }
    if (game.is_terminal(result.next) != played.ended) return what + ": is_terminal(next) disagrees";
    if (played.ended) {
      const int future = result.gain + (result.again ? 1 : -1) * game.terminal_score(result.next);
      const int expected_future =
          ref::ref_final_margin(rg, played.after, me) - ref::ref_store_margin(rg, position);
      if (future != expected_future) {
        return what + ": the ending move's margin " + std::to_string(future) + ", rules give " +
               std::to_string(expected_future);
      }
    }
  }
  return "";
}

// Counts the moves whose sowing goes round and ends back in the emptied house.
void count_special(const Variant& v, const RefPosition& position, Coverage& coverage) {
  const RefGame rg = ref_game(v);
  for (int move : ref::ref_moves(rg, position)) {
    const int me = position.to_move;
    const int start = rg.house(me, move);
    const int seeds = position.pits[start];
    // The pit of the last seed: the ring without the opponent's store has 2M+1 pits.
    const int loop = 2 * rg.houses + 1;
    int pit = start;
    for (int s = 0; s < seeds; ++s) {
      pit = (pit + 1) % rg.ring();
      if (pit == rg.store(1 - me)) pit = (pit + 1) % rg.ring();
    }
    if (seeds % loop == 0 && pit == start) ++coverage.lap_to_origin;
  }
}

// A position with a row of each side non-empty or not, built one of several ways.
template <class Rng>
RefPosition random_position(const Variant& v, Rng& rng, int kind) {
  const RefGame rg = ref_game(v);
  switch (kind % 4) {
    case 0:  // a random game, any length, possibly ended
      return ref::ref_random_game(rg, rng, std::uniform_int_distribution<int>(0, 80)(rng), false).position;
    case 1:  // a random game kept going
      return ref::ref_random_game(rg, rng, std::uniform_int_distribution<int>(0, 80)(rng), true).position;
    case 2:  // seeds spread at random over the houses
      return ref::ref_random_position(rg, rng, std::uniform_int_distribution<int>(0, rg.total())(rng), false);
    default:  // clumped: big houses, laps
      return ref::ref_random_position(rg, rng, std::uniform_int_distribution<int>(1, rg.total())(rng), true);
  }
}

TEST(KalahRules, StartPositionAndStrings) {
  const Kalah game(6, 4);
  const KalahPosition start = rastros::kalah::start_position(game);
  EXPECT_EQ(rastros::kalah::position_string(game, start), "4,4,4,4,4,4,0/4,4,4,4,4,4,0 1");
  EXPECT_EQ(start.to_move, 0);
  EXPECT_EQ(rastros::kalah::parse_position(game, "4,4,4,4,4,4,0/4,4,4,4,4,4,0 1"), start);
  for (const Variant& v : all_variants()) {
    const Kalah g = lib_game(v);
    const RefGame rg = ref_game(v);
    EXPECT_EQ(rastros::kalah::start_position(g), ref::to_library<KalahPosition>(rg, ref::ref_start(rg)))
        << variant_name(v);
    EXPECT_EQ(g.start(), state_of(ref::ref_view(rg, ref::ref_start(rg), 0))) << variant_name(v);
    EXPECT_EQ(g.total_seeds(), rg.total());
  }
  // Hand-worked moves of Kalah(6,4): house 3 ends in the store (another turn); house 1 ends in
  // house 5; then player 2's house 6 sows into player 1's houses and skips no store.
  KalahPosition p = rastros::kalah::play(game, start, 2);
  EXPECT_EQ(rastros::kalah::position_string(game, p), "4,4,0,5,5,5,1/4,4,4,4,4,4,0 1");
  p = rastros::kalah::play(game, p, 0);
  EXPECT_EQ(rastros::kalah::position_string(game, p), "0,5,1,6,6,5,1/4,4,4,4,4,4,0 2");
  p = rastros::kalah::play(game, p, 5);
  EXPECT_EQ(rastros::kalah::position_string(game, p), "1,6,2,6,6,5,1/4,4,4,4,4,0,1 1");
  // A capture: player 1's house 1 (1 seed) ends in the empty house 2, facing player 2's house 5.
  const KalahPosition capture = rastros::kalah::parse_position(game, "1,0,4,4,4,4,10/4,4,4,4,5,0,0 1");
  EXPECT_EQ(rastros::kalah::position_string(game, rastros::kalah::play(game, capture, 0)),
            "0,0,4,4,4,4,16/4,4,4,4,0,0,0 2");  // house 2 faces player 2's house 5
  // Player 1's house 6 with 13 seeds: a full lap, the last seed back in house 6, which was
  // emptied: it banks player 2's house 1 (4 + 1 sown) and the last seed, besides the seed sown
  // into the store.
  const KalahPosition lap = rastros::kalah::parse_position(game, "1,1,1,1,1,13,0/4,4,4,4,4,4,6 1");
  EXPECT_EQ(rastros::kalah::position_string(game, rastros::kalah::play(game, lap, 5)),
            "2,2,2,2,2,0,7/0,5,5,5,5,5,6 2");
}

// Every legal move of thousands of positions of every variant: from random games, from seeds
// spread at random, and from seeds clumped into big houses (laps).
TEST(KalahRules, PlayAgainstReferenceOnRandomPositions) {
  std::mt19937_64 rng(seeded(20240611));
  Coverage coverage;
  long positions = 0;
  int reported = 0;
  for (const Variant& v : all_variants()) {
    const Kalah game = lib_game(v);
    for (int i = 0; i < 600; ++i) {
      const RefPosition position = random_position(v, rng, i);
      ++positions;
      count_special(v, position, coverage);
      const std::string error = check_position(v, game, position, coverage);
      if (!error.empty() && reported++ < kMaxReported) ADD_FAILURE() << error;
    }
  }
  EXPECT_EQ(reported, 0);
  std::cout << "[ coverage ] " << positions << " positions, " << coverage.moves << " moves: "
            << coverage.again << " again, " << coverage.captures << " captures ("
            << coverage.empty_captures << " empty), " << coverage.laps << " laps ("
            << coverage.lap_to_origin << " back to the start house), " << coverage.endings
            << " endings\n";
  EXPECT_GT(positions, 40000);
  // The sample must exercise every rule: another turn, captures, laps, laps back to the start
  // house, empty captures, endings.
  EXPECT_GT(coverage.moves, 50000);
  EXPECT_GT(coverage.again, 2000);
  EXPECT_GT(coverage.captures, 2000);
  EXPECT_GT(coverage.empty_captures, 200);
  EXPECT_GT(coverage.laps, 2000);
  EXPECT_GT(coverage.lap_to_origin, 50);
  EXPECT_GT(coverage.endings, 1000);
}

// Big houses: one house of the mover holds 1..total seeds, the others at random; exactly one
// lap, two laps and one seed more or fewer are all reached.
TEST(KalahRules, BigHousesAndLaps) {
  std::mt19937_64 rng(seeded(77));
  Coverage coverage;
  int reported = 0;
  for (const Variant& v : all_variants()) {
    const Kalah game = lib_game(v);
    const RefGame rg = ref_game(v);
    const int loop = 2 * v.houses + 1;
    std::vector<int> sizes;
    for (int k : {loop - 1, loop, loop + 1, 2 * loop - 1, 2 * loop, 2 * loop + 1, 3 * loop, rg.total()}) {
      if (k >= 1 && k <= rg.total()) sizes.push_back(k);
    }
    for (int i = 0; i < 60; ++i) {
      const int big = i < int(sizes.size()) * 4 ? sizes[i % sizes.size()]
                                                : std::uniform_int_distribution<int>(1, rg.total())(rng);
      const int me = i % 2;
      const int house = std::uniform_int_distribution<int>(0, v.houses - 1)(rng);
      // The rest of the seeds: some in houses, the rest in the stores.
      const int rest = rg.total() - big;
      RefPosition position = ref::ref_random_position(rg, rng, std::uniform_int_distribution<int>(0, rest)(rng), false);
      // Move every seed of the start house elsewhere (a store) and put `big` there.
      position.pits[rg.store(0)] += position.pits[rg.house(me, house)];
      position.pits[rg.house(me, house)] = 0;
      int excess = big;
      for (int pit : {rg.store(0), rg.store(1)}) {
        const int take = std::min(excess, position.pits[pit]);
        position.pits[pit] -= take;
        excess -= take;
      }
      // Not enough in the stores: take from other houses.
      for (int pit = 0; excess > 0 && pit < rg.ring(); ++pit) {
        const int take = std::min(excess, position.pits[pit]);
        position.pits[pit] -= take;
        excess -= take;
      }
      position.pits[rg.house(me, house)] = big;
      position.to_move = me;
      int sum = 0;
      for (int x : position.pits) sum += x;
      ASSERT_EQ(sum, rg.total());
      count_special(v, position, coverage);
      const std::string error = check_position(v, game, position, coverage);
      if (!error.empty() && reported++ < kMaxReported) ADD_FAILURE() << error;
    }
  }
  EXPECT_EQ(reported, 0);
  EXPECT_GT(coverage.laps, 1000);
  EXPECT_GT(coverage.lap_to_origin, 100);
}

// Every state of the small variants (all ways of putting 0..2MN seeds in the 2M houses), both
// rules, every legal move of each, through the state API and through positions (player 1 and
// player 2 to move).
TEST(KalahRules, PlayAgainstReferenceOnEveryStateOfSmallVariants) {
  int reported = 0;
  long states = 0;
  Coverage coverage;
  for (const Variant& v : all_variants()) {
    const RefGame rg = ref_game(v);
    unsigned long long count = 0;
    for (int s = 0; s <= rg.total(); ++s) count += ref::ref_distributions(2 * v.houses, s);
    if (count > (rastros::testing_scale::kSanitized ? 40000 : 150000)) continue;
    const Kalah game = lib_game(v);
    for (int s = 0; s <= rg.total(); ++s) {
      ref::ref_for_each_distribution(2 * v.houses, s, [&](const std::vector<int>& view) {
        ++states;
        RefPosition position = ref::ref_from_view(rg, view);
        std::string error = check_position(v, game, position, coverage);
        // The same houses with player 2 to move: mirror the rows.
        RefPosition mirrored = position;
        for (int i = 0; i < v.houses; ++i) {
          mirrored.pits[rg.house(1, i)] = view[i];
          mirrored.pits[rg.house(0, i)] = view[v.houses + i];
        }
        mirrored.pits[rg.store(1)] = position.pits[rg.store(0)];
        mirrored.pits[rg.store(0)] = 0;
        mirrored.to_move = 1;
        if (error.empty()) error = check_position(v, game, mirrored, coverage);
        if (!error.empty() && reported++ < kMaxReported) ADD_FAILURE() << error;
      });
    }
  }
  EXPECT_EQ(reported, 0);
  EXPECT_GT(states, rastros::testing_scale::kSanitized ? 20000 : 100000);
}

// Random games played to the end through the notation: parse_moves of the game's text gives
// its moves, the positions after each move agree with the reference, and a move after the end
// is refused.
TEST(KalahRules, GamesThroughTheNotation) {
  std::mt19937_64 rng(seeded(99));
  int reported = 0;
  for (const Variant& v : all_variants()) {
    const Kalah game = lib_game(v);
    const RefGame rg = ref_game(v);
    for (int g = 0; g < 20; ++g) {
      const ref::RefRecord record = ref::ref_random_full_game(rg, rng);
      std::vector<KalahMove> moves;
      std::string text;
      for (int m : record.moves) {
        moves.push_back(static_cast<KalahMove>(m));
        text += (text.empty() ? "" : " ") + std::to_string(m + 1);
      }
      const std::string at = variant_name(v) + " game '" + text + "'";
      EXPECT_EQ(rastros::kalah::moves_text(moves), text) << at;
      std::vector<KalahMove> parsed;
      try {
        parsed = rastros::kalah::parse_moves(game, text);
      } catch (const InputError& e) {
        ADD_FAILURE() << at << ": refused: " << e.what();
        continue;
      }
      EXPECT_EQ(parsed, moves) << at;
      // Replay through the library and compare each step.
      KalahPosition lib = rastros::kalah::start_position(game);
      RefPosition position = ref::ref_start(rg);
      for (std::size_t i = 0; i < moves.size(); ++i) {
        EXPECT_EQ(rastros::kalah::parse_move(game, lib, std::to_string(moves[i] + 1)), moves[i]) << at;
        EXPECT_EQ(rastros::kalah::move_name(moves[i]), std::to_string(moves[i] + 1));
        const RefPlay played = ref::ref_play(rg, position, moves[i]);
        lib = rastros::kalah::play(game, lib, moves[i]);
        position = played.after;
        if (!played.ended && lib != ref::to_library<KalahPosition>(rg, position) && reported++ < kMaxReported) {
          ADD_FAILURE() << at << " after " << i + 1 << " moves: library '" << lib_text(rg, lib)
                        << "', rules '" << ref::ref_position_string(rg, position) << "'";
        }
      }
      EXPECT_TRUE(rastros::kalah::has_ended(game, lib)) << at;
      const auto stores = rastros::kalah::final_stores(game, lib);
      const auto [a, b] = ref::ref_final_stores(rg, position);
      EXPECT_EQ(stores[0], a) << at;
      EXPECT_EQ(stores[1], b) << at;
      // Any move after the end is refused.
      for (int house = 1; house <= v.houses; ++house) {
        EXPECT_THROW(rastros::kalah::parse_moves(game, text + " " + std::to_string(house)), InputError)
            << at << " then " << house;
        EXPECT_THROW(rastros::kalah::parse_move(game, lib, std::to_string(house)), InputError)
            << at << " then " << house;
      }
    }
  }
  EXPECT_EQ(reported, 0);
}

// key(): no two distinct states share one. Every state of the small variants, and a large
// random sample (clumped and spread, every seed count) of the bigger ones.
TEST(KalahRules, KeysAreInjective) {
  std::mt19937_64 rng(seeded(5));
  for (const Variant& v : all_variants()) {
    if (v.rule != RefRule::standard) continue;  // the key depends on the houses only
    const Kalah game = lib_game(v);
    const RefGame rg = ref_game(v);
    unsigned long long count = 0;
    for (int s = 0; s <= rg.total(); ++s) count += ref::ref_distributions(2 * v.houses, s);
    std::unordered_map<std::uint64_t, std::vector<int>> seen;
    int reported = 0;
    auto add = [&](const std::vector<int>& view) {
      const std::uint64_t key = game.key(state_of(view));
      const auto [it, inserted] = seen.emplace(key, view);
      if (!inserted && it->second != view && reported++ < kMaxReported) {
        ADD_FAILURE() << variant_name(v) << ": states " << view_text(view) << " and "
                      << view_text(it->second) << " share key " << key;
      }
    };
    if (count <= 300000) {
      // Every state once: as many distinct keys as states.
      std::unordered_set<std::uint64_t> keys;
      keys.reserve(count);
      for (int s = 0; s <= rg.total(); ++s) {
        ref::ref_for_each_distribution(2 * v.houses, s, [&](const std::vector<int>& view) {
          keys.insert(game.key(state_of(view)));
        });
      }
      EXPECT_EQ(keys.size(), count) << variant_name(v) << ": states share keys";
    } else {
      for (int i = 0; i < 6000; ++i) {
        const int in_houses = std::uniform_int_distribution<int>(0, rg.total())(rng);
        const RefPosition position = ref::ref_random_position(rg, rng, in_houses, i % 2 == 1);
        add(ref::ref_view(rg, position, 0));
      }
      // Neighbours: one seed moved between two houses, which a weak key mixes up first.
      for (int i = 0; i < 6000; ++i) {
        const RefPosition position = ref::ref_random_position(rg, rng, std::uniform_int_distribution<int>(1, rg.total())(rng), false);
        std::vector<int> view = ref::ref_view(rg, position, 0);
        add(view);
        const int from = std::uniform_int_distribution<int>(0, 2 * v.houses - 1)(rng);
        const int to = std::uniform_int_distribution<int>(0, 2 * v.houses - 1)(rng);
        if (view[from] > 0) {
          --view[from];
          ++view[to];
          add(view);
        }
      }
    }
    EXPECT_EQ(reported, 0) << variant_name(v);
  }
}

// level_rank / level_unrank: for every seed count of the small variants, every state's rank is
// in 0..level_size-1, no two share one (with as many states as level_size: dense), and unrank
// gives the state back. On bigger variants, random ranks and random states.
TEST(KalahRules, LevelRankIsDenseAndInverse) {
  std::mt19937_64 rng(seeded(11));
  long exhaustive = 0;
  for (const Variant& v : all_variants()) {
    if (v.rule != RefRule::standard) continue;
    const Kalah game = lib_game(v);
    const RefGame rg = ref_game(v);
    const int cells = 2 * v.houses;
    unsigned long long count = 0;
    for (int s = 0; s <= rg.total(); ++s) count += ref::ref_distributions(cells, s);
    int reported = 0;
    for (int s = 0; s <= rg.total(); ++s) {
      const std::uint64_t size = game.level_size(s);
      ASSERT_EQ(size, ref::ref_distributions(cells, s)) << variant_name(v) << " seeds " << s;
      if (count <= 300000) {
        std::vector<bool> used(size, false);
        ref::ref_for_each_distribution(cells, s, [&](const std::vector<int>& view) {
          ++exhaustive;
          const KalahState state = state_of(view);
          const std::uint64_t rank = game.level_rank(state);
          if (rank >= size || used[rank]) {
            if (reported++ < kMaxReported) {
              ADD_FAILURE() << variant_name(v) << " seeds " << s << ": state " << view_text(view)
                            << " has rank " << rank << (rank >= size ? " out of range" : " twice");
            }
            return;
          }
          used[rank] = true;
          const KalahState back = game.level_unrank(s, rank);
          if (!(back == state) && reported++ < kMaxReported) {
            ADD_FAILURE() << variant_name(v) << " seeds " << s << ": unrank(rank(" << view_text(view)
                          << ")) = " << state_text(back);
          }
        });
        EXPECT_TRUE(std::all_of(used.begin(), used.end(), [](bool b) { return b; }))
            << variant_name(v) << " seeds " << s;
      } else {
        for (int i = 0; i < 200; ++i) {
          const std::uint64_t rank = std::uniform_int_distribution<std::uint64_t>(0, size - 1)(rng);
          const KalahState state = game.level_unrank(s, rank);
          int sum = 0;
          for (int c = 0; c < cells; ++c) sum += state.houses[c];
          for (int c = cells; c < int(state.houses.size()); ++c) EXPECT_EQ(state.houses[c], 0);
          EXPECT_EQ(sum, s) << variant_name(v) << " rank " << rank;
          EXPECT_EQ(game.level_rank(state), rank) << variant_name(v) << " seeds " << s << " " << state_text(state);
        }
        if (s > 0) {
          const RefPosition position = ref::ref_random_position(rg, rng, s, s % 2 == 1);
          const KalahState state = state_of(ref::ref_view(rg, position, 0));
          const std::uint64_t rank = game.level_rank(state);
          EXPECT_LT(rank, size);
          EXPECT_EQ(game.level_unrank(s, rank), state) << variant_name(v) << " " << state_text(state);
        }
        // The ends of the range.
        EXPECT_EQ(game.level_rank(game.level_unrank(s, 0)), 0u);
        EXPECT_EQ(game.level_rank(game.level_unrank(s, size - 1)), size - 1);
      }
    }
    EXPECT_EQ(reported, 0) << variant_name(v);
  }
  EXPECT_GT(exhaustive, 100000);
}

TEST(KalahRules, ParsePositionRefusesMalformedText) {
  const Kalah game(6, 4);
  // Accepted: the start, a finished game (a row empty), player 2 to move.
  EXPECT_NO_THROW(rastros::kalah::parse_position(game, "4,4,4,4,4,4,0/4,4,4,4,4,4,0 1"));
  EXPECT_NO_THROW(rastros::kalah::parse_position(game, "4,4,4,4,4,4,0/4,4,4,4,4,4,0 2"));
  const KalahPosition done = rastros::kalah::parse_position(game, "0,0,0,0,0,0,20/4,4,4,4,4,4,4 1");
  EXPECT_TRUE(rastros::kalah::has_ended(game, done));
  EXPECT_EQ(rastros::kalah::final_stores(game, done), (std::array<int, 2>{20, 28}));
  EXPECT_EQ(game.terminal_score(rastros::kalah::search_state(game, done)), -24);
  const KalahPosition big = rastros::kalah::parse_position(game, "0,0,0,0,0,40,0/0,0,0,0,0,8,0 2");
  EXPECT_EQ(big.rows[0][5], 40);
  EXPECT_EQ(big.to_move, 1);

  const char* bad[] = {
      "",
      "4,4,4,4,4,4,0/4,4,4,4,4,4,0",      // no side to move
      "4,4,4,4,4,4,0/4,4,4,4,4,4,01",     // no space before the side
      "4,4,4,4,4,4,0/4,4,4,4,4,4,0 3",    // side 3
      "4,4,4,4,4,4,0/4,4,4,4,4,4,0 0",    // side 0
      "4,4,4,4,4,4,0/4,4,4,4,4,4,0 x",    // side not a number
      "4,4,4,4,4,4,0/4,4,4,4,4,4,0 1 2",  // something after the side
      "4,4,4,4,4,4,0/4,4,4,4,4,4,0 12",   // side 12
      "4,4,4,4,4,4,0 4,4,4,4,4,4,0 1",    // no '/'
      "4,4,4,4,4,4,0/4,4,4,4,4,4,0/0 1",  // three rows
      "4,4,4,4,8,0/4,4,4,4,4,4,0 1",      // 5 houses (seeds still 48)
      "4,4,4,4,4,2,2,0/4,4,4,4,4,4,0 1",  // 7 houses (seeds still 48)
      "4,4,4,4,4,4,0/4,4,4,4,4,4,4,-4 1", // 7 houses on player 2's side
      "4,4,4,4,4,4/4,4,4,4,4,4,0 1",      // no store (6 numbers, seeds 44)
      "4,4,4,4,4,4,1/4,4,4,4,4,4,0 1",    // 49 seeds
      "4,4,4,4,4,4,0/4,4,4,4,4,3,0 1",    // 47 seeds
      "4,4,a,4,4,4,0/4,4,4,4,4,4,0 1",    // a letter
      "4,4,4a,4,4,4,0/4,4,4,4,4,4,0 1",   // a letter after a number
      "4,,4,4,4,4,4,4/4,4,4,4,4,4,0 1",   // an empty field
      "4,4,4,4,4,4,0,/4,4,4,4,4,4,0 1",   // a trailing comma
      "-1,4,4,4,4,9,0/4,4,4,4,4,4,0 1",   // a negative house (seeds still 48)
      "4,4,4,4,4,4,0/4,4,4,4,4,4,-0x 1",  // junk
      "99999999999999999999,4,4,4,4,4,0/4,4,4,4,4,4,0 1",  // overflow
      "4;4;4;4;4;4;0/4;4;4;4;4;4;0 1",    // other separators
  };
  for (const char* text : bad) {
    EXPECT_THROW(rastros::kalah::parse_position(game, text), InputError) << "'" << text << "'";
  }
  // The same start string is not a position of another variant.
  EXPECT_THROW(rastros::kalah::parse_position(Kalah(5, 4), "4,4,4,4,4,4,0/4,4,4,4,4,4,0 1"), InputError);
  EXPECT_THROW(rastros::kalah::parse_position(Kalah(6, 3), "4,4,4,4,4,4,0/4,4,4,4,4,4,0 1"), InputError);
  EXPECT_NO_THROW(rastros::kalah::parse_position(Kalah(1, 1), "1,0/1,0 2"));
  EXPECT_THROW(rastros::kalah::parse_position(Kalah(1, 1), "1,0/1,0,0 2"), InputError);
}

TEST(KalahRules, ParseMoveAndMovesRefuseMalformedText) {
  const Kalah game(6, 4);
  const KalahPosition start = rastros::kalah::start_position(game);
  for (int house = 1; house <= 6; ++house) {
    EXPECT_EQ(rastros::kalah::parse_move(game, start, std::to_string(house)), house - 1);
  }
  for (const char* text : {"0", "7", "8", "12", "-1", "", " ", "a", "1a", "a1", "3.0", "1 2",
                           "99999999999999999999"}) {
    EXPECT_THROW(rastros::kalah::parse_move(game, start, text), InputError) << "'" << text << "'";
  }
  // An empty house: after 3 (last seed in the store, player 1 again), house 3 is empty.
  const KalahPosition after3 = rastros::kalah::play(game, start, 2);
  EXPECT_EQ(after3.to_move, 0);
  EXPECT_THROW(rastros::kalah::parse_move(game, after3, "3"), InputError);
  EXPECT_EQ(rastros::kalah::parse_move(game, after3, "4"), 3);
  // Player 2 to move: houses are counted on player 2's side.
  const KalahPosition p2 = rastros::kalah::parse_position(game, "4,4,4,4,4,4,0/0,4,4,4,4,8,0 2");
  EXPECT_THROW(rastros::kalah::parse_move(game, p2, "1"), InputError);
  EXPECT_EQ(rastros::kalah::parse_move(game, p2, "6"), 5);

  // Games.
  EXPECT_EQ(rastros::kalah::parse_moves(game, "3 6 1"), (std::vector<KalahMove>{2, 5, 0}));
  EXPECT_EQ(rastros::kalah::parse_moves(game, "3"), (std::vector<KalahMove>{2}));
  for (const char* text : {"3 3",      // house 3 emptied by the first move, player 1 again
                           "0", "7", "3 6 7", "a", "3 x", "3 6 1a", "3,6", "-3",
                           "1 2 3 4 5 6 0"}) {
    EXPECT_THROW(rastros::kalah::parse_moves(game, text), InputError) << "'" << text << "'";
  }
  // Moves after the end, on the smallest game: Kalah(1,1) ends with the first move.
  const Kalah tiny(1, 1);
  EXPECT_EQ(rastros::kalah::parse_moves(tiny, "1"), (std::vector<KalahMove>{0}));
  EXPECT_THROW(rastros::kalah::parse_moves(tiny, "1 1"), InputError);
  EXPECT_THROW(rastros::kalah::parse_moves(tiny, "2"), InputError);
}

TEST(KalahRules, VariantsAndRuleNames) {
  EXPECT_EQ(rastros::kalah::parse_rules("standard"), CaptureRule::standard);
  EXPECT_EQ(rastros::kalah::parse_rules("empty-capture"), CaptureRule::empty_capture);
  EXPECT_EQ(rastros::kalah::rules_name(CaptureRule::standard), "standard");
  EXPECT_EQ(rastros::kalah::rules_name(CaptureRule::empty_capture), "empty-capture");
  for (const char* text : {"", "Standard", "empty_capture", "empty", "x"}) {
    EXPECT_THROW(rastros::kalah::parse_rules(text), InputError) << text;
  }
  EXPECT_THROW(Kalah(0, 4), InputError);
  EXPECT_THROW(Kalah(9, 4), InputError);
  EXPECT_THROW(Kalah(6, 0), InputError);
  EXPECT_THROW(Kalah(6, -1), InputError);
  EXPECT_NO_THROW(Kalah(6, 6));
  EXPECT_NO_THROW(Kalah(1, 1));
}

}  // namespace
