// The exact-score solver (engine/score_solver.hpp, through the shared mancala solver) on
// Congkak against the reference written from the rules text (congkak_reference.hpp): plain
// minimax on the smallest starts and on random positions with few seeds in houses, its memoised
// form on every start with M * N <= 12; every move's score; one thread against two.

#include <gtest/gtest.h>
#include <oneapi/tbb/global_control.h>

#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "congkak_reference.hpp"
#include "congkak_test_support.hpp"
#include "games/congkak/congkak.hpp"
#include "games/congkak/congkak_analysis.hpp"
#include "games/congkak/congkak_position.hpp"
#include "engine/score_solver.hpp"
#include "sample_scale.hpp"

namespace {

namespace ref = congkak_reference;
using congkak_test::seeded;
using congkak_test::text;
using congkak_test::to_library;
using rastros::congkak::Congkak;
using rastros::congkak::CongkakSolver;

// The solver's answer for `position` against the reference's: the position's score and each
// move's. "" when all agree.
std::string check(const ref::RefGame& rg, const ref::RefPosition& position,
                  const std::function<int(const ref::RefPosition&)>& reference,
                  std::size_t table_bytes = std::size_t{4} << 20) {
  const Congkak game(rg.houses, rg.seeds);
  const auto lib = to_library(rg, position);
  CongkakSolver solver(game, {table_bytes});
  const auto result = solver.solve(lib);
  const int expected = reference(position);
  if (result.score != expected) {
    return text(game, lib) + ": solver " + std::to_string(result.score.value_or(-999)) +
           ", minimax " + std::to_string(expected);
  }
  for (const auto& child : result.children) {
    const ref::RefPosition next = ref::ref_play(rg, position, child.move);
    const int after = reference(next);
    const int mine = next.to_move == position.to_move ? after : -after;
    if (child.score != mine) {
      return text(game, lib) + " move " + std::to_string(child.move + 1) + ": solver " +
             std::to_string(child.score.value_or(-999)) + ", minimax " + std::to_string(mine);
    }
  }
  return "";
}

// Every start with M * N <= 12, by the memoised recursion (checked against plain minimax on
// the small ones in the same loop).
TEST(CongkakSolver, EveryStartUpToTwelveAgainstMinimax) {
  int checked = 0;
  const int most_seeds = rastros::testing_scale::kSanitized ? 9 : 12;  // sample_scale.hpp
  for (int houses = 1; houses <= 8; ++houses) {
    for (int seeds = 1; houses * seeds <= most_seeds; ++seeds) {
      const ref::RefGame rg{houses, seeds};
      ref::RefMemoMinimax memo(rg);
      const auto memoised = [&](const ref::RefPosition& p) { return memo.margin(p); };
      if (houses * seeds <= 4) {
        const auto plain = [&](const ref::RefPosition& p) { return ref::ref_minimax(rg, p); };
        EXPECT_EQ(check(rg, ref::ref_start(rg), plain), "");
      }
      EXPECT_EQ(check(rg, ref::ref_start(rg), memoised), "");
      ++checked;
    }
  }
  EXPECT_EQ(checked, most_seeds == 9 ? 9 + 4 + 3 + 2 + 1 + 1 + 1 + 1
                                     : 12 + 6 + 4 + 3 + 2 + 2 + 1 + 1);
}

// Random positions with few seeds in houses, of every size up to the traditional one, against
// plain minimax; with a table small enough to be overwritten now and then.
TEST(CongkakSolver, RandomPositionsAgainstPlainMinimax) {
  std::mt19937_64 random(seeded(4242));
  int reported = 0, checked = 0;
  for (int houses = 2; houses <= 7; ++houses) {
    const ref::RefGame rg{houses, 7};
    for (int trial = 0; trial < 30; ++trial) {
      const int in_houses = std::uniform_int_distribution<int>(2, houses <= 4 ? 10 : 8)(random);
      const ref::RefPosition position = ref::ref_random(rg, in_houses, random);
      const auto plain = [&](const ref::RefPosition& p) { return ref::ref_minimax(rg, p); };
      const std::string error = check(rg, position, plain, trial % 2 ? 16 << 10 : 4 << 20);
      ++checked;
      if (!error.empty() && reported++ < 10) ADD_FAILURE() << error;
    }
  }
  EXPECT_EQ(checked, 180);
}

// One thread and two give the same answers (the solver splits moves near the root).
TEST(CongkakSolver, SameAnswersWithOneAndTwoThreads) {
  std::mt19937_64 random(seeded(777));
  struct Case {
    ref::RefGame rg;
    ref::RefPosition position;
  };
  std::vector<Case> cases;
  for (const ref::RefGame rg : {ref::RefGame{3, 3}, ref::RefGame{4, 2}, ref::RefGame{5, 4}}) {
    cases.push_back({rg, rg.houses * rg.seeds <= 9 ? ref::ref_start(rg) : ref::ref_random(rg, 12, random)});
    cases.push_back({rg, ref::ref_random(rg, 10, random)});
  }
  for (int threads : {1, 2}) {
    oneapi::tbb::global_control control(oneapi::tbb::global_control::max_allowed_parallelism,
                                        threads);
    for (const Case& c : cases) {
      ref::RefMemoMinimax memo(c.rg);
      EXPECT_EQ(check(c.rg, c.position, [&](const ref::RefPosition& p) { return memo.margin(p); }),
                "")
          << threads << " threads";
    }
  }
}

// Player 1 follows the solver's choice (a move after which a null-window search says it still
// gets every seed) and player 2 tries every reply, each move played by the reference: true when
// every game so played ends with all the seeds in player 1's store.
bool wipe_out_holds(const ref::RefGame& rg, const Congkak& game,
                    rastros::engine::ScoreSolver<Congkak>& solver, const ref::RefPosition& p) {
  const int total = 2 * rg.houses * rg.seeds;
  if (ref::ref_ended(rg, p)) {
    const int margin = ref::ref_final_margin(rg, p);
    return (p.to_move == 0 ? margin : -margin) == total;
  }
  if (p.to_move == 1) {
    for (const int move : ref::ref_moves(rg, p)) {
      if (!wipe_out_holds(rg, game, solver, ref::ref_play(rg, p, move))) return false;
    }
    return true;
  }
  const auto lib = to_library(rg, p);
  const auto state = rastros::congkak::search_state(game, lib);
  for (const int move : ref::ref_moves(rg, p)) {
    const auto played = game.play(state, static_cast<rastros::congkak::CongkakMove>(move));
    const int need = total - rastros::mancala::store_margin(lib) - played.gain;
    const bool all = played.again ? solver.value(played.next, 1 - need) == rastros::Value::win
                                  : solver.value(played.next, need - 1) == rastros::Value::loss;
    if (all) return wipe_out_holds(rg, game, solver, ref::ref_play(rg, p, move));
  }
  return false;
}

// The entries of data/congkak/table.jsonl where player 1 wins by every seed of the game (the
// most there is, so the score is exact once one line of play reaches it): the reference's rules
// play out player 1's strategy against every defence, and every game ends with all the seeds
// in player 1's store. This checks Congkak(7, 7) +98 with the rules text as the only judge.
TEST(CongkakSolver, TableWipeOutsHoldUnderTheRulesText) {
  std::ifstream table(std::string(RASTROS_DATA_DIR) + "/congkak/table.jsonl");
  ASSERT_TRUE(table) << "data/congkak/table.jsonl";
  const auto number = [](const std::string& line, const std::string& key) {
    const auto at = line.find("\"" + key + "\": ");
    return at == std::string::npos ? -1000 : std::stoi(line.substr(at + key.size() + 4));
  };
  int proved = 0;
  for (std::string line; std::getline(table, line);) {
    const int houses = number(line, "houses"), seeds = number(line, "seeds");
    if (number(line, "score") != 2 * houses * seeds) continue;
    const ref::RefGame rg{houses, seeds};
    const Congkak game(houses, seeds);
    rastros::engine::ScoreSolver<Congkak> solver(game, {std::size_t{64} << 20});
    EXPECT_TRUE(wipe_out_holds(rg, game, solver, ref::ref_start(rg))) << game.name();
    ++proved;
  }
  EXPECT_GE(proved, 5);
}

// An ended position: its score is the final margin, with no moves.
TEST(CongkakSolver, EndedPositions) {
  const Congkak game(3, 2);
  const auto position = rastros::mancala::parse_position(game.board(), "0,0,0,5/3,2,1,1 1");
  CongkakSolver solver(game, {});
  const auto result = solver.solve(position);
  EXPECT_EQ(result.score, 5 - (1 + 6));
  EXPECT_TRUE(result.children.empty());
}

}  // namespace
