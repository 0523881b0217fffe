// The move ordering (search/move_ordering.hpp): its features on hand-drawn positions, counted
// here by hand; the move memory (search/move_memory.hpp): which surroundings share an entry;
// and the rule that neither changes what the solver answers, only how fast.

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <initializer_list>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rastros/canonical.hpp"
#include "rastros/notation.hpp"
#include "rastros/rastros.hpp"
#include "rastros/region.hpp"
#include "search/move_hints.hpp"
#include "search/move_memory.hpp"
#include "search/move_ordering.hpp"
#include "search/move_sorter.hpp"
#include "search/solver.hpp"

namespace rastros {
namespace {

SquareMask squares(const Board& board, std::initializer_list<std::string_view> names) {
  SquareMask mask = 0;
  for (std::string_view name : names) mask |= bit(parse_square(board, name));
  return mask;
}

/// A position whose free squares are its region, as the solver's nodes are.
Position node_at(const Board& board, std::string_view snail, SquareMask slimed) {
  const Square square = parse_square(board, snail);
  const SquareMask free = ((SquareMask{1} << board.square_count()) - 1) & ~slimed & ~bit(square);
  return {region_of(board, square, free), square, Player::one};
}

MoveFeatures features_of(const Board& board, const Position& node, std::string_view move) {
  const MoveOrderer orderer(board, MoveOrdering::tuned);
  const Square to = parse_square(board, move);
  return orderer.move_features(node, to, board.goal_zone(Player::one, node.free),
                               board.goal_zone(Player::two, node.free),
                               region_after_step(board, node.snail, node.free, to));
}

TEST(MoveOrdering, FeaturesOfAMoveBesideTheMoversGoal) {
  // 5x5, the start (snail on c3), player 1 steps to b2, next to a1.
  const Board board(5, 5);
  const Position node = node_at(board, "c3", 0);
  const MoveFeatures features = features_of(board, node, "b2");
  // Player 2's replies from b2: a1, a2 and b1 step into or next to a1 (player 1 would win), so
  // the safe ones are a3, b3, c1 and c2.
  EXPECT_EQ(features.safe_replies, 4);
  // Player 1's moves after each, leaving out b2, c3 and the squares next to e5 (d4, d5, e4):
  //   a3: a2 a4 b3 b4 (4)   b3: a2 a3 a4 b4 c2 c4 (6)   c1: b1 c2 d1 d2 (4)
  //   c2: b1 b3 c1 d1 d2 d3 (6)
  EXPECT_EQ(features.fewest_next_moves, 4);
  EXPECT_EQ(features.most_next_moves, 6);
  EXPECT_EQ(features.total_next_moves, 20);
  EXPECT_EQ(features.my_goal_distance, 1);
  EXPECT_EQ(features.their_goal_distance, 3);
  EXPECT_EQ(features.squares_cut_off, 0);
  EXPECT_EQ(features.blocked_neighbours, 1);  // c3, just slimed
  EXPECT_TRUE(features.keeps_my_goal);
  EXPECT_TRUE(features.keeps_their_goal);
  EXPECT_FALSE(features.on_edge);
  EXPECT_TRUE(features.beside_my_goal);
}

TEST(MoveOrdering, TunedOrderPutsMovesBesideTheMoversGoalLateInTheOpening) {
  const Board board(7, 7);
  const Position node = node_at(board, "c3", squares(board, {"d4"}));
  EXPECT_TRUE(features_of(board, node, "b2").beside_my_goal);
  EXPECT_FALSE(features_of(board, node, "c2").beside_my_goal);  // two steps from a1
  const MoveOrderer tuned(board, MoveOrdering::tuned);
  MoveFeatures away;
  away.safe_replies = 4;
  away.keeps_my_goal = away.keeps_their_goal = true;
  MoveFeatures beside = away;
  beside.beside_my_goal = true;
  beside.safe_replies = 1;  // the opponent may not step next to our goal: few replies
  // In the opening, later in both modes; in the endgame the fewer replies still come first.
  EXPECT_GT(tuned.priority(beside, 40, true), tuned.priority(away, 40, true));
  EXPECT_GT(tuned.priority(beside, 40, false), tuned.priority(away, 40, false));
  EXPECT_LT(tuned.priority(beside, 10, true), tuned.priority(away, 10, true));
}

TEST(MoveOrdering, TunedOrderHasWeightsOfItsOwnForTheOpeningOfAWinLossSearch) {
  const MoveOrderer tuned(Board(7, 7), MoveOrdering::tuned);
  const MoveOrderer mobility(Board(7, 7), MoveOrdering::mobility);
  // Two moves alike but for our fewest moves after the opponent's replies: with remoteness the
  // tighter one goes first; the win/loss opening weights do not weigh it, in either band.
  MoveFeatures tight;
  tight.safe_replies = 3;
  tight.fewest_next_moves = 0;
  tight.most_next_moves = 5;
  tight.total_next_moves = 9;
  tight.keeps_my_goal = true;
  MoveFeatures loose = tight;
  loose.fewest_next_moves = 3;
  for (const int region : {20, 37, 38, 46}) {
    EXPECT_LT(tuned.priority(tight, region, false), tuned.priority(loose, region, false));
    EXPECT_EQ(tuned.priority(tight, region, true), tuned.priority(loose, region, true));
  }
  // Below the opening, one set for both.
  EXPECT_GT(tuned.priority(tight, 19, true), tuned.priority(loose, 19, true));
  EXPECT_EQ(tuned.priority(tight, 19, true), tuned.priority(tight, 19, false));
  // Neighbours outside the region weigh more in the biggest regions (-22 a neighbour, -14
  // below 38 squares); keeping the opponent's goal in reach much more below them (225 against
  // 65 in both the big regions and remoteness).
  MoveFeatures walled = tight;
  walled.blocked_neighbours = 1;
  EXPECT_EQ(tuned.priority(tight, 37, true) - tuned.priority(walled, 37, true), 14);
  EXPECT_EQ(tuned.priority(tight, 38, true) - tuned.priority(walled, 38, true), 22);
  MoveFeatures keeping = tight;
  keeping.keeps_their_goal = true;
  EXPECT_EQ(tuned.priority(keeping, 37, true) - tuned.priority(tight, 37, true), 225);
  EXPECT_EQ(tuned.priority(keeping, 38, true) - tuned.priority(tight, 38, true), 65);
  EXPECT_EQ(tuned.priority(keeping, 37, false) - tuned.priority(tight, 37, false), 65);
  // The plain mobility order has no region bands.
  EXPECT_EQ(mobility.priority(tight, 38, true), mobility.priority(tight, 37, true));
}

TEST(MoveOrdering, FeaturesOfAMoveThatCutsOffTheMoversGoal) {
  // 5x5, a wall of slime on b2-b5, snail on b1: the a-file hangs on b1. Stepping to c1 leaves
  // a1-a5 behind for good.
  const Board board(5, 5);
  const Position node = node_at(board, "b1", squares(board, {"b2", "b3", "b4", "b5"}));
  EXPECT_EQ(count(node.free), 20);
  const MoveFeatures features = features_of(board, node, "c1");
  EXPECT_EQ(features.squares_cut_off, 5);  // a1 to a5
  EXPECT_FALSE(features.keeps_my_goal);
  EXPECT_TRUE(features.keeps_their_goal);
  EXPECT_EQ(features.blocked_neighbours, 2);  // b1 (the snail's square) and b2
  // c2, d1 and d2: none is next to a1.
  EXPECT_EQ(features.safe_replies, 3);
  EXPECT_EQ(features.my_goal_distance, 2);
  EXPECT_EQ(features.their_goal_distance, 4);
  EXPECT_TRUE(features.on_edge);  // rank 1
  EXPECT_FALSE(features_of(board, node, "c2").on_edge);
}

TEST(MoveOrdering, RepliesThatWinAtOnceAreFlagged) {
  // What the solver reads to count a move as lost without searching it (solver.cpp).
  const Board board(5, 5);
  {
    // Snail on c3, d1 and e2 slimed. After d2, player 2's reply e1 leaves player 1 no move:
    // e1's neighbours are d1 and e2 (slime) and d2 (just left).
    const Position node = node_at(board, "c3", squares(board, {"d1", "e2"}));
    const MoveFeatures features = features_of(board, node, "d2");
    EXPECT_EQ(features.safe_replies, 5);  // c1, c2, d3, e1, e3
    EXPECT_TRUE(features.reply_leaves_us_stuck);
    EXPECT_FALSE(features.reply_forces_their_goal);  // every other reply leaves a safe square
    EXPECT_EQ(features.fewest_next_moves, 0);
  }
  {
    // Snail on c3, d2 and e2 slimed. After d3, player 2's reply e3 leaves player 1 only d4 and
    // e4, both next to e5: player 2 enters it next.
    const Position node = node_at(board, "c3", squares(board, {"d2", "e2"}));
    const MoveFeatures features = features_of(board, node, "d3");
    EXPECT_TRUE(features.reply_forces_their_goal);
    EXPECT_FALSE(features.reply_leaves_us_stuck);
    // After c4 instead, no reply of player 2 does either.
    const MoveFeatures quiet = features_of(board, node, "c4");
    EXPECT_FALSE(quiet.reply_forces_their_goal);
    EXPECT_FALSE(quiet.reply_leaves_us_stuck);
  }
}

TEST(MoveOrdering, MobilityOrderIsSafeRepliesThenDistance) {
  const Board board(5, 5);
  const MoveOrderer mobility(board, MoveOrdering::mobility);
  MoveFeatures features;
  features.safe_replies = 3;
  features.my_goal_distance = 2;
  features.total_next_moves = 40;  // ignored by this order
  EXPECT_EQ(mobility.priority(features, 24, true), 3 * 16 + 2);
  features.safe_replies = 2;
  features.my_goal_distance = 6;
  EXPECT_LT(mobility.priority(features, 24, true), 3 * 16 + 2);
}

TEST(MoveOrdering, TunedOrderPrefersCuttingTheOpponentsGoalOffInTheOpening) {
  const Board board(7, 7);
  const MoveOrderer tuned(board, MoveOrdering::tuned);
  MoveFeatures keeps;
  keeps.safe_replies = 3;
  keeps.keeps_my_goal = keeps.keeps_their_goal = true;
  MoveFeatures cuts = keeps;
  cuts.keeps_their_goal = false;
  EXPECT_LT(tuned.priority(cuts, 40, true), tuned.priority(keeps, 40, true));
  // Fewer safe replies comes first, other things equal, in the opening and the endgame.
  MoveFeatures fewer = keeps;
  fewer.safe_replies = 2;
  EXPECT_LT(tuned.priority(fewer, 40, true), tuned.priority(keeps, 40, true));
  EXPECT_LT(tuned.priority(fewer, 10, true), tuned.priority(keeps, 10, true));
}

TEST(MoveOrdering, TunedOrderPutsEdgeMovesLateInTheOpeningOfAWinLossSearch) {
  const Board board(7, 7);
  const MoveOrderer tuned(board, MoveOrdering::tuned);
  MoveFeatures inside;
  inside.safe_replies = 4;
  inside.keeps_my_goal = inside.keeps_their_goal = true;
  MoveFeatures edge = inside;
  edge.on_edge = true;
  edge.safe_replies = 2;  // fewer replies, as edge squares have
  EXPECT_GT(tuned.priority(edge, 40, true), tuned.priority(inside, 40, true));
  // Not with remoteness, nor in the endgame: there fewer replies still come first.
  EXPECT_LT(tuned.priority(edge, 40, false), tuned.priority(inside, 40, false));
  EXPECT_LT(tuned.priority(edge, 10, true), tuned.priority(inside, 10, true));
  // Nor in the benchmark's baseline, the fitted order as it was before.
  const MoveOrderer without_edge(board, MoveOrdering::tuned_without_edge);
  EXPECT_LT(without_edge.priority(edge, 40, true), without_edge.priority(inside, 40, true));
}

/// Analyses `position` with solvers of options `one` and `other` (one thread, so that each run
/// is one fixed search) and expects one answer; returns the two node counts.
std::pair<std::uint64_t, std::uint64_t> expect_same_answers(const Rastros& game,
                                                            const Position& position,
                                                            const SolverOptions& one,
                                                            const SolverOptions& other) {
  tbb::task_arena arena(1);
  Solver one_solver(game, one);
  Solver other_solver(game, other);
  Analysis one_answer, other_answer;
  arena.execute([&] {
    one_answer = one_solver.analyse(position);
    other_answer = other_solver.analyse(position);
  });
  const std::string where = position_string(game.board(), position);
  EXPECT_EQ(one_answer.outcome, other_answer.outcome) << where;
  EXPECT_EQ(one_answer.best_moves, other_answer.best_moves) << where;
  EXPECT_EQ(one_answer.children.size(), other_answer.children.size()) << where;
  for (std::size_t i = 0; i < std::min(one_answer.children.size(), other_answer.children.size());
       ++i) {
    EXPECT_EQ(one_answer.children[i].move, other_answer.children[i].move) << where;
    EXPECT_EQ(one_answer.children[i].outcome, other_answer.children[i].outcome) << where;
  }
  return {one_answer.nodes, other_answer.nodes};
}

/// Along `games` random games on each of three boards, in both modes, expects the same answers
/// from options that differ by `change`; returns how many of those searches took different
/// node counts (a change that is never consulted would make none).
template <class Change>
int expect_same_answers_along_random_games(std::uint32_t seed, int games, Change change) {
  std::mt19937 random(seed);
  int searches_that_differ = 0;
  for (const auto& [width, height] : {std::pair{6, 6}, std::pair{6, 5}, std::pair{5, 7}}) {
    const Rastros game{Board(width, height)};
    for (bool value_only : {true, false}) {
      SolverOptions options;
      options.value_only = value_only;
      options.table_bytes = std::size_t{4} << 20;
      SolverOptions changed = options;
      change(changed);
      for (int played = 0; played < games; ++played) {
        Position position = game.start_position();
        while (!game.has_ended(position)) {
          const auto [one, other] = expect_same_answers(game, position, options, changed);
          searches_that_differ += one != other;
          std::vector<Square> list;
          for (Square move : game.legal_moves(position)) list.push_back(move);
          position = game.play(position, list[random() % list.size()]);
        }
      }
    }
  }
  return searches_that_differ;
}

TEST(MoveOrdering, OrderingsGiveTheSameAnswersAlongRandomGames) {
  EXPECT_GT(expect_same_answers_along_random_games(
                20261201, 4,
                [](SolverOptions& options) { options.move_ordering = MoveOrdering::mobility; }),
            10);
}

TEST(MoveSorter, PutsTheMovesKeptInOrderOfPriorityTheFirstAddedFirstAmongEquals) {
  MoveSorter sorter;
  // Moves 10..15, each with a distinct child; priorities set after adding, as the solver does
  // when the table knows a child.
  const int priorities[] = {50, 20, 50, MoveSorter::kRememberedMove, 20, 70};
  for (int i = 0; i < 6; ++i) {
    sorter.add(10 + i, SquareMask{1} << i, 0);
    sorter.set_child(i, PackedPosition{SquareMask{1} << i, static_cast<std::uint8_t>(i)});
  }
  ASSERT_EQ(sorter.added(), 6);
  for (int i = 0; i < 6; ++i) sorter.added_entry(i).priority = priorities[i];
  sorter.added_entry(5).priority = MoveSorter::kKnownWin;
  sorter.drop(2);
  sorter.sort();
  std::vector<int> moves;
  for (int i = 0; i < sorter.size(); ++i) {
    moves.push_back(sorter[i].move);
    EXPECT_EQ(sorter[i].child.free, SquareMask{1} << (sorter[i].move - 10)) << "entries move whole";
  }
  EXPECT_EQ(moves, (std::vector<int>{15, 13, 11, 14, 10})) << "the dropped move 12 is left out";
}

TEST(MoveMemory, RecallsTheLastMoveRememberedForTheSameSurroundings) {
  // 7x7 has the large memory, 5x5 the small one.
  for (const Board& board : {Board(7, 7), Board(5, 5)}) {
    MoveMemory memory(board);
    const Position node = node_at(board, "c3", squares(board, {"d4", "d3"}));
    const std::uint64_t tag = memory.tag_of(node, 20);
    EXPECT_NE(tag, 0u);
    EXPECT_EQ(memory.recall(tag), -1) << "a new memory remembers nothing";
    memory.remember(tag, parse_square(board, "b3"));
    EXPECT_EQ(memory.recall(tag), parse_square(board, "b3"));
    memory.remember(tag, parse_square(board, "c2"));
    EXPECT_EQ(memory.recall(tag), parse_square(board, "c2")) << "the last move wins";
    EXPECT_EQ(memory.recall(memory.tag_of(node, 30)), -1) << "other surroundings, no entry";
  }
}

TEST(MoveMemory, SurroundingsAreTheBoxOfTwoStepsTheSideAndTheRegionsSize) {
  const Board board(7, 7);
  const MoveMemory memory(board);
  const SquareMask trail = squares(board, {"d4", "d3"});
  const Position node = node_at(board, "c3", trail);
  const std::uint64_t tag = memory.tag_of(node, 40);
  // Slime three steps away or more (f3, c6, g6) is outside the box a1..e5: the same entry.
  for (std::string_view far : {"f3", "c6", "g6"}) {
    EXPECT_EQ(memory.tag_of(node_at(board, "c3", trail | squares(board, {far})), 40), tag) << far;
  }
  // Slime inside the box, at one step or two, makes other surroundings.
  for (std::string_view near : {"b2", "a2", "e5", "c5", "a3"}) {
    EXPECT_NE(memory.tag_of(node_at(board, "c3", trail | squares(board, {near})), 40), tag) << near;
  }
  // The same box with the snail elsewhere, or the other side to move: other surroundings.
  EXPECT_NE(memory.tag_of(node_at(board, "c2", trail), 40), tag);
  Position other_side = node;
  other_side.to_move = Player::two;
  EXPECT_NE(memory.tag_of(other_side, 40), tag);
  // Regions are told apart in eighths: 40..47 share an entry, 39 and 48 do not.
  EXPECT_EQ(memory.tag_of(node, 47), tag);
  EXPECT_NE(memory.tag_of(node, 39), tag);
  EXPECT_NE(memory.tag_of(node, 48), tag);
}

TEST(MoveMemory, NeverChangesAnAnswerAlongRandomGames) {
  EXPECT_GT(expect_same_answers_along_random_games(
                20261202, 3, [](SolverOptions& options) { options.remember_moves = false; }),
            10);
}

/// The hints a value-only analysis of the start records (one thread).
void record_hints(const Rastros& game, MoveHints& hints) {
  SolverOptions options;
  options.value_only = true;
  options.table_bytes = std::size_t{4} << 20;
  options.record_winning_moves = &hints;
  tbb::task_arena arena(1);
  Solver solver(game, options);
  arena.execute([&] { solver.analyse(game.start_position()); });
}

TEST(MoveHints, EveryRecordedMoveWins) {
  for (const auto& [width, height] : {std::pair{6, 6}, std::pair{6, 5}, std::pair{5, 7}}) {
    const Rastros game{Board(width, height)};
    MoveHints hints;
    record_hints(game, hints);
    ASSERT_GT(hints.size(), 10u) << width << "x" << height;
    // Checked by a second method: plain alpha-beta (no region, symmetry, matching or memory),
    // on the position the key stands for.
    SolverOptions plain;
    plain.value_only = true;
    plain.prune_region = plain.use_symmetry = plain.use_matching = plain.remember_moves = false;
    plain.move_ordering = MoveOrdering::mobility;
    plain.table_bytes = std::size_t{4} << 20;
    int checked = 0;
    hints.for_each([&](const PackedPosition& key, Square move) {
      if (checked++ % 7) return;  // a seventh of them: enough, and quick
      const Position position = Canonicalizer::unpack(key);
      const std::string where = position_string(game.board(), position);
      ASSERT_TRUE(game.is_legal(position, move)) << where;
      const Position after = game.play(position, move);
      Solver solver(game, plain);
      const Outcome outcome = solver.solve(after);
      // The side to move after the winning move loses, unless the move ended the game.
      if (!game.has_ended(after)) {
        EXPECT_EQ(outcome.value, Value::loss) << where;
      }
    });
    EXPECT_GT(checked, 10);
  }
}

TEST(MoveHints, NeverChangeAnAnswerRightOrWrong) {
  for (const auto& [width, height] : {std::pair{6, 6}, std::pair{6, 5}, std::pair{5, 7}}) {
    const Rastros game{Board(width, height)};
    MoveHints right;
    record_hints(game, right);
    // Wrong hints: at every recorded node, another legal move than the one that won.
    MoveHints wrong;
    right.for_each([&](const PackedPosition& key, Square move) {
      for (Square other : game.legal_moves(Canonicalizer::unpack(key))) {
        if (other != move) {
          wrong.record(key, other);
          break;
        }
      }
    });
    for (bool value_only : {true, false}) {
      SolverOptions options;
      options.value_only = value_only;
      options.table_bytes = std::size_t{4} << 20;
      for (const MoveHints* hints : {&right, &wrong}) {
        SolverOptions hinted = options;
        hinted.move_hints = hints;
        const auto [nodes, hinted_nodes] =
            expect_same_answers(game, game.start_position(), options, hinted);
        if (value_only) {
          EXPECT_NE(nodes, hinted_nodes) << width << "x" << height << ": hints never consulted";
        }
      }
    }
  }
}

TEST(MoveHints, GivenOnlyInTheirBand) {
  MoveHints hints;
  const PackedPosition key{SquareMask{0b1011}, 5};
  hints.record(key, 12);
  EXPECT_EQ(hints.move_for(key, 3), 12);
  EXPECT_EQ(hints.move_for(PackedPosition{SquareMask{0b1011}, 6}, 3), -1) << "another key";
  hints.set_band(20, 30);
  EXPECT_EQ(hints.move_for(key, 19), -1);
  EXPECT_EQ(hints.move_for(key, 20), 12);
  EXPECT_EQ(hints.move_for(key, 29), 12);
  EXPECT_EQ(hints.move_for(key, 30), -1);
  hints.record(key, 13);
  EXPECT_EQ(hints.move_for(key, 25), 13) << "the last record stays";
  EXPECT_EQ(hints.size(), 1u);
}

}  // namespace
}  // namespace rastros
