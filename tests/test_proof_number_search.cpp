// Proof-number search (search/proof_number_search.hpp) against two other answers:
//   - a tiny plain minimax written here from the rules alone (coordinates, a memo on the full
//     state, no region pruning, symmetry, matching endgame or dominance rules), and
//   - the alpha-beta Solver in value-only mode.
// Every random choice comes from a fixed-seed std::mt19937; failures name the board, the rules
// and the position string so they reproduce from the message alone.

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <atomic>
#include <cstdint>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "rastros/notation.hpp"
#include "rastros/rastros.hpp"
#include "search/proof_number_search.hpp"
#include "search/solver.hpp"

namespace rastros {
namespace {

constexpr std::size_t kTableBytes = std::size_t{4} << 20;
// Stop reporting after this many mismatches: one systematic bug should not print thousands.
constexpr int kMaxReported = 10;

// ---------------------------------------------------------------------------------------------
// The tiny minimax. Squares are (file, rank); the state is the slimed squares (a bit per
// rank * width + file), the snail and the side to move. Values are for the side to move.

class TinyMinimax {
 public:
  TinyMinimax(int width, int height, bool king, bool stuck_draws)
      : width_(width), height_(height), stuck_draws_(stuck_draws) {
    for (int df = -1; df <= 1; ++df) {
      for (int dr = -1; dr <= 1; ++dr) {
        if ((df || dr) && (king || !df || !dr)) steps_.push_back({df, dr});
      }
    }
  }

  /// `slime` holds every visited square except the snail's own; `side` is 1 or 2.
  Value solve(std::uint64_t slime, int file, int rank, int side) {
    const int snail = rank * width_ + file;
    const int own_goal = side == 1 ? 0 : width_ * height_ - 1;
    const int other_goal = side == 1 ? width_ * height_ - 1 : 0;
    if (snail == own_goal) return Value::win;
    if (snail == other_goal) return Value::loss;
    const std::uint64_t key = slime * 128 + static_cast<std::uint64_t>(snail * 2 + side - 1);
    if (const auto found = memo_.find(key); found != memo_.end()) return found->second;
    Value best = Value::loss;
    bool moved = false;
    for (const auto& [df, dr] : steps_) {
      const int f = file + df;
      const int r = rank + dr;
      if (f < 0 || f >= width_ || r < 0 || r >= height_) continue;
      const int to = r * width_ + f;
      if (slime >> to & 1) continue;
      moved = true;
      const Value mine = negate(solve(slime | std::uint64_t{1} << snail, f, r, 3 - side));
      if (static_cast<int>(mine) > static_cast<int>(best)) best = mine;
    }
    if (!moved) best = stuck_draws_ ? Value::draw : Value::loss;
    memo_.emplace(key, best);
    return best;
  }

  /// The library's position, solved. The slime is every square neither free nor the snail.
  Value solve(const Board& board, const Position& position) {
    const std::uint64_t slime = board.all_squares() & ~position.free & ~bit(position.snail);
    return solve(slime, board.file_of(position.snail), board.rank_of(position.snail),
                 number_of(position.to_move));
  }

 private:
  int width_;
  int height_;
  bool stuck_draws_;
  std::vector<std::pair<int, int>> steps_;
  std::unordered_map<std::uint64_t, Value> memo_;
};

struct Variant {
  int width;
  int height;
  StepSet steps;
  StuckRule rule;
};

std::string describe(const Variant& variant, const Board& board, const Position& position) {
  return "board " + board.name() + " --steps " + std::string(steps_name(variant.steps)) +
         " --rules " + std::string(rules_name(variant.rule)) + ", position \"" +
         position_string(board, position) + "\"";
}

TinyMinimax minimax_of(const Variant& variant) {
  return TinyMinimax(variant.width, variant.height, variant.steps == StepSet::king,
                     variant.rule == StuckRule::draws);
}

/// The alpha-beta Solver's value, on one thread so failures reproduce exactly.
Value solver_value(Solver& solver, const Position& position) {
  tbb::task_arena arena(1);
  Value value = Value::draw;
  arena.execute([&] { value = solver.solve(position).value; });
  return value;
}

/// A random game of up to `plies` moves from the start, never entering a goal. It stops early
/// when the snail has no other move, so a few positions are stuck ones.
Position random_game(const Rastros& game, int plies, std::mt19937& rng) {
  Position position = game.start_position();
  for (int ply = 0; ply < plies; ++ply) {
    std::vector<Square> options;
    for (Square move : game.legal_moves(position)) {
      if (!game.board().is_goal(move)) options.push_back(move);
    }
    if (options.empty()) break;
    std::uniform_int_distribution<std::size_t> pick(0, options.size() - 1);
    position = game.play(position, options[pick(rng)]);
  }
  return position;
}

std::vector<Variant> small_variants() {
  std::vector<Variant> variants;
  std::vector<std::pair<int, int>> sizes;
  for (int width = 2; width <= 4; ++width) {
    for (int height = 2; height <= 4; ++height) sizes.push_back({width, height});
  }
  sizes.push_back({5, 3});
  sizes.push_back({3, 5});
  for (const auto& [width, height] : sizes) {
    for (const StepSet steps : {StepSet::king, StepSet::orthogonal}) {
      for (const StuckRule rule : {StuckRule::loses, StuckRule::draws}) {
        variants.push_back({width, height, steps, rule});
      }
    }
  }
  return variants;
}

// Every start square (and every position after one move from it, to cover both sides to move)
// of every board up to 4x4 plus 5x3 and 3x5, both step sets, both stuck rules: df-pn, the
// Solver and the tiny minimax all agree. One df-pn object per variant, so later solves also
// read entries earlier ones left in its table.
TEST(ProofNumberSearch, AgreesOnEverySmallBoardStartSquare) {
  int checked = 0;
  int reported = 0;
  for (const Variant& variant : small_variants()) {
    const Board board(variant.width, variant.height, variant.steps);
    TinyMinimax minimax = minimax_of(variant);
    for (Square start = 0; start < board.square_count(); ++start) {
      if (board.is_goal(start)) continue;
      const Rastros game(board, start, variant.rule);
      ProofNumberSearch pns(game, kTableBytes);
      Solver solver(game, SolverOptions{.value_only = true});
      std::vector<Position> positions{game.start_position()};
      for (Square move : game.legal_moves(game.start_position())) {
        positions.push_back(game.play(game.start_position(), move));
      }
      for (const Position& position : positions) {
        const Value expected = minimax.solve(board, position);
        const Value found = pns.solve(position);
        const Value alpha_beta = solver_value(solver, position);
        ++checked;
        if ((found != expected || alpha_beta != expected) && reported++ < kMaxReported) {
          ADD_FAILURE() << describe(variant, board, position) << ": df-pn " << to_string(found)
                        << ", alpha-beta " << to_string(alpha_beta) << ", minimax "
                        << to_string(expected);
        }
      }
    }
  }
  EXPECT_EQ(reported, 0);
  EXPECT_GT(checked, 1000);
}

// analyse(): every move's value (for the mover) is the negated minimax value of the position it
// leads to, and the position's value and best moves follow from them; along random 5x5 games
// for all four rule sets.
TEST(ProofNumberSearch, AnalyseAgreesWithMinimaxMoveByMove) {
  std::mt19937 rng(20261129);
  int reported = 0;
  int analysed = 0;
  for (const StepSet steps : {StepSet::king, StepSet::orthogonal}) {
    for (const StuckRule rule : {StuckRule::loses, StuckRule::draws}) {
      const Variant variant{5, 5, steps, rule};
      const Board board(5, 5, steps);
      TinyMinimax minimax = minimax_of(variant);
      const Rastros game(board, std::nullopt, rule);
      ProofNumberSearch pns(game, kTableBytes);
      for (int trial = 0; trial < 15; ++trial) {
        const int plies = std::uniform_int_distribution<int>(0, 10)(rng);
        const Position position = random_game(game, plies, rng);
        const Analysis analysis = pns.analyse(position);
        ++analysed;
        std::string problems;
        if (analysis.outcome.value != minimax.solve(board, position)) problems += " value;";
        if (analysis.outcome.remoteness) problems += " remoteness on a value-only answer;";
        std::vector<Square> moves;
        for (Square move : game.legal_moves(position)) moves.push_back(move);
        if (analysis.children.size() != moves.size()) problems += " not every move;";
        std::vector<Square> best;
        for (std::size_t i = 0; i < std::min(moves.size(), analysis.children.size()); ++i) {
          const MoveOutcome& child = analysis.children[i];
          const Value expected = negate(minimax.solve(board, game.play(position, moves[i])));
          if (child.move != moves[i] || child.outcome.value != expected) {
            problems += " move " + square_name(board, moves[i]) + ";";
          }
          if (expected == analysis.outcome.value) best.push_back(moves[i]);
        }
        if (analysis.best_moves != best) problems += " best moves;";
        if (!problems.empty() && reported++ < kMaxReported) {
          ADD_FAILURE() << describe(variant, board, position) << ":" << problems;
        }
      }
    }
  }
  EXPECT_EQ(reported, 0);
  EXPECT_EQ(analysed, 60);
}

// Checkpoints: a search stopped after saving a copy of its table, resumed in a fresh object from
// that copy, finds the value an uninterrupted search finds, with less work than starting over.
TEST(ProofNumberSearch, StopsAndResumesFromACopyOfItsTable) {
  const Rastros game(Board(7, 6));
  const Position start = game.start_position();
  constexpr std::size_t kBytes = std::size_t{16} << 20;
  ProofNumberSearch uninterrupted(game, kBytes);
  const Value expected = uninterrupted.solve(start);

  ProofNumberSearch first(game, kBytes);
  std::atomic<bool> stop{false};
  std::vector<unsigned char> saved;
  int saves = 0;
  ProofSearchControl control;
  control.stop = &stop;
  control.save_every = std::chrono::steady_clock::duration::zero();
  control.save = [&] {
    const std::span<const unsigned char> image = first.table_image();
    saved.assign(image.begin(), image.end());
    // Stop during the third save: well into the search, with a table worth resuming from.
    if (++saves == 3) stop = true;
  };
  first.set_control(control);
  EXPECT_THROW(first.solve(start), SearchStopped);
  // A stop asked for during a save needs no second save.
  ASSERT_EQ(saves, 3) << "the search ended before it could be stopped, or saved again";
  const std::uint64_t before_stop = first.nodes();

  ProofNumberSearch resumed(game, kBytes);
  resumed.restore_table(saved);
  EXPECT_EQ(resumed.solve(start), expected);
  EXPECT_LT(resumed.nodes(), uninterrupted.nodes()) << "the restored table saved no work";
  EXPECT_GT(before_stop, 0u);

  ProofNumberSearch other_size(game, kBytes / 2);
  EXPECT_THROW(other_size.restore_table(saved), std::invalid_argument);
}

// A table of a single bucket forces constant replacement; the answers must not change (a lost
// entry may only cost time).
TEST(ProofNumberSearch, OneBucketTableGivesTheSameValues) {
  int reported = 0;
  for (const Variant& variant : small_variants()) {
    if (variant.width * variant.height < 12) continue;
    const Board board(variant.width, variant.height, variant.steps);
    TinyMinimax minimax = minimax_of(variant);
    for (Square start = 0; start < board.square_count(); ++start) {
      if (board.is_goal(start)) continue;
      const Rastros game(board, start, variant.rule);
      ProofNumberSearch pns(game, 64);
      const Position position = game.start_position();
      const Value expected = minimax.solve(board, position);
      const Value found = pns.solve(position);
      if (found != expected && reported++ < kMaxReported) {
        ADD_FAILURE() << describe(variant, board, position) << ": df-pn " << to_string(found)
                      << ", minimax " << to_string(expected);
      }
    }
  }
  EXPECT_EQ(reported, 0);
}

// Random positions of 5x5 after random games: df-pn, alpha-beta and the minimax, all four rule
// sets, default start and a random start square.
TEST(ProofNumberSearch, AgreesOnRandom5x5Positions) {
  std::mt19937 rng(20240611);
  int reported = 0;
  for (const StepSet steps : {StepSet::king, StepSet::orthogonal}) {
    for (const StuckRule rule : {StuckRule::loses, StuckRule::draws}) {
      const Variant variant{5, 5, steps, rule};
      const Board board(5, 5, steps);
      TinyMinimax minimax = minimax_of(variant);
      for (int trial = 0; trial < 40; ++trial) {
        Square start = board.default_start();
        if (trial % 2) {
          do {
            start = std::uniform_int_distribution<int>(0, 24)(rng);
          } while (board.is_goal(start));
        }
        const Rastros game(board, start, rule);
        // A fresh table for some, one shared across the rest of the trial's positions.
        ProofNumberSearch pns(game, trial % 3 ? kTableBytes : 64 * 16);
        Solver solver(game, SolverOptions{.value_only = true});
        const int plies = std::uniform_int_distribution<int>(4, 14)(rng);
        const Position position = random_game(game, plies, rng);
        const Value expected = minimax.solve(board, position);
        const Value found = pns.solve(position);
        const Value alpha_beta = solver_value(solver, position);
        if ((found != expected || alpha_beta != expected) && reported++ < kMaxReported) {
          ADD_FAILURE() << describe(variant, board, position) << ": df-pn " << to_string(found)
                        << ", alpha-beta " << to_string(alpha_beta) << ", minimax "
                        << to_string(expected);
        }
      }
    }
  }
  EXPECT_EQ(reported, 0);
}

// Random positions of 6x6 (too big for the minimax): df-pn against alpha-beta, both step sets
// and both stuck rules.
TEST(ProofNumberSearch, AgreesWithAlphaBetaOnRandom6x6Positions) {
  std::mt19937 rng(20240612);
  int reported = 0;
  for (const StepSet steps : {StepSet::king, StepSet::orthogonal}) {
    for (const StuckRule rule : {StuckRule::loses, StuckRule::draws}) {
      const Variant variant{6, 6, steps, rule};
      const Board board(6, 6, steps);
      const Rastros game(board, std::nullopt, rule);
      ProofNumberSearch pns(game, kTableBytes);
      Solver solver(game, SolverOptions{.value_only = true, .table_bytes = kTableBytes});
      for (int trial = 0; trial < 25; ++trial) {
        const int plies = std::uniform_int_distribution<int>(3, 16)(rng);
        const Position position = random_game(game, plies, rng);
        const Value found = pns.solve(position);
        const Value alpha_beta = solver_value(solver, position);
        if (found != alpha_beta && reported++ < kMaxReported) {
          ADD_FAILURE() << describe(variant, board, position) << ": df-pn " << to_string(found)
                        << ", alpha-beta " << to_string(alpha_beta);
        }
      }
    }
  }
  EXPECT_EQ(reported, 0);
}

// The 6x6 start agrees with the Solver, and positions the rules settle cost one node or none.
TEST(ProofNumberSearch, KnownValues) {
  const Rastros game(Board(6, 6));
  ProofNumberSearch pns(game, kTableBytes);
  Solver solver(game, SolverOptions{.value_only = true});
  EXPECT_EQ(pns.solve(game.start_position()), solver_value(solver, game.start_position()));

  const Rastros seven(Board(7, 7));
  ProofNumberSearch fresh(seven, kTableBytes);
  // Player 1 to move next to a1 wins at once; the search visits no node.
  const Position near_goal = parse_position(seven.board(), "7/7/7/7/7/o6/7 1");
  EXPECT_EQ(fresh.solve(near_goal), Value::win);
  // The snail in player 2's goal with player 1 to move: player 2 has won, no search needed.
  // (Built by hand: the position parser refuses a snail on a goal.)
  const Position ended{seven.board().all_squares() & ~bit(48) & ~bit(47), 48, Player::one};
  EXPECT_EQ(fresh.solve(ended), Value::loss);
  EXPECT_EQ(fresh.nodes(), 1u);
}

// The headline result, by two independent algorithms: the value of the standard 7x7 start and
// of the position after each first move. Neither answer is written into the test.
TEST(ProofNumberSearch, AgreesWithAlphaBetaOnTheStandardGame) {
  const Rastros game(Board(7, 7));
  ProofNumberSearch pns(game, std::size_t{64} << 20);
  Solver solver(game, SolverOptions{.value_only = true, .table_bytes = std::size_t{8} << 20});
  const Position start = game.start_position();
  EXPECT_EQ(pns.solve(start), solver_value(solver, start));
  for (Square move : game.legal_moves(start)) {
    const Position child = game.play(start, move);
    EXPECT_EQ(pns.solve(child), solver_value(solver, child))
        << "after " << square_name(game.board(), move);
  }
}

}  // namespace
}  // namespace rastros
