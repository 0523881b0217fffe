// Distances to exit in Oware's levels (oware_level_solver.hpp) and what play does with them:
// the attractors' rounds against a second method written here (each threshold's sets grown by
// whole sweeps over the graph, one sweep a round, from the definition), and a computer that
// plays both sides from a won start reaching every capture its score promises instead of
// going round a cycle.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <thread>
#include <vector>

#include "core/errors.hpp"
#include "games/oware/oware_level_solver.hpp"
#include "games/oware/oware_play.hpp"

namespace rastros::oware::distance_test {
namespace {

struct Reference {
  std::vector<int> values;
  std::vector<int> distances;
};

// For each threshold t: round 0 decides the nodes with an exit worth t or more (won) and those
// with no child and no exit better than -t (lost); round k decides, from the nodes decided in
// rounds before k only, a node with a child lost at t (won) or whose children are all won at
// t and whose exit is worse than t (lost). A node keeps the largest t it is decided at, and
// that round.
Reference reference_solve(const LevelGraph& graph, int max_value) {
  const std::size_t n = graph.size();
  Reference out{std::vector<int>(n, 0), std::vector<int>(n, 0)};
  for (int t = 1; t <= max_value; ++t) {
    std::vector<int> status(n, 0);  // 0 open, 1 won, 2 lost
    std::vector<int> round(n, 0);
    for (int k = 0;; ++k) {
      std::vector<std::pair<std::size_t, int>> decided;
      for (std::size_t i = 0; i < n; ++i) {
        if (status[i]) continue;
        const int exit = graph.best_exit[i];
        const bool good_exit = exit != kNoExit && exit >= t;
        const bool can_lose = exit == kNoExit || exit <= -t;
        bool wins = k == 0 && good_exit;
        bool all_won = true;
        for (int j = 0; j < graph.child_count[i]; ++j) {
          const std::uint32_t c = graph.children[i * graph.stride + j];
          if (k > 0 && status[c] == 2) wins = true;
          if (status[c] != 1) all_won = false;
        }
        if (wins) {
          decided.emplace_back(i, 1);
        } else if (can_lose && all_won && (k == 0) == (graph.child_count[i] == 0)) {
          decided.emplace_back(i, 2);
        }
      }
      if (decided.empty()) break;
      for (const auto& [i, s] : decided) {
        status[i] = s;
        round[i] = k;
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (status[i]) {
        out.values[i] = status[i] == 1 ? t : -t;
        out.distances[i] = round[i];
      }
    }
  }
  return out;
}

// A level's state as a position with player 1 to move and nothing captured yet.
OwarePosition position_of(const Oware& game, const OwareState& state) {
  OwarePosition position;
  for (int i = 0; i < game.houses(); ++i) {
    position.rows[0][i] = state.houses[i];
    position.rows[1][i] = state.houses[game.houses() + i];
  }
  return position;
}

LevelGraph random_graph(std::mt19937& random, int nodes, int stride, int max_value) {
  LevelGraph graph(static_cast<std::uint64_t>(nodes), stride);
  std::uniform_int_distribution<int> count(0, stride), node(0, nodes - 1),
      exit(-max_value, max_value), coin(0, 3);
  for (int i = 0; i < nodes; ++i) {
    graph.child_count[i] = static_cast<std::uint8_t>(count(random));
    for (int j = 0; j < graph.child_count[i]; ++j) {
      graph.children[static_cast<std::size_t>(i) * stride + j] = static_cast<std::uint32_t>(node(random));
    }
    // A node without children has an exit (the end of the game); others have one now and then.
    if (graph.child_count[i] == 0 || coin(random) == 0) {
      graph.best_exit[i] = static_cast<std::int8_t>(exit(random));
    }
  }
  return graph;
}

TEST(OwareDistances, TheAttractorsRoundsAgreeWithSweepsOnRandomGraphs) {
  std::mt19937 random(2026);
  for (int trial = 0; trial < 300; ++trial) {
    const int nodes = 1 + trial % 60, stride = 1 + trial % 4, max_value = 1 + trial % 5;
    const LevelGraph graph = random_graph(random, nodes, stride, max_value);
    std::vector<std::uint16_t> distances;
    const std::vector<std::int8_t> values = solve_level(graph, max_value, &distances);
    const Reference expected = reference_solve(graph, max_value);
    for (int i = 0; i < nodes; ++i) {
      ASSERT_EQ(values[i], expected.values[i]) << "trial " << trial << ", node " << i;
      ASSERT_EQ(distances[i], expected.distances[i]) << "trial " << trial << ", node " << i;
    }
    EXPECT_EQ(solve_level(graph, max_value), values) << "trial " << trial;
  }
}

TEST(OwareDistances, TheDatabasesLevelsGiveTheirOwnValuesBack) {
  const Oware game(3, 3);
  const OwareDatabase database = OwareDatabase::build(game, 18);
  for (int seeds = 0; seeds <= 18; ++seeds) {
    const auto distances = database.distances(game, seeds);
    ASSERT_EQ(distances.size(), game.level_size(seeds));
    for (std::uint64_t rank = 0; rank < distances.size(); ++rank) {
      if (database.score_at(seeds, rank) == 0) {
        ASSERT_EQ(distances[rank], 0);
      }
    }
  }
  OwareDatabase damaged = database;
  damaged.set_score(10, 5, damaged.score_at(10, 5) + 2);
  EXPECT_THROW(damaged.distances(game, 10), rastros::FileError);
}

// The computer on both sides from a won start: by the time nothing more is to be won (the
// position scores 0) the captures made are the start's score. (A consistency check of the
// scores the chooser plays by; its progress is the next tests'.)
TEST(OwareDistances, PerfectPlayOnBothSidesCollectsTheStartsScore) {
  for (const auto& [houses, seeds] : {std::pair{2, 1}, {2, 2}, {3, 2}, {3, 3}}) {
    const Oware game(houses, seeds);
    const OwareDatabase database = OwareDatabase::build(game, 2 * houses * seeds);
    OwarePlaySession session(game, database, 0, start_position(game), 1);
    const int start_score = session.hint()->score;
    ASSERT_NE(start_score, 0) << houses << "," << seeds;
    int moves = 0;
    while (!session.is_over() && session.hint()->score != 0) {
      ASSERT_LT(++moves, 5000) << "Oware(" << houses << "," << seeds << "): no end in sight";
      ASSERT_TRUE(session.computer_move().has_value());
    }
    const OwarePosition& end = session.position();
    const auto captured = session.is_over() ? final_captures(game, end) : end.captured;
    EXPECT_EQ(captured[0] - captured[1], start_score) << houses << "," << seeds;
  }
}

// Every won or lost position of Oware(4, *) with 1..6 seeds on the board, the computer on
// both sides: a capture (or the end) comes at the latest one move after the level's longest
// distance to exit. Taking the lowest of equal moves instead goes round a cycle from some of
// them (TheLowestOfTheBestMovesGoesRoundACycle).
TEST(OwareDistances, FromEveryWonPositionACaptureComes) {
  const Oware game(4, 4);
  const OwareDatabase database = OwareDatabase::build(game, 6);
  std::uint64_t positions = 0;
  for (int seeds = 1; seeds <= 6; ++seeds) {
    const auto distances = database.distances(game, seeds);
    const int longest = *std::max_element(distances.begin(), distances.end());
    for (std::uint64_t rank = 0; rank < game.level_size(seeds); ++rank) {
      if (database.score_at(seeds, rank) == 0) continue;
      const OwareState state = game.level_unrank(seeds, rank);
      const OwarePosition start = position_of(game, state);
      OwarePlaySession session(game, database, 0, start, 1);
      int moves = 0;
      while (!session.is_over() && game.seeds_in_play(search_state(game, session.position())) == seeds) {
        ASSERT_LE(++moves, longest + 1) << "level " << seeds << ", rank " << rank;
        ASSERT_TRUE(session.computer_move().has_value());
      }
      ++positions;
    }
  }
  EXPECT_GT(positions, 500u);
}

// The position the server's test plays from (Oware(4, 4), 5 seeds on the board, rank 11 of its
// level): the lowest of the best moves on both sides never captures, the chooser's do within
// its distance.
TEST(OwareDistances, TheLowestOfTheBestMovesGoesRoundACycle) {
  const Oware game(4, 4);
  const OwareDatabase database = OwareDatabase::build(game, 5);
  const OwareState state = game.level_unrank(5, 11);
  const int distance = database.distances(game, 5)[11];
  ASSERT_NE(database.score_at(5, 11), 0);
  OwarePosition position = position_of(game, state);
  position.captured = {14, 13};  // the game's 32 seeds in all
  ASSERT_EQ(position_string(game, position), "0,0,0,1,14/0,0,1,3,13 1");  // the server test's
  OwarePosition lowest = position;
  for (int ply = 0; ply < 4 * (distance + 1); ++ply) {
    const auto analysis = analyse(game, database, search_state(game, lowest), 0);
    ASSERT_TRUE(analysis.has_value());
    const auto best = std::max_element(
        analysis->moves.begin(), analysis->moves.end(),
        [](const OwareMoveScore& a, const OwareMoveScore& b) { return a.score < b.score; });
    lowest = play(game, lowest, best->move);  // max_element keeps the first (lowest) best
    ASSERT_EQ(game.seeds_in_play(search_state(game, lowest)), 5) << "captured at ply " << ply;
  }
  OwarePlaySession session(game, database, 0, position, 1);
  int moves = 0;
  while (game.seeds_in_play(search_state(game, session.position())) == 5) {
    ASSERT_LE(++moves, distance + 1);
    ASSERT_TRUE(session.computer_move().has_value());
  }
}

// One chooser, two threads choosing in different levels at once (ThreadSanitizer runs it):
// each level's distances are computed once and the moves are those of a chooser alone.
TEST(OwareDistances, TwoThreadsShareOneChooser) {
  const Oware game(4, 4);
  const OwareDatabase database = OwareDatabase::build(game, 6);
  const ProgressChooser shared(game, database);
  std::vector<std::pair<OwarePosition, OwareAnalysis>> cases;
  for (int seeds = 3; seeds <= 6; ++seeds) {
    for (std::uint64_t rank = 0; rank < game.level_size(seeds) && cases.size() < 40u * static_cast<unsigned>(seeds - 2);
         rank += 7) {
      if (database.score_at(seeds, rank) == 0) continue;
      const OwareState state = game.level_unrank(seeds, rank);
      const OwarePosition position = position_of(game, state);
      const auto analysis = analyse(game, database, state, 0);
      if (analysis && !analysis->moves.empty()) cases.emplace_back(position, *analysis);
    }
  }
  std::vector<OwareMove> first(cases.size()), second(cases.size());
  std::thread other([&] {
    for (std::size_t i = cases.size(); i-- > 0;) first[i] = shared.choose(cases[i].first, cases[i].second);
  });
  for (std::size_t i = 0; i < cases.size(); ++i) second[i] = shared.choose(cases[i].first, cases[i].second);
  other.join();
  const ProgressChooser alone(game, database);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const OwareMove expected = alone.choose(cases[i].first, cases[i].second);
    EXPECT_EQ(first[i], expected) << i;
    EXPECT_EQ(second[i], expected) << i;
  }
  EXPECT_GT(cases.size(), 100u);
}

}  // namespace
}  // namespace rastros::oware::distance_test
