// Oware's rules (docs/rules.md, "Oware"): hand-made positions for each rule, and the library's
// move generator against the naive one of oware_reference.hpp on random positions.

#include <gtest/gtest.h>

#include <random>

#include "core/errors.hpp"
#include "games/oware/oware.hpp"
#include "games/oware/oware_position.hpp"
#include "oware_reference.hpp"

namespace {

using namespace rastros::oware;

// A state from the side to move's view: its houses 1..M, then the opponent's 1..M.
OwareState rules_state_of(const std::vector<int>& view) {
  OwareState state;
  for (std::size_t i = 0; i < view.size(); ++i) state.houses[i] = static_cast<std::uint8_t>(view[i]);
  return state;
}

std::vector<int> view_of(const Oware& game, const OwareState& state) {
  return {state.houses.begin(), state.houses.begin() + 2 * game.houses()};
}

std::vector<int> moves_of(const Oware& game, const OwareState& state) {
  std::vector<int> moves;
  for (const OwareMove move : game.legal_moves(state)) moves.push_back(move);
  return moves;
}

TEST(OwareRules, CaptureChainGoesBackAndStopsAtAGap) {
  const Oware game(6, 4);
  // House 6 sows 3 seeds into the opponent's 1, 2, 3: they hold 2, 3, 2 and are all taken; the
  // 4 seeds of house 4 stay, so it is no grand slam.
  auto played = game.play(rules_state_of({0, 0, 0, 0, 0, 3, 1, 2, 1, 4, 0, 0}), 5);
  EXPECT_EQ(played.gain, 7);
  EXPECT_EQ(view_of(game, played.next), (std::vector<int>{0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0}));
  // Opponent's house 2 ends with 1 seed: the chain stops there.
  played = game.play(rules_state_of({0, 0, 0, 0, 0, 3, 1, 0, 1, 4, 0, 0}), 5);
  EXPECT_EQ(played.gain, 2);
  EXPECT_EQ(view_of(game, played.next), (std::vector<int>{2, 1, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0}));
  // A last seed making 4 captures nothing, even with 2s before it.
  played = game.play(rules_state_of({0, 0, 0, 0, 0, 2, 1, 3, 0, 0, 0, 0}), 5);
  EXPECT_EQ(played.gain, 0);
}

TEST(OwareRules, LastSeedInOwnRowCapturesNothing) {
  const Oware game(6, 4);
  // House 1's single seed lands in the mover's own house 2, which then holds 2.
  const auto played = game.play(rules_state_of({1, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0}), 0);
  EXPECT_EQ(played.gain, 0);
}

TEST(OwareRules, GrandSlamCapturesNothing) {
  const Oware game(6, 4);
  // House 6 makes the opponent's houses 1 and 2 hold 2 each: every seed they have.
  const auto played = game.play(rules_state_of({0, 0, 0, 0, 1, 2, 1, 1, 0, 0, 0, 0}), 5);
  EXPECT_EQ(played.gain, 0);
  EXPECT_EQ(view_of(game, played.next), (std::vector<int>{2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0}));
}

TEST(OwareRules, TwelveSeedsSkipTheStartingHouse) {
  const Oware game(6, 4);
  // 12 seeds from house 1: houses 2-6, the opponent's 1-6, then house 2 again (house 1 skipped).
  const auto played = game.play(rules_state_of({12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}), 0);
  EXPECT_EQ(played.gain, 0);
  EXPECT_EQ(view_of(game, played.next), (std::vector<int>{1, 1, 1, 1, 1, 1, 0, 2, 1, 1, 1, 1}));
  // 23 seeds: two laps of 11, then one more into house 2.
  const auto twice = game.play(rules_state_of({23, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}), 0);
  EXPECT_EQ(view_of(game, twice.next), (std::vector<int>{2, 2, 2, 2, 2, 2, 0, 3, 2, 2, 2, 2}));
}

TEST(OwareRules, FeedingIsCompulsory) {
  const Oware game(6, 4);
  // The opponent's row is empty: house 1's seed stays home, house 6's reaches them.
  const OwareState state = rules_state_of({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0});
  EXPECT_EQ(moves_of(game, state), std::vector<int>{5});
  EXPECT_FALSE(game.is_terminal(state));
  // With one opponent seed, every non-empty house may be played.
  EXPECT_EQ(moves_of(game, rules_state_of({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1})), (std::vector<int>{0, 5}));
}

TEST(OwareRules, NoFeedingPossibleEndsTheGameForTheMover) {
  const Oware game(6, 4);
  const OwareState state = rules_state_of({1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  EXPECT_TRUE(game.is_terminal(state));
  EXPECT_EQ(game.terminal_score(state), 2);
}

TEST(OwareRules, AMoverWithNoSeedsLosesTheBoard) {
  const Oware game(6, 4);
  const OwareState state = rules_state_of({0, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0});
  EXPECT_TRUE(game.is_terminal(state));
  EXPECT_EQ(game.terminal_score(state), -3);
  // Read from a string, the position has ended and player 2 takes the board.
  const OwarePosition position = parse_position(game, "0,0,0,0,0,0,20/0,2,1,0,0,0,25 1");
  EXPECT_TRUE(has_ended(game, position));
  EXPECT_EQ(final_captures(game, position), (std::array<int, 2>{20, 28}));
}

TEST(OwareRules, PositionStringsRoundTripAndBadInputIsRefused) {
  const Oware game(6, 4);
  const std::string start = "4,4,4,4,4,4,0/4,4,4,4,4,4,0 1";
  EXPECT_EQ(position_string(game, start_position(game)), start);
  EXPECT_EQ(position_string(game, parse_position(game, start)), start);
  for (const char* bad : {"", "4,4,4,4,4,4,0/4,4,4,4,4,4,0", "4,4,4,4,4,4,0/4,4,4,4,4,4,1 1",
                          "4,4,4,4,4,0/4,4,4,4,4,4,4,0 2", "4,4,4,4,4,4,0/4,4,4,4,4,4,0 3",
                          "x,4,4,4,4,4,0/4,4,4,4,4,4,0 1"}) {
    EXPECT_THROW(parse_position(game, bad), rastros::InputError) << bad;
  }
  EXPECT_THROW(parse_moves(game, "7"), rastros::InputError);
  EXPECT_THROW(Oware(0, 4), rastros::InputError);
  EXPECT_THROW(Oware(6, 30), rastros::InputError);
}

TEST(OwareRules, FeedingMoveParsedAndOthersRefused) {
  const Oware game(6, 4);
  const OwarePosition position = parse_position(game, "1,0,0,0,0,1,20/0,0,0,0,0,0,26 1");
  EXPECT_EQ(parse_move(game, position, "6"), 5);
  EXPECT_THROW(parse_move(game, position, "1"), rastros::InputError);
  EXPECT_THROW(parse_move(game, position, "2"), rastros::InputError);
}

// The library's moves, sowing, captures and ends against the naive reference, on random
// positions of every size.
TEST(OwareRules, AgreesWithTheNaiveReferenceOnRandomPositions) {
  std::mt19937 random(20261205);
  for (int trial = 0; trial < 20000; ++trial) {
    const int m = 1 + static_cast<int>(random() % 8);
    const Oware game(m, 4);
    std::vector<int> view(2 * m);
    const int spread = 1 + static_cast<int>(random() % 6);
    for (int& house : view) house = static_cast<int>(random() % 4 == 0 ? 0 : random() % spread);
    if (random() % 10 == 0) view[random() % m] += 2 * m + static_cast<int>(random() % (2 * m));
    if (random() % 8 == 0) std::fill(view.begin() + m, view.end(), 0);
    const OwareState state = rules_state_of(view);
    const auto reference = oware_reference::from_view(view);
    ASSERT_EQ(moves_of(game, state), oware_reference::ref_moves(reference));
    if (game.is_terminal(state)) {
      EXPECT_EQ(game.terminal_score(state), oware_reference::ref_end_score(reference));
      continue;
    }
    for (const OwareMove move : game.legal_moves(state)) {
      const auto played = game.play(state, move);
      const auto [after, captured] = oware_reference::ref_play(reference, move);
      ASSERT_EQ(played.gain, captured);
      ASSERT_EQ(view_of(game, played.next), oware_reference::to_view(after));
    }
  }
}

}  // namespace
