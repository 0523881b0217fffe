// Congkak's move generator (games/congkak/congkak.cpp, whole rings at a time) and its lap-by-
// lap trace (congkak_sowing.cpp) against the naive seed-by-seed reference written from the
// rules text (congkak_reference.hpp), on thousands of random positions of every size; the lap
// bound that proves every move ends; the variant checks and the position strings.

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <random>
#include <tuple>
#include <string>

#include "congkak_reference.hpp"
#include "congkak_test_support.hpp"
#include "core/errors.hpp"
#include "engine/score_perft.hpp"
#include "games/congkak/congkak.hpp"
#include "games/congkak/congkak_position.hpp"
#include "games/congkak/congkak_sowing.hpp"

namespace {

namespace ref = congkak_reference;
using congkak_test::seeded;
using congkak_test::text;
using congkak_test::to_library;
using rastros::InputError;
using rastros::congkak::Congkak;
using rastros::congkak::CongkakPosition;

// Every move of random positions: the library's position after it, the trace's, and the
// trace's number of laps equal the reference's.
TEST(CongkakRules, FastSowingEqualsTheRulesTextOnRandomPositions) {
  std::mt19937_64 random(seeded(20261205));
  int compared = 0, reported = 0;
  long most_laps = 0;
  for (int houses = 1; houses <= 8; ++houses) {
    for (int seeds = 1; seeds <= 15; ++seeds) {
      std::optional<Congkak> variant;
      try {
        variant.emplace(houses, seeds);
      } catch (const InputError&) {
        continue;  // too big to number: refused (VariantsOutOfRangeAreRefused)
      }
      const Congkak& game = *variant;
      const ref::RefGame rg{houses, seeds};
      const int total = 2 * houses * seeds;
      for (int trial = 0; trial < 40; ++trial) {
        const int in_houses = std::uniform_int_distribution<int>(1, total)(random);
        const ref::RefPosition position = ref::ref_random(rg, in_houses, random);
        const CongkakPosition lib = to_library(rg, position);
        for (const int move : ref::ref_moves(rg, position)) {
          long laps = 0;
          const ref::RefPosition expected = ref::ref_play(rg, position, move, &laps);
          most_laps = std::max(most_laps, laps);
          const CongkakPosition fast = rastros::congkak::play(game, lib, move);
          const auto traced = rastros::congkak::sow(game, lib, move);
          ++compared;
          if ((fast != to_library(rg, expected) || traced.after != fast ||
               static_cast<long>(traced.laps.size()) != laps) &&
              reported++ < 10) {
            ADD_FAILURE() << text(game, lib) << " move " << move + 1 << ": fast gives "
                          << rastros::mancala::position_string(game.board(), fast)
                          << ", the rules text "
                          << rastros::mancala::position_string(game.board(),
                                                               to_library(rg, expected));
          }
        }
      }
    }
  }
  EXPECT_GT(compared, 5000);
  EXPECT_GT(most_laps, 3) << "random positions should include relays";
}

// The trace: each lap starts where the one before ended, the first at the move's house; the
// last lap ends in the store exactly when the mover moves again.
TEST(CongkakRules, TraceLapsChainAndEndWhereTheMoveEnds) {
  const Congkak game(7, 7);
  CongkakPosition position = rastros::mancala::start_position(game.board());
  std::mt19937_64 random(seeded(7));
  for (int ply = 0; ply < 200 && !rastros::mancala::has_ended(game.board(), position); ++ply) {
    const auto moves = game.legal_moves(rastros::congkak::search_state(game, position));
    const auto move = moves[random() % moves.size()];
    const auto sowing = rastros::congkak::sow(game, position, move);
    ASSERT_FALSE(sowing.laps.empty());
    EXPECT_EQ(sowing.laps.front().start, (rastros::mancala::MancalaPit{position.to_move, move}));
    for (std::size_t i = 1; i < sowing.laps.size(); ++i) {
      EXPECT_EQ(sowing.laps[i].start, sowing.laps[i - 1].end);
    }
    const auto last = sowing.laps.back().end;
    EXPECT_EQ(sowing.again, last.house == game.houses() && last.player == position.to_move);
    position = sowing.after;
  }
}

// The bound of congkak.hpp holds a margin over the longest relays random play meets, and
// every traditional-size game played at random ends.
TEST(CongkakRules, LapBoundHoldsOnRandomGames) {
  const Congkak game(7, 7);
  std::mt19937_64 random(seeded(99));
  std::size_t most = 0;
  for (int games = 0; games < 200; ++games) {
    CongkakPosition position = rastros::mancala::start_position(game.board());
    int ply = 0;
    while (!rastros::mancala::has_ended(game.board(), position)) {
      ASSERT_LT(++ply, 10000) << "a game that does not end";
      const auto moves = game.legal_moves(rastros::congkak::search_state(game, position));
      const auto sowing = rastros::congkak::sow(game, position, moves[random() % moves.size()]);
      most = std::max(most, sowing.laps.size());
      position = sowing.after;
    }
  }
  EXPECT_LE(static_cast<std::int64_t>(most), rastros::congkak::max_laps(7, 98));
  EXPECT_EQ(rastros::congkak::max_laps(1, 2), 3 * 5);
}

// Perft from the start agrees with the reference's move counting.
TEST(CongkakRules, PerftMatchesTheReference) {
  for (const auto& [houses, seeds, depth] : {std::tuple{3, 3, 6}, std::tuple{4, 2, 6},
                                            std::tuple{7, 7, 4}, std::tuple{6, 4, 4}}) {
    const Congkak game(houses, seeds);
    const ref::RefGame rg{houses, seeds};
    std::function<std::uint64_t(const ref::RefPosition&, int)> count =
        [&](const ref::RefPosition& p, int d) -> std::uint64_t {
      if (d == 0) return 1;
      std::uint64_t n = 0;
      for (const int move : ref::ref_moves(rg, p)) n += count(ref::ref_play(rg, p, move), d - 1);
      return n;
    };
    EXPECT_EQ(rastros::engine::perft(game, game.start(), depth), count(ref::ref_start(rg), depth))
        << game.name() << " depth " << depth;
  }
}

TEST(CongkakRules, VariantsOutOfRangeAreRefused) {
  EXPECT_THROW(Congkak(0, 4), InputError);
  EXPECT_THROW(Congkak(9, 4), InputError);
  EXPECT_THROW(Congkak(7, 0), InputError);
  try {
    Congkak(8, 16);
    ADD_FAILURE() << "congkak(8,16) accepted";
  } catch (const InputError& error) {
    EXPECT_EQ(std::string(error.what()), "congkak(8,16) has 256 seeds; at most 250 are supported");
  }
  EXPECT_EQ(Congkak(7, 7).name(), "congkak(7,7)");
}

TEST(CongkakRules, BadPositionStringsAndMovesAreRefused) {
  const Congkak game(3, 2);
  const auto board = game.board();
  for (const char* bad : {"", "2,2,2,0/2,2,2,0", "2,2,2,0/2,2,2,0 3", "2,2,2/2,2,2,0 1",
                          "2,2,2,0/2,2,2,1 1", "2,2,x,0/2,2,2,0 1", "999,2,2,0/2,2,2,0 1",
                          "2,2,2,0/2,2,2,0/0 1"}) {
    EXPECT_THROW(rastros::mancala::parse_position(board, bad), InputError) << bad;
  }
  EXPECT_EQ(rastros::mancala::position_string(
                board, rastros::mancala::parse_position(board, "0,3,2,1/2,2,2,0 2")),
            "0,3,2,1/2,2,2,0 2");
  EXPECT_THROW(rastros::congkak::parse_moves(game, "4"), InputError);
  EXPECT_THROW(rastros::congkak::parse_moves(game, "1 x"), InputError);
  const auto start = rastros::mancala::start_position(board);
  EXPECT_THROW(rastros::congkak::sow(game, start, 3), InputError);
}

// A relay worked by hand from the rules text. Congkak(3, 2) from the start (houses 2,2,2 a
// side), player 1 plays house 1: its 2 seeds fill houses 2 and 3 (3 each); house 3 held 2:
// relay its 3 into the store and the opponent's houses 1 and 2 (3 each); that house 2 held 2:
// relay its 3 into the opponent's house 3 and (past the opponent's store) houses 1 and 2 of
// player 1 (1 and 4); house 2 held 3: relay its 4 into house 3, the store and the opponent's
// houses 1 and 2; the opponent's house 2 was lifted, so it was empty: the turn ends.
TEST(CongkakRules, HandWorkedRelay) {
  const Congkak game(3, 2);
  const auto board = game.board();
  const auto sowing = rastros::congkak::sow(game, rastros::mancala::start_position(board), 0);
  ASSERT_EQ(sowing.laps.size(), 4u);
  EXPECT_FALSE(sowing.capture.has_value());
  EXPECT_EQ(rastros::mancala::position_string(board, sowing.after), "1,0,1,2/4,1,3,0 2");
  EXPECT_EQ(rastros::mancala::position_string(
                board, rastros::congkak::play(game, rastros::mancala::start_position(board), 0)),
            "1,0,1,2/4,1,3,0 2");
}

}  // namespace
