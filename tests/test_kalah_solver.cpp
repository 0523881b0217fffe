// The exact-score solver (engine/score_solver.hpp) on Kalah against the independent reference
// (kalah_reference.hpp): plain minimax from the starts it can reach in time and on positions
// with few seeds left, the memoised form of the same recursion on a few bigger starts and on
// positions with up to 12 seeds in houses; score, value (with offsets) and analyse, with one
// and two threads and with tables small enough to be overwritten.
//
// The solver's scores leave the stores out (the margin gained from the position on); the
// reference's include them: the tests add rastros::kalah::store_margin. Every random choice
// comes from a fixed-seed std::mt19937_64 (plus RASTROS_TEST_SEED when set); every failure
// message names the variant and the position string.

#include <gtest/gtest.h>
#include <oneapi/tbb/global_control.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/value.hpp"
#include "engine/score_solver.hpp"
#include "games/kalah/kalah.hpp"
#include "games/kalah/kalah_position.hpp"
#include "kalah_reference.hpp"
#include "kalah_test_variant.hpp"

namespace {

using kalah_reference::RefGame;
using kalah_reference::RefPosition;
using kalah_reference::RefRule;
using rastros::Value;
using rastros::engine::ScoreSolver;
using rastros::engine::ScoreSolverOptions;
using rastros::kalah::CaptureRule;
using rastros::kalah::Kalah;
using rastros::kalah::KalahPosition;
namespace ref = kalah_reference;

constexpr int kMaxSolverReports = 12;

using kalah_test::lib_game;
using kalah_test::ref_game;
using kalah_test::seeded;
using kalah_test::Variant;
using kalah_test::variant_name;
std::string variant_where(const Variant& v, const RefPosition& position) {
  return variant_name(v) + " position '" + ref::ref_position_string(ref_game(v), position) + "'";
}

Value value_of(int margin) { return margin > 0 ? Value::win : margin < 0 ? Value::loss : Value::draw; }

// Checks score, value (at several offsets) and analyse of `position` against the reference's
// final margin `expected` and move scores `moves` (stores included). "" when all agree.
std::string check(const Variant& v, ScoreSolver<Kalah>& solver, const RefPosition& position,
                  int expected, const std::vector<std::pair<int, int>>& moves) {
  const Kalah game = lib_game(v);
  const RefGame rg = ref_game(v);
  const KalahPosition lib = ref::to_library<KalahPosition>(rg, position);
  const auto state = rastros::kalah::search_state(game, lib);
  const int banked = rastros::kalah::store_margin(lib);
  const std::string at = variant_where(v, position);
  const int score = solver.score(state);
  if (banked + score != expected) {
    return at + ": score " + std::to_string(score) + " + stores " + std::to_string(banked) + " = " +
           std::to_string(banked + score) + ", minimax gives " + std::to_string(expected);
  }
  for (int offset : {banked, banked - 1, banked + 1, 0, -score, -score - 1, -score + 1}) {
    const Value got = solver.value(state, offset);
    if (got != value_of(offset + score)) {
      return at + ": value at offset " + std::to_string(offset) + " is " +
             std::string(rastros::to_string(got)) + ", the exact score gives " +
             std::string(rastros::to_string(value_of(offset + score)));
    }
  }
  const auto analysed = solver.analyse(state);
  if (analysed.size() != moves.size()) return at + ": analyse gives " + std::to_string(analysed.size()) + " moves";
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (int(analysed[i].move) != moves[i].first) return at + ": analyse's moves are not in legal order";
    if (banked + analysed[i].score != moves[i].second) {
      return at + " move " + std::to_string(moves[i].first + 1) + ": analyse gives " +
             std::to_string(analysed[i].score) + " + stores " + std::to_string(banked) +
             ", minimax gives " + std::to_string(moves[i].second);
    }
  }
  return "";
}

// The reference's answer: plain minimax, or the memoised recursion when asked.
struct Expected {
  int score;
  std::vector<std::pair<int, int>> moves;
};
Expected plain(const Variant& v, const RefPosition& position) {
  return {ref::reference_score(ref_game(v), position), ref::reference_move_scores(ref_game(v), position)};
}
Expected memoised(const Variant& v, const RefPosition& position, ref::RefMemo& memo) {
  const RefGame rg = ref_game(v);
  Expected e{ref::reference_score_memo(rg, position, memo), {}};
  for (int move : ref::ref_moves(rg, position)) {
    e.moves.emplace_back(move, ref::reference_move_score_memo(rg, position, move, memo));
  }
  return e;
}

// The starts plain minimax solves in about a second together: Kalah(1, 1..12), (2, 1..6),
// (3, 1..3) and (4, 1), under both rules.
std::vector<Variant> small_starts() {
  std::vector<Variant> variants;
  for (RefRule rule : {RefRule::standard, RefRule::empty_capture}) {
    for (int n = 1; n <= 12; ++n) variants.push_back({1, n, rule});
    for (int n = 1; n <= 6; ++n) variants.push_back({2, n, rule});
    for (int n = 1; n <= 3; ++n) variants.push_back({3, n, rule});
    variants.push_back({4, 1, rule});
  }
  return variants;
}

TEST(KalahSolver, SmallStartsAgainstPlainMinimax) {
  int reported = 0;
  for (const Variant& v : small_starts()) {
    const RefPosition start = ref::ref_start(ref_game(v));
    const Expected e = plain(v, start);
    ScoreSolver<Kalah> solver(lib_game(v), ScoreSolverOptions{std::size_t{1} << 20});
    const std::string error = check(v, solver, start, e.score, e.moves);
    if (!error.empty() && reported++ < kMaxSolverReports) ADD_FAILURE() << error;
    EXPECT_GT(solver.nodes(), 0u) << variant_name(v);
  }
  EXPECT_EQ(reported, 0);
}

// Known values from the rules alone (plain minimax): a cross-check that the reference itself
// reads the rules as intended on the smallest games, worked by hand.
TEST(KalahSolver, HandWorkedSmallGames) {
  // Kalah(1,1): player 1's only move sows its seed into its store: another turn, but its row is
  // empty, so the game ends 1 to 1.
  EXPECT_EQ(ref::reference_score({1, 1}, ref::ref_start({1, 1})), 0);
  // Kalah(1,2): player 1's 2 seeds go to its store and to player 2's house; player 1's row is
  // empty, so the game ends: player 1 has 1, player 2 takes its 3. Player 1 loses by 2.
  EXPECT_EQ(ref::reference_score({1, 2}, ref::ref_start({1, 2})), -2);
  const Kalah game(1, 2);
  ScoreSolver<Kalah> solver(game);
  EXPECT_EQ(solver.score(game.start()), -2);
}

// Bigger starts through the memoised recursion (checked against plain minimax just above on
// the small ones and below on random positions): Kalah(4,2), (3,4), (5,1), both rules.
TEST(KalahSolver, BiggerStartsAgainstMemoisedMinimax) {
  int reported = 0;
  for (RefRule rule : {RefRule::standard, RefRule::empty_capture}) {
    for (const Variant v : {Variant{4, 2, rule}, Variant{3, 4, rule}, Variant{5, 1, rule}}) {
      const RefPosition start = ref::ref_start(ref_game(v));
      ref::RefMemo memo;
      const Expected e = memoised(v, start, memo);
      ScoreSolver<Kalah> solver(lib_game(v));
      const std::string error = check(v, solver, start, e.score, e.moves);
      if (!error.empty() && reported++ < kMaxSolverReports) ADD_FAILURE() << error;
    }
  }
  EXPECT_EQ(reported, 0);
}

// A position of variant v with `target` or fewer seeds in houses, not ended: a random game
// played until that few seeds are left (depth-limited: it stops there) or, when random games
// keep ending first, seeds spread at random.
template <class Rng>
RefPosition few_seeds_position(const Variant& v, Rng& rng, int target, bool from_game) {
  const RefGame rg = ref_game(v);
  if (from_game) {
    for (int attempt = 0; attempt < 20; ++attempt) {
      RefPosition position = ref::ref_start(rg);
      while (!ref::ref_ended(rg, position) && ref::ref_houses_seeds(rg, position) > target) {
        std::vector<int> going;
        for (int move : ref::ref_moves(rg, position)) {
          if (!ref::ref_play(rg, position, move).ended) going.push_back(move);
        }
        if (going.empty()) break;
        position = ref::ref_play(rg, position, going[std::uniform_int_distribution<int>(0, int(going.size()) - 1)(rng)]).after;
      }
      if (!ref::ref_ended(rg, position) && ref::ref_houses_seeds(rg, position) <= target) return position;
    }
  }
  for (;;) {
    const int in_houses = std::uniform_int_distribution<int>(2, std::min(target, rg.total()))(rng);
    RefPosition position = ref::ref_random_position(rg, rng, in_houses, from_game);
    if (!ref::ref_ended(rg, position)) return position;
  }
}

// Hundreds of positions with few seeds left in every variant with 1..6 houses and 1..6 seeds
// (under both rules): up to 8 seeds in houses (7 with 5 or 6 houses) against plain minimax,
// 9..12 (10 with 6 houses, 11 with 5) against the memoised recursion, itself checked against
// plain minimax on the first group's positions. Solvers are
// shared by several positions, some with a table of a few kilobytes that is overwritten all
// the time.
TEST(KalahSolver, FewSeedsLeftAgainstMinimax) {
  std::mt19937_64 rng(seeded(424242));
  int reported = 0;
  long positions = 0, memo_checked = 0;
  for (RefRule rule : {RefRule::standard, RefRule::empty_capture}) {
    for (int m = 1; m <= 6; ++m) {
      for (int n = 1; n <= 6; ++n) {
        const Variant v{m, n, rule};
        const RefGame rg = ref_game(v);
        const std::size_t table = (m + n) % 3 == 0 ? std::size_t{4} << 10 : std::size_t{1} << 20;
        ScoreSolver<Kalah> solver(lib_game(v), ScoreSolverOptions{table});
        ref::RefMemo memo;
        for (int i = 0; i < 16; ++i) {
          const bool many = i >= 10;  // 9..12 seeds: the memoised recursion
          // The memoised recursion takes about a second on 12 seeds in 12 houses: 10 at most
          // with 6 houses, 11 with 5.
          const int most = m <= 4 ? 12 : m == 5 ? 11 : 10;
          const int target = many ? std::min(rg.total(), std::uniform_int_distribution<int>(9, most)(rng))
                                  : std::min(rg.total(), m >= 5 ? 7 : 8);
          const RefPosition position = few_seeds_position(v, rng, target, i % 2 == 0);
          ++positions;
          Expected e;
          if (many) {
            e = memoised(v, position, memo);
          } else {
            e = plain(v, position);
            const Expected again = memoised(v, position, memo);
            ++memo_checked;
            if ((again.score != e.score || again.moves != e.moves) && reported++ < kMaxSolverReports) {
              ADD_FAILURE() << variant_where(v, position) << ": the memoised reference disagrees with plain minimax";
            }
          }
          const std::string error = check(v, solver, position, e.score, e.moves);
          if (!error.empty() && reported++ < kMaxSolverReports) ADD_FAILURE() << error;
        }
      }
    }
  }
  EXPECT_EQ(reported, 0);
  EXPECT_GE(positions, 1000);
  EXPECT_GE(memo_checked, 700);
}

// analyse, score and value are the same with one thread and with two (the solver splits moves
// near the root among threads), on positions big enough for the split to happen, and agree
// with the reference.
TEST(KalahSolver, SameAnswersWithOneAndTwoThreads) {
  std::mt19937_64 rng(seeded(31337));
  int reported = 0;
  struct Case {
    Variant v;
    RefPosition position;
    Expected e;
  };
  std::vector<Case> cases;
  for (RefRule rule : {RefRule::standard, RefRule::empty_capture}) {
    for (const Variant v : {Variant{3, 3, rule}, Variant{2, 6, rule}, Variant{4, 2, rule}, Variant{6, 4, rule},
                            Variant{6, 6, rule}, Variant{5, 3, rule}}) {
      for (int i = 0; i < 4; ++i) {
        const bool start = i == 0 && v.houses * v.seeds <= 9;
        const RefPosition position =
            start ? ref::ref_start(ref_game(v)) : few_seeds_position(v, rng, v.houses <= 4 ? 12 : 10, i % 2 == 1);
        ref::RefMemo memo;
        cases.push_back({v, position, memoised(v, position, memo)});
      }
    }
  }
  for (int threads : {1, 2}) {
    oneapi::tbb::global_control control(oneapi::tbb::global_control::max_allowed_parallelism, threads);
    for (const Case& c : cases) {
      for (std::size_t table : {std::size_t{8} << 20, std::size_t{16} << 10}) {
        ScoreSolver<Kalah> solver(lib_game(c.v), ScoreSolverOptions{table});
        const std::string error = check(c.v, solver, c.position, c.e.score, c.e.moves);
        if (!error.empty() && reported++ < kMaxSolverReports) {
          ADD_FAILURE() << error << " (" << threads << " threads, table " << table << " bytes)";
        }
      }
    }
  }
  EXPECT_EQ(reported, 0);
}

// A terminal state: the solver's score is the terminal score, and analyse has no moves.
TEST(KalahSolver, EndedPositions) {
  const Kalah game(6, 4);
  const KalahPosition done = rastros::kalah::parse_position(game, "0,0,0,0,0,0,20/4,4,4,4,4,4,4 1");
  ScoreSolver<Kalah> solver(game);
  const auto state = rastros::kalah::search_state(game, done);
  EXPECT_EQ(solver.score(state), -24);
  EXPECT_EQ(rastros::kalah::store_margin(done) + solver.score(state), 20 - 28);
  EXPECT_TRUE(solver.analyse(state).empty());
  EXPECT_EQ(solver.value(state, rastros::kalah::store_margin(done)), Value::loss);
  EXPECT_EQ(solver.value(state, 24), Value::draw);
  EXPECT_EQ(solver.value(state, 25), Value::win);
}

}  // namespace
