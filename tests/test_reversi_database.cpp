// The strong database of Reversi 4×4 (games/reversi/reversi_database.hpp) against the rules
// alone: the reachable positions and their scores found again by a memoised minimax over the
// square-by-square Reversi of reversi_reference.hpp; queries against the live solver; verify
// catching a changed record; damaged and foreign files refused.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>

#include "core/errors.hpp"
#include "games/reversi/reversi_database.hpp"
#include "games/reversi/reversi_position.hpp"
#include "games/reversi/reversi_solver.hpp"
#include "reversi_reference.hpp"

namespace rastros::reversi {
namespace {

using reference::Board;

/// Every board reachable from `board` (side to move first) with its minimax score, found by
/// the reference rules alone (a pass is the same board seen from the other side).
class ReferenceSweep {
 public:
  int score(const Board& board) {
    if (const auto it = scores_.find(board.cells); it != scores_.end()) return it->second;
    const auto moves = reference::naive_moves(board, 1);
    int best = -1000;
    if (moves.empty()) {
      best = reference::naive_moves(board, 2).empty() ? reference::minimax(board)
                                                      : -score(reference::swapped(board));
    }
    for (const int square : moves)
      best = std::max(best, -score(reference::naive_play(board, square)));
    scores_.emplace(board.cells, best);
    return best;
  }
  const std::map<std::array<int, 64>, int>& scores() const { return scores_; }

 private:
  std::map<std::array<int, 64>, int> scores_;
};

engine::ScoreRecords built() {
  static const engine::ScoreRecords records = build_reversi_database(Reversi(4));
  return records;
}

std::filesystem::path temporary(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("rastros_test_" + name);
}

TEST(ReversiDatabase, EveryRecordIsTheMinimaxOfTheRules) {
  const Reversi game(4);
  const engine::ScoreRecords records = built();
  ReferenceSweep sweep;
  Board start = reference::from_state(game.start(), 4);
  sweep.score(start);
  ASSERT_EQ(records.keys.size(), sweep.scores().size());
  for (const auto& [cells, score] : sweep.scores()) {
    Board board;
    board.n = 4;
    board.cells = cells;
    const auto stored = records.find(game.key(reference::to_state(board)));
    ASSERT_TRUE(stored.has_value());
    ASSERT_EQ(*stored, score);
  }
}

TEST(ReversiDatabase, QueriesAgreeWithTheLiveSolver) {
  const Reversi game(4);
  const engine::ScoreRecords records = built();
  ReversiSolver solver(game, {std::size_t{4} << 20});
  std::mt19937_64 random(44);
  for (int trial = 0; trial < 200; ++trial) {
    ReversiPosition position = start_position(game);
    const int plies = static_cast<int>(random() % 12);
    for (int ply = 0; ply < plies; ++ply) {
      const auto moves = game.legal_moves(search_state(position));
      if (moves.empty()) break;
      position = play_move(game, position, moves[random() % moves.size()]);
    }
    const auto answer = query_reversi_database(game, records, position, false);
    ASSERT_TRUE(answer.has_value());
    const ReversiResult live = solve_position(solver, game, position, {});
    EXPECT_EQ(answer->score, live.score);
    EXPECT_EQ(answer->value, live.value);
    EXPECT_EQ(answer->best_moves, live.best_moves);
    ASSERT_EQ(answer->children.size(), live.children.size());
    for (std::size_t i = 0; i < live.children.size(); ++i) {
      EXPECT_EQ(answer->children[i].move, live.children[i].move);
      EXPECT_EQ(answer->children[i].score, live.children[i].score);
    }
  }
}

TEST(ReversiDatabase, APositionNotReachableIsNotAnswered) {
  const Reversi game(4);
  // The centre squares b2 and c2 empty: every game keeps the four centre squares occupied.
  const ReversiPosition position = parse_position(game, "XXXX-----OX--XO- O");
  EXPECT_FALSE(query_reversi_database(game, built(), position, false).has_value());
}

TEST(ReversiDatabase, VerifyCatchesAChangedOrMissingRecord) {
  const Reversi game(4);
  engine::ScoreRecords records = built();
  EXPECT_FALSE(verify_reversi_database(game, records).has_value());
  engine::ScoreRecords changed = records;
  changed.scores[changed.scores.size() / 2] += 2;
  EXPECT_TRUE(verify_reversi_database(game, changed).has_value());
  engine::ScoreRecords missing = records;
  missing.keys.erase(missing.keys.begin() + 7);
  missing.scores.erase(missing.scores.begin() + 7);
  const auto problem = verify_reversi_database(game, missing);
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find("not in the file"), std::string::npos) << *problem;
}

TEST(ReversiDatabase, FileRoundTripAndDamagedOrForeignFilesRefused) {
  const Reversi game(4);
  const auto path = temporary("reversi44.rsdb");
  save_reversi_database(path, game, built());
  const engine::ScoreRecords loaded = load_reversi_database(path, game);
  EXPECT_EQ(loaded.keys, built().keys);
  EXPECT_EQ(loaded.scores, built().scores);
  EXPECT_THROW(load_reversi_database(path, Reversi(6)), FileError);

  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  for (const std::size_t at : {std::size_t{20}, bytes.size() / 2, bytes.size() - 1}) {
    std::string damaged = bytes;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x40);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << damaged;
    EXPECT_THROW(load_reversi_database(path, game), FileError) << "byte " << at;
  }
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes.substr(0, bytes.size() / 3);
  EXPECT_THROW(load_reversi_database(path, game), FileError);
  std::filesystem::remove(path);
}

TEST(ReversiDatabase, LargerBoardsAreRefused) {
  EXPECT_THROW(build_reversi_database(Reversi(6)), InputError);
  EXPECT_THROW(build_reversi_database(Reversi(8)), InputError);
}

}  // namespace
}  // namespace rastros::reversi
